from django.contrib import admin

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


@admin.register(HazirYanit)
class HazirYanitAdmin(admin.ModelAdmin):
    list_display = ["kisayol", "baslik", "musteri"]
    list_filter = ["musteri"]
    search_fields = ["kisayol", "baslik", "icerik"]
    list_select_related = ["musteri"]
    autocomplete_fields = ["musteri"]
