from django.contrib import admin

from .models import DenetimKaydiGorunumu


@admin.register(DenetimKaydiGorunumu)
class DenetimKaydiAdmin(admin.ModelAdmin):
    """Read-only: nobody adds, edits or deletes an entry here (CONTRACT 18)."""

    list_display = ("zaman", "musteri", "eylem", "hedef", "email", "ip")
    list_filter = ("eylem",)
    search_fields = ("email", "hedef")
    list_select_related = ("musteri",)
    date_hierarchy = "zaman"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
