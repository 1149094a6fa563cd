from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.olaylar import OLAYLAR

from . import endpointler
from .hedef import webhook_url_dogrula
from .models import Olay, Teslimat, TeslimatDenemesi, WebhookEndpoint


class WebhookEndpointForm(forms.ModelForm):
    """Validation is the services' (one rule for admin, portal and commands)."""

    olaylar = forms.MultipleChoiceField(
        choices=[(o, o) for o in OLAYLAR], required=False,
        widget=forms.CheckboxSelectMultiple, help_text=_("Hiçbiri seçilmezse bütün olaylar gönderilir."),
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["musteri", "url", "olaylar", "gizli_anahtar", "aktif"]

    def clean_url(self):
        try:
            return webhook_url_dogrula(self.cleaned_data["url"])
        except GecersizIstek as exc:
            raise forms.ValidationError(exc.alanlar["url"]) from None

    def clean_gizli_anahtar(self):
        try:
            return endpointler.gizli_anahtar_dogrula(self.cleaned_data["gizli_anahtar"])
        except GecersizIstek as exc:
            raise forms.ValidationError(exc.alanlar["gizli_anahtar"]) from None


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    form = WebhookEndpointForm
    list_display = ["id", "musteri", "url", "aktif", "olay_listesi", "hata_baslangici", "devre_disi_zamani"]
    list_filter = ["aktif", "musteri"]
    search_fields = ["url", "musteri__firma_adi"]
    autocomplete_fields = ["musteri"]
    readonly_fields = ["hata_baslangici", "devre_disi_nedeni", "devre_disi_zamani", "olusturulma", "guncellenme"]
    actions = ["test_olayi_gonder"]

    @admin.display(description=_("olaylar"))
    def olay_listesi(self, obj):
        return ", ".join(obj.olaylar) or "hepsi"

    def save_model(self, request, obj, form, change):
        veri = form.cleaned_data
        if not change:
            yeni = endpointler.webhook_endpoint_olustur(
                musteri=veri["musteri"], url=veri["url"], olaylar=veri["olaylar"],
                gizli_anahtar=veri.get("gizli_anahtar") or None,
            )
            obj.pk = yeni.pk
            return
        mevcut = WebhookEndpoint.objects.get(pk=obj.pk)
        alanlar = {k: veri[k] for k in ("url", "olaylar", "gizli_anahtar", "aktif") if k in form.changed_data}
        endpointler.webhook_endpoint_guncelle(endpoint=mevcut, **alanlar)

    def delete_model(self, request, obj):
        endpointler.webhook_endpoint_sil(endpoint=obj)

    @admin.action(description=_("Test olayı gönder"))
    def test_olayi_gonder(self, request, queryset):
        for endpoint in queryset:
            endpointler.webhook_test_olayi_gonder(endpoint=endpoint)
        sayi = queryset.count()
        metin = ngettext("%(sayi)s uç noktaya test olayı kuyruğa alındı.",
                         "%(sayi)s uç noktaya test olayı kuyruğa alındı.", sayi)
        self.message_user(request, metin % {"sayi": sayi}, messages.SUCCESS)


class TeslimatDenemesiInline(admin.TabularInline):
    model = TeslimatDenemesi
    extra = 0
    can_delete = False
    fields = readonly_fields = ["numara", "zaman", "durum_kodu", "sure_ms", "basarili", "hata"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Teslimat)
class TeslimatAdmin(admin.ModelAdmin):
    list_display = ["id", "musteri", "olay_adi", "endpoint", "durum", "deneme_sayisi", "son_durum_kodu",
                    "sonraki_deneme", "olusturulma"]
    list_filter = ["durum", "olay__olay", "musteri"]
    search_fields = ["endpoint__url", "olay__id"]
    list_select_related = ["musteri", "olay", "endpoint"]
    inlines = [TeslimatDenemesiInline]
    actions = ["yeniden_gonder"]
    readonly_fields = ["musteri", "olay", "endpoint", "durum", "deneme_sayisi", "sonraki_deneme", "kilit_bitis",
                       "kuyruga_alinma", "son_durum_kodu", "son_hata", "olusturulma", "tamamlanma"]

    @admin.display(description=_("olay"), ordering="olay__olay")
    def olay_adi(self, obj):
        return obj.olay.olay

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Yeniden gönder"))
    def yeniden_gonder(self, request, queryset):
        for teslimat in queryset:
            endpointler.teslimat_yeniden_gonder(teslimat=teslimat)
        sayi = queryset.count()
        metin = ngettext("%(sayi)s teslimat yeniden kuyruğa alındı.",
                         "%(sayi)s teslimat yeniden kuyruğa alındı.", sayi)
        self.message_user(request, metin % {"sayi": sayi}, messages.SUCCESS)


@admin.register(Olay)
class OlayAdmin(admin.ModelAdmin):
    list_display = ["id", "musteri", "olay", "zaman"]
    list_filter = ["olay", "musteri"]
    readonly_fields = ["id", "musteri", "olay", "zaman", "veri"]
    list_select_related = ["musteri"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
