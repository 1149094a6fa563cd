from django.contrib import admin

from .models import EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci


@admin.register(Ziyaretci)
class ZiyaretciAdmin(admin.ModelAdmin):
    list_display = ["ziyaretci_id", "musteri", "email", "ad", "soyad", "paket", "kontor", "identity_dogrulandi", "guncellenme"]
    list_filter = ["identity_dogrulandi"]
    search_fields = ["ziyaretci_id", "email", "ad", "soyad"]
    list_select_related = ["musteri"]
    raw_id_fields = ["musteri"]
    # The verified flag is set only by a signed customer-info call, never by hand.
    readonly_fields = ["identity_dogrulandi", "dogrulama_zamani", "profil_zamani", "olusturulma", "guncellenme"]


class _KayitAdmin(admin.ModelAdmin):
    list_select_related = ["musteri", "ziyaretci"]
    raw_id_fields = ["musteri", "ziyaretci"]
    search_fields = ["ziyaretci__ziyaretci_id"]
    date_hierarchy = "zaman"


@admin.register(SayfaGoruntuleme)
class SayfaGoruntulemeAdmin(_KayitAdmin):
    list_display = ["id", "ziyaretci", "url", "baslik", "zaman"]


@admin.register(HataKaydi)
class HataKaydiAdmin(_KayitAdmin):
    list_display = ["id", "ziyaretci", "mesaj", "kaynak", "satir", "zaman"]


@admin.register(EkranGoruntusu)
class EkranGoruntusuAdmin(_KayitAdmin):
    list_display = ["id", "ziyaretci", "mime_tipi", "boyut", "url", "zaman"]
