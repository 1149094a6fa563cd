from django.contrib import admin

from .models import SelfServisProje


@admin.register(SelfServisProje)
class SelfServisProjeAdmin(admin.ModelAdmin):
    list_display = ("kullanici", "musteri", "olusturulma")
    list_select_related = ("kullanici", "musteri")
    search_fields = ("kullanici__email", "musteri__firma_adi")
    date_hierarchy = "olusturulma"
    raw_id_fields = ("kullanici", "musteri")
