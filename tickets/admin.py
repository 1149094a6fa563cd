from django import forms
from django.contrib import admin
from django.db import transaction

from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi, GecersizIstek

from . import services
from .models import Ticket, TicketYanit

# Plain text of the ticket, saved as typed; owner and priority go through `ticket_duzenle`.
DUZ_ALANLAR = ("konu", "ad", "email")
SERVIS_ALANLARI = ("oncelik", "operator")


class TicketYanitInline(admin.TabularInline):
    model = TicketYanit
    extra = 0
    fields = ("zaman", "gonderen", "operator", "icerik", "ekler")
    readonly_fields = ("zaman", "gonderen", "operator", "icerik", "ekler")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        # Replies go through the API's services, which enforce the state rules and events.
        return False


class TicketForm(forms.ModelForm):
    """Owner and priority are checked as the API checks them (a member of the ticket's tenant; a
    closed ticket is terminal): a refusal is a form error."""

    class Meta:
        model = Ticket
        fields = [*DUZ_ALANLAR, *SERVIS_ALANLARI]

    def clean(self):
        data = super().clean()
        if not self.instance.pk or not set(SERVIS_ALANLARI) & set(self.changed_data):
            return data
        try:
            services.ticket_duzenle_dogrula(ticket=self.instance, **_servis_alanlari(data, self.changed_data))
        except (Bulunamadi, DurumCakismasi, GecersizIstek) as exc:
            # 404: the owner is not a member of the ticket's tenant.
            for alan, mesaj in (exc.alanlar or {"operator" if isinstance(exc, Bulunamadi) else None: exc.mesaj}).items():
                self.add_error(alan if alan in self.fields else None, mesaj)
        return data


def _servis_alanlari(data: dict, degisen) -> dict:
    alanlar = {}
    if "oncelik" in degisen:
        alanlar["oncelik"] = data["oncelik"]
    if "operator" in degisen:
        alanlar["operator_id"] = data["operator"].pk if data.get("operator") else None
    return alanlar


@admin.register(Ticket)
class TicketAdmin(admin.ModelAdmin):
    """A priority or owner change goes through `services.ticket_duzenle` (the SLA due times move,
    the consoles hear of it), as `PATCH /operator/ticket/{id}` does; state, labels and the SLA
    clocks are the services' alone (read-only here), and tickets are made by visitors and mail."""

    form = TicketForm
    list_display = ("id", "konu", "musteri", "durum", "oncelik", "ziyaretci_id", "olusturulma", "guncellenme")
    list_filter = ("durum", "oncelik", "musteri")
    search_fields = ("konu", "ziyaretci_id", "email", "ad")
    list_select_related = ("musteri",)
    readonly_fields = ("musteri", "ziyaretci_id", "kanal", "dil", "durum", "etiketler", "olusturulma", "guncellenme")
    inlines = [TicketYanitInline]
    date_hierarchy = "olusturulma"

    def has_add_permission(self, request):
        return False

    def save_model(self, request, obj, form, change):
        duz = [a for a in DUZ_ALANLAR if a in form.changed_data]
        with transaction.atomic():
            if duz:
                obj.save(update_fields=duz)
            alanlar = _servis_alanlari(form.cleaned_data, form.changed_data)
            if alanlar:
                services.ticket_duzenle(ticket=obj, kullanici=request.user, **alanlar)
