from django import forms
from django.contrib import admin
from django.utils.translation import gettext as _

from . import services
from .models import Kampanya, KbKategori, KbMakale


@admin.register(KbKategori)
class KbKategoriAdmin(admin.ModelAdmin):
    list_display = ("ad", "slug", "musteri", "sira")
    list_filter = ("musteri",)
    search_fields = ("ad", "slug")
    list_select_related = ("musteri",)
    ordering = ("musteri", "sira", "id")

    def save_model(self, request, obj, form, change):
        d = form.cleaned_data
        obj.pk = services.kb_kategori_kaydet(musteri=d["musteri"], slug=d["slug"], ad=d["ad"], aciklama=d["aciklama"],
                                    sira=d["sira"], kategori=obj if obj.pk else None).pk


class KbMakaleForm(forms.ModelForm):
    class Meta:
        model = KbMakale
        fields = ("musteri", "kategori", "baslik", "slug", "ozet", "icerik", "yayinda", "sira")

    def clean(self):
        data = super().clean()
        kategori, musteri = data.get("kategori"), data.get("musteri")
        if kategori and musteri and kategori.musteri_id != musteri.id:
            self.add_error("kategori", _("Kategori bu projeye ait değil."))
        return data


@admin.register(KbMakale)
class KbMakaleAdmin(admin.ModelAdmin):
    form = KbMakaleForm
    list_display = ("baslik", "slug", "musteri", "kategori", "yayinda", "goruntulenme", "guncellenme")
    list_filter = ("yayinda", "musteri")
    search_fields = ("baslik", "slug", "ozet")
    list_select_related = ("musteri", "kategori")
    readonly_fields = ("goruntulenme", "guncellenme")
    prepopulated_fields = {"slug": ("baslik",)}

    def save_model(self, request, obj, form, change):
        # Through the service: HTML is sanitized and the search columns and vector rebuilt.
        d = form.cleaned_data
        obj.pk = services.kb_makale_kaydet(
            musteri=d["musteri"], slug=d["slug"], baslik=d["baslik"], icerik=d["icerik"], ozet=d["ozet"],
            kategori=d["kategori"], yayinda=d["yayinda"], sira=d["sira"], makale=obj if obj.pk else None,
        ).pk


@admin.register(Kampanya)
class KampanyaAdmin(admin.ModelAdmin):
    list_display = ("baslik", "musteri", "aktif", "baslangic", "bitis")
    list_filter = ("aktif", "musteri")
    search_fields = ("baslik",)
    list_select_related = ("musteri",)

    def save_model(self, request, obj, form, change):
        d = form.cleaned_data
        obj.pk = services.kampanya_kaydet(
            musteri=d["musteri"], baslik=d["baslik"], baslangic=d["baslangic"], bitis=d["bitis"], icerik=d["icerik"],
            gorsel_url=d["gorsel_url"], buton_metni=d["buton_metni"], buton_url=d["buton_url"], aktif=d["aktif"],
            kampanya=obj if obj.pk else None,
        ).pk
