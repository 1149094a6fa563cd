from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import services
from .ayarlar import ALANLAR as AYAR_ALANLARI
from .models import Kullanici, Musteri, Uyelik

# What the tenant form hands to `services.musteri_duzenle` (the rest of it is read-only).
DUZENLENEN = services.DUZENLENEN_ALANLAR | set(AYAR_ALANLARI)


class UyelikInline(admin.TabularInline):
    model = Uyelik
    extra = 0
    autocomplete_fields = ["kullanici", "musteri"]
    fields = ["kullanici", "musteri", "rol", "sira", "sessize_alindi", "max_chat_per_tenant"]


@admin.register(Kullanici)
class KullaniciAdmin(UserAdmin):
    ordering = ["email"]
    list_display = ["email", "ad", "musteri", "durum", "is_active", "is_staff", "date_joined"]
    list_filter = ["is_active", "is_staff", "durum"]
    search_fields = ["email", "ad"]
    autocomplete_fields = ["musteri"]
    inlines = [UyelikInline]
    fieldsets = [
        (None, {"fields": ["email", "password", "ad", "musteri", "durum"]}),
        ("Yetkiler", {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        ("Tarihler", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]})]


def _iliskiler(ad: str | None = None, alan: str | None = None) -> list:
    """Musteri's reverse relations (hidden ones too), by name or by a field their model has. Read
    off the model, so this app names none of the features above it."""
    return [f for f in Musteri._meta.get_fields(include_hidden=True)
            if f.auto_created and not f.concrete and f.one_to_many
            and (ad is None or f.get_accessor_name() == ad)
            and (alan is None or any(x.name == alan for x in f.related_model._meta.concrete_fields))]


def _alt_sorgu(iliski, ifade):
    """One value per tenant of a reverse relation, as a correlated subquery (no join fan-out)."""
    qs = (iliski.related_model._base_manager.filter(**{iliski.field.name: OuterRef("pk")}).order_by()
          .values(iliski.field.name).annotate(deger=ifade).values("deger")[:1])
    return Coalesce(Subquery(qs, output_field=IntegerField()), Value(0))


def kullanim_sutunlari() -> dict:
    """The admin's usage columns (CONTRACT 18): chats, tickets, members, bytes stored (every
    stored file's `boyut`: uploads, screenshots, kept mails), each a subquery of the list's one query."""
    sutunlar = {}
    for ad, iliski in (("sohbet_sayisi", "oturumlar"), ("ticket_sayisi", "ticketlar"), ("operator_sayisi", "uyelikler")):
        for f in _iliskiler(ad=iliski):
            sutunlar[ad] = _alt_sorgu(f, Count("*"))
    depolama = [_alt_sorgu(f, Sum("boyut")) for f in _iliskiler(alan="boyut")]
    if depolama:
        toplam = depolama[0]
        for ek in depolama[1:]:
            toplam = toplam + ek
        sutunlar["depolama_bayt"] = toplam
    return sutunlar


class MusteriForm(forms.ModelForm):
    """The service's checks as form errors (CONTRACT 15 settings, origins, colour), not a 500 or
    a stored value the API would refuse."""

    class Meta:
        model = Musteri
        fields = [f.name for f in Musteri._meta.fields if f.name in DUZENLENEN]

    def clean(self):
        data = super().clean()
        degisen = {a: data[a] for a in self.changed_data if a in DUZENLENEN and a in data}
        for alan, mesaj in services.musteri_duzenle_hatalari(degisen).items():
            self.add_error(alan if alan in self.fields else None, mesaj)
        return data


