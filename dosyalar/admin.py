from django.contrib import admin

from .models import Dosya


@admin.register(Dosya)
class DosyaAdmin(admin.ModelAdmin):
    list_display = ("id", "ad", "mime_tipi", "boyut", "musteri", "ziyaretci_id", "olusturulma")
    list_filter = ("mime_tipi", "musteri")
    search_fields = ("ad", "ziyaretci_id")
    list_select_related = ("musteri",)
    readonly_fields = ("musteri", "ziyaretci_id", "dosya", "ad", "boyut", "mime_tipi", "olusturulma")

    def has_add_permission(self, request):
        # Uploads are checked by content in the service; the admin never bypasses that.
        return False
