from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import EpostaDurdurma, GelenEposta, GidenEposta


@admin.register(GidenEposta)
class GidenEpostaAdmin(admin.ModelAdmin):
    list_display = ("olusturulma", "alici", "konu", "tur", "durum", "deneme", "hata_ozeti", "gonderilme")
    list_filter = ("durum", "tur")
    search_fields = ("alici", "konu", "message_id")
    readonly_fields = [f.name for f in GidenEposta._meta.fields]
    list_select_related = False

    @admin.display(description=_("hata"))
    def hata_ozeti(self, obj):
        return obj.hata[:80]

    def has_add_permission(self, request):
        return False


@admin.register(GelenEposta)
class GelenEpostaAdmin(admin.ModelAdmin):
    list_display = ("zaman", "gonderen", "konu", "sonuc", "musteri", "ticket_id", "boyut")
    list_filter = ("sonuc",)
    search_fields = ("gonderen", "konu", "message_id")
    readonly_fields = [f.name for f in GelenEposta._meta.fields]
    list_select_related = ("musteri",)

    def has_add_permission(self, request):
        return False


@admin.register(EpostaDurdurma)
class EpostaDurdurmaAdmin(admin.ModelAdmin):
    list_display = ("zaman", "musteri", "kapsam")
    search_fields = ("kapsam",)
