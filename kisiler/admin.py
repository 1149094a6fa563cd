from django.contrib import admin

from .models import Kisi, KisiZiyaretci, NitelikTanimi


class _SaltOkunur(admin.ModelAdmin):
    """Contacts change through their services (typed attributes checked, merges audited;
    HOUSE-STYLE 28): the admin only shows them. Nor does it delete: a contact goes with the erasure
    of its visitor ids (CONTRACT 18, 25: `DELETE /operator/ziyaretci/{id}` or the portal's button,
    which erase its chats, tickets and files too and leave `ziyaretci_silindi` in the audit log);
    a row deleted here would leave all of that behind, unaudited. A declaration goes by the
    tenant's `PUT .../nitelikler`, which checks what the contacts hold."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        # Refused on this model's own admin pages (its delete page, the list's bulk action); a
        # tenant or user deleted on its own page takes its contacts with it (Django's admin asks
        # every cascaded row's admin for this permission, with the tenant's page as the view).
        eslesme = request.resolver_match
        kendi = f"{self.opts.app_label}_{self.opts.model_name}_"
        if eslesme is None or (eslesme.url_name or "").startswith(kendi):
            return False
        return super().has_delete_permission(request, obj)


class KisiZiyaretciInline(admin.TabularInline):
    model = KisiZiyaretci
    fields = ["ziyaretci_id", "olusturulma"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Kisi)
class KisiAdmin(_SaltOkunur):
    list_display = ["id", "musteri", "ad", "email", "telefon", "sirket", "olusturulma"]
    search_fields = ["ad", "email", "sirket", "ziyaretciler__ziyaretci_id"]
    list_select_related = ["musteri"]
    inlines = [KisiZiyaretciInline]


@admin.register(NitelikTanimi)
class NitelikTanimiAdmin(_SaltOkunur):
    list_display = ["musteri", "anahtar", "ad", "tur", "sira"]
    list_select_related = ["musteri"]
