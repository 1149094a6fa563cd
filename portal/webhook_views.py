"""`/portal/webhooks`: endpoints, the delivery log with every attempt, "send test event" (CONTRACT 7, 8).

Endpoints and deliveries are always looked up through the webhooks selectors with the active
project, so another project's id is a 404 whatever the user types.
"""
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.pagination import sayfala
from webhooks import endpointler
from webhooks import selectors as wh_selectors

from .forms import OLAY_ETIKETLERI, WebhookForm
from .views import PortalView, bulunamadi


def _form_hatalari(form, exc: GecersizIstek) -> None:
    for alan, mesaj in (exc.alanlar or {}).items():
        form.add_error(alan if alan in form.fields else None, mesaj)


class _WebhookTemel(PortalView):
    yonetim_gerekli = True

    def _kayitlar(self, endpoint=None):
        """One page of the delivery log (keyset cursor, newest first) and the next cursor."""
        qs = wh_selectors.teslimat_list(musteri=self.musteri, endpoint=endpoint)
        try:
            return sayfala(qs, self.request.GET, alanlar=("olusturulma", "id"), azalan=True)
        except GecersizIstek:
            return sayfala(qs, {}, alanlar=("olusturulma", "id"), azalan=True)

    def _sayfa(self, template, *, endpoint_filtre=None, status=200, **context):
        teslimatlar, sonraki = self._kayitlar(endpoint_filtre)
        return self.sayfa(template, status=status, teslimatlar=teslimatlar, sonraki=sonraki,
                          endpoint_filtre=endpoint_filtre, olay_etiketleri=OLAY_ETIKETLERI, **context)


class WebhookListeView(_WebhookTemel):
    def get(self, request):
        return self._liste(WebhookForm())

    def _liste(self, form, status=200):
        endpointler = list(wh_selectors.webhook_endpoint_list(musteri=self.musteri))
        return self._sayfa("portal/webhooks.html", status=status, endpointler=endpointler, form=form)

    def post(self, request):
        form = WebhookForm(request.POST)
        if not form.is_valid():
            return self._liste(form)
        try:
            endpoint = endpointler.webhook_endpoint_olustur(
                musteri=self.musteri, url=form.cleaned_data["url"], olaylar=form.cleaned_data["olaylar"])
        except GecersizIstek as exc:
            _form_hatalari(form, exc)
            return self._liste(form)
        messages.success(request, _("Webhook eklendi. İmzaları doğrulamak için aşağıdaki gizli anahtarı sunucunuza kaydedin."))
        return redirect("portal:webhook_duzenle", endpoint_id=endpoint.pk)


class WebhookDuzenleView(_WebhookTemel):
    ISLEMLER = ("guncelle", "test", "etkinlestir", "devre_disi", "gizli_yenile", "sil")

    def _endpoint(self, endpoint_id):
        return wh_selectors.webhook_endpoint_get(musteri=self.musteri, endpoint_id=endpoint_id)

    def _form_ilk(self, endpoint):
        return WebhookForm(initial={"url": endpoint.url, "olaylar": endpoint.olaylar})

    def _detay(self, endpoint, form=None, status=200):
        return self._sayfa("portal/webhook_duzenle.html", endpoint=endpoint, endpoint_filtre=endpoint,
                           form=form or self._form_ilk(endpoint), status=status)

    def get(self, request, endpoint_id: int):
        try:
            endpoint = self._endpoint(endpoint_id)
        except Bulunamadi:
            return bulunamadi(request)
        return self._detay(endpoint)

    def post(self, request, endpoint_id: int):
        try:
            endpoint = self._endpoint(endpoint_id)
        except Bulunamadi:
            return bulunamadi(request)
        islem = request.POST.get("islem", "")
        if islem not in self.ISLEMLER:
            messages.error(request, _("Bilinmeyen işlem."))
            return self._detay(endpoint, status=400)
        return getattr(self, f"_{islem}")(request, endpoint)

    def _geri(self, endpoint):
        return redirect("portal:webhook_duzenle", endpoint_id=endpoint.pk)

    def _guncelle(self, request, endpoint):
        form = WebhookForm(request.POST)
        if not form.is_valid():
            return self._detay(endpoint, form)
        try:
            endpointler.webhook_endpoint_guncelle(endpoint=endpoint, url=form.cleaned_data["url"],
                                                  olaylar=form.cleaned_data["olaylar"])
        except GecersizIstek as exc:
            _form_hatalari(form, exc)
            endpoint.refresh_from_db()
            return self._detay(endpoint, form)
        messages.success(request, _("Webhook kaydedildi."))
        return self._geri(endpoint)

    def _test(self, request, endpoint):
        endpointler.webhook_test_olayi_gonder(endpoint=endpoint)
        messages.success(request, _("Test olayı gönderildi; sonucu aşağıdaki teslimat kaydında görebilirsiniz."))
        return self._geri(endpoint)

    def _etkinlestir(self, request, endpoint):
        endpointler.webhook_endpoint_guncelle(endpoint=endpoint, aktif=True)
        messages.success(request, _("Webhook etkinleştirildi."))
        return self._geri(endpoint)

    def _devre_disi(self, request, endpoint):
        endpointler.webhook_endpoint_guncelle(endpoint=endpoint, aktif=False)
        messages.success(request, _("Webhook devre dışı bırakıldı; yeni olaylar gönderilmeyecek."))
        return self._geri(endpoint)

    def _gizli_yenile(self, request, endpoint):
        endpointler.webhook_endpoint_guncelle(endpoint=endpoint, gizli_anahtar=None)
        messages.success(request, _("İmza anahtarı yenilendi. Sunucunuzdaki doğrulama ayarını güncelleyin."))
        return self._geri(endpoint)

    def _sil(self, request, endpoint):
        url = endpoint.url
        endpointler.webhook_endpoint_sil(endpoint=endpoint)
        messages.success(request, _("%(url)s silindi.") % {"url": url})
        return redirect("portal:webhooks")


class TeslimatYenidenView(_WebhookTemel):
    def post(self, request, teslimat_id: int):
        try:
            teslimat = wh_selectors.teslimat_get(musteri=self.musteri, teslimat_id=teslimat_id)
        except Bulunamadi:
            return bulunamadi(request)
        endpointler.teslimat_yeniden_gonder(teslimat=teslimat)
        messages.success(request, _("Teslimat yeniden sıraya alındı."))
        hedef = reverse("portal:webhook_duzenle", args=[teslimat.endpoint_id])
        return redirect(hedef if request.POST.get("geri") == "endpoint" else reverse("portal:webhooks"))