@admin.register(Musteri)
class MusteriAdmin(admin.ModelAdmin):
    """An edit goes through `services.musteri_duzenle` (checks, events, the audit log), as the
    portal's pages and the settings API do; a new tenant is saved as the form made it."""

    form = MusteriForm
    list_display = ["id", "firma_adi", "aktif", "kimlik_dogrulama_zorunlu", "trial_bitis", "olusturulma",
                    "sohbetler", "ticketlar", "operatorler", "depolama"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.resolver_match and request.resolver_match.url_name == "tenants_musteri_changelist":
            qs = qs.annotate(**kullanim_sutunlari())
        return qs

    @admin.display(description=_("sohbet"), ordering="sohbet_sayisi")
    def sohbetler(self, obj):
        return getattr(obj, "sohbet_sayisi", "—")

    @admin.display(description=_("ticket"), ordering="ticket_sayisi")
    def ticketlar(self, obj):
        return getattr(obj, "ticket_sayisi", "—")

    @admin.display(description=_("üye"), ordering="operator_sayisi")
    def operatorler(self, obj):
        return getattr(obj, "operator_sayisi", "—")

    @admin.display(description=_("depolama"), ordering="depolama_bayt")
    def depolama(self, obj):
        bayt = getattr(obj, "depolama_bayt", None)
        return "—" if bayt is None else filesizeformat(bayt)

    list_filter = ["aktif", "kimlik_dogrulama_zorunlu"]
    search_fields = ["firma_adi", "api_key"]
    readonly_fields = ["api_key", "api_secret", "olusturulma", "logo"]
    inlines = [UyelikInline]

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        degisen = {a: form.cleaned_data[a] for a in form.changed_data if a in DUZENLENEN}
        services.musteri_duzenle(musteri=obj, degisiklikler=degisen, kullanici=request.user)
    actions = ["widget_anahtarini_yenile", "api_secret_yenile", "devre_disi_birak", "etkinlestir"]

    @admin.action(description=_("Projeyi devre dışı bırak (widget anahtarı hemen çalışmaz)"))
    def devre_disi_birak(self, request, queryset):
        for musteri in queryset:
            services.musteri_aktiflik_ayarla(musteri=musteri, aktif=False)
        sayi = queryset.count()
        metin = ngettext("%(sayi)s proje devre dışı bırakıldı.",
                         "%(sayi)s proje devre dışı bırakıldı.", sayi)
        self.message_user(request, metin % {"sayi": sayi}, messages.SUCCESS)

    @admin.action(description=_("Projeyi yeniden etkinleştir"))
    def etkinlestir(self, request, queryset):
        for musteri in queryset:
            services.musteri_aktiflik_ayarla(musteri=musteri, aktif=True)
        sayi = queryset.count()
        metin = ngettext("%(sayi)s proje etkinleştirildi.",
                         "%(sayi)s proje etkinleştirildi.", sayi)
        self.message_user(request, metin % {"sayi": sayi}, messages.SUCCESS)

    @admin.action(description=_("Widget anahtarını yenile"))
    def widget_anahtarini_yenile(self, request, queryset):
        for musteri in queryset:
            services.musteri_anahtar_yenile(musteri=musteri, hangisi="api_key")
        sayi = queryset.count()
        metin = ngettext("%(sayi)s projenin widget anahtarı yenilendi.",
                         "%(sayi)s projenin widget anahtarı yenilendi.", sayi)
        self.message_user(request, metin % {"sayi": sayi}, messages.SUCCESS)

    @admin.action(description=_("API gizli anahtarını yenile"))
    def api_secret_yenile(self, request, queryset):
        for musteri in queryset:
            services.musteri_anahtar_yenile(musteri=musteri, hangisi="api_secret")
        sayi = queryset.count()
        metin = ngettext("%(sayi)s projenin gizli anahtarı yenilendi.",
                         "%(sayi)s projenin gizli anahtarı yenilendi.", sayi)
        self.message_user(request, metin % {"sayi": sayi}, messages.SUCCESS)


@admin.register(Uyelik)
class UyelikAdmin(admin.ModelAdmin):
    list_display = ["kullanici", "musteri", "rol", "sira", "sessize_alindi", "max_chat_per_tenant"]
    list_filter = ["rol", "sessize_alindi"]
    search_fields = ["kullanici__email", "musteri__firma_adi"]
    autocomplete_fields = ["kullanici", "musteri"]
