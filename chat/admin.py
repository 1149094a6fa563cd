from django import forms
from django.contrib import admin

from supportdesk.core.exceptions import GecersizIstek

from . import services
from .models import HazirYanit, Mesaj, Oturum


class MesajInline(admin.TabularInline):
    model = Mesaj
    extra = 0
    can_delete = False
    fields = ["zaman", "gonderen", "operator", "icerik", "ek"]
    readonly_fields = fields
    ordering = ["id"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Oturum)
class OturumAdmin(admin.ModelAdmin):
    """Read-mostly: state moves go through the services (API), never through this form."""

    list_display = ["id", "musteri", "ziyaretci_adi", "ziyaretci_id", "durum", "operator", "baslangic", "puan"]
    list_filter = ["durum", "kanal", "kapatan", "puan"]
    search_fields = ["ziyaretci_id", "ziyaretci_adi", "email"]
    list_select_related = ["musteri", "operator"]
    date_hierarchy = "baslangic"
    readonly_fields = [f.name for f in Oturum._meta.fields]
    inlines = [MesajInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class HazirYanitForm(forms.ModelForm):
    """The service's checks as form errors: `kisayol` gets its `/`, and one that is then taken in
    the project is an error on the field (the model's unique constraint), not a 500."""

    class Meta:
        model = HazirYanit
        fields = ("musteri", "kisayol", "baslik", "icerik")

    def clean(self):
        data = super().clean()
        if not {"kisayol", "baslik", "icerik"} <= data.keys():
            return data
        try:
            data.update(services.hazir_yanit_dogrula(data))
        except GecersizIstek as exc:
            for alan, mesaj in (exc.alanlar or {}).items():
                self.add_error(alan if alan in self.fields else None, mesaj)
            return data
        musteri_id = data["musteri"].id if data.get("musteri") else self.instance.musteri_id
        if services.kisayol_kullanimda(musteri_id=musteri_id, kisayol=data["kisayol"], haric_pk=self.instance.pk):
            self.add_error("kisayol", services.KISAYOL_VAR_MESAJI)
        return data


@admin.register(HazirYanit)
class HazirYanitAdmin(admin.ModelAdmin):
    form = HazirYanitForm
    list_display = ["kisayol", "baslik", "musteri"]
    list_filter = ["musteri"]
    search_fields = ["kisayol", "baslik", "icerik"]
    list_select_related = ["musteri"]
    autocomplete_fields = ["musteri"]

    def get_readonly_fields(self, request, obj=None):
        # A canned response stays in its project (the consoles told of a change are that project's).
        return ["musteri"] if obj else []

    def save_model(self, request, obj, form, change):
        d = form.cleaned_data
        musteri = obj.musteri if change else d["musteri"]
        obj.pk = services.hazir_yanit_kaydet(musteri=musteri, kisayol=d["kisayol"], baslik=d["baslik"],
                                             icerik=d["icerik"], hazir_yanit=obj if change else None).pk

    def delete_model(self, request, obj):
        services.hazir_yanit_sil(hazir_yanit=obj)

    def delete_queryset(self, request, queryset):
        for hazir_yanit in queryset:
            services.hazir_yanit_sil(hazir_yanit=hazir_yanit)
