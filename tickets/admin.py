from django.contrib import admin

from .models import Ticket, TicketYanit


class TicketYanitInline(admin.TabularInline):
    model = TicketYanit
    extra = 0
    fields = ("zaman", "gonderen", "operator", "icerik", "ekler")
    readonly_fields = ("zaman", "gonderen", "operator", "icerik", "ekler")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        # Replies go through the API's services, which enforce the state rules and events.
        return False


@admin.register(Ticket)
class TicketAdmin(admin.ModelAdmin):
    list_display = ("id", "konu", "musteri", "durum", "oncelik", "ziyaretci_id", "olusturulma", "guncellenme")
    list_filter = ("durum", "oncelik", "musteri")
    search_fields = ("konu", "ziyaretci_id", "email", "ad")
    list_select_related = ("musteri",)
    readonly_fields = ("musteri", "ziyaretci_id", "olusturulma", "guncellenme", "durum")
    inlines = [TicketYanitInline]
    date_hierarchy = "olusturulma"

