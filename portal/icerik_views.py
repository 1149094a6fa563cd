"""`/portal/hazir-yanitlar` and `/portal/kampanyalar` (CONTRACT 13): list with a "new" form, and a
page per item to edit or delete it. Writes go through `chat.services` and `knowledge.services`,
lookups through their selectors with the active project (a guessed id is a 404)."""
from django.contrib import messages
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from chat import selectors as chat_selectors
from chat import services as chat_services
from knowledge import selectors as kb_selectors
from knowledge import services as kb_services
from knowledge.models import Kampanya
from supportdesk.core.exceptions import ApiHatasi, Bulunamadi, GecersizIstek
from tenants import etiketler
from tenants.api.temel import istek_ip

from . import forms
from .ekip_views import form_hatalari
from .views import PortalView, bulunamadi


class _ListeVeDetay(PortalView):
    """One list page with a create form and one detail page per item, for simple content."""

    yonetim_gerekli = True
    liste_sablonu = detay_sablonu = liste_adi = ""
    form_sinifi = None

    def nesneler(self):
        raise NotImplementedError

    def nesne(self, nesne_id):
        raise NotImplementedError

    def ilk_degerler(self, nesne) -> dict:
        raise NotImplementedError

    def kaydet(self, form, nesne=None):
        raise NotImplementedError

    def sil(self, nesne) -> None:
        raise NotImplementedError

    def _liste(self, form=None):
        return self.sayfa(self.liste_sablonu, nesneler=list(self.nesneler()), form=form or self.form_sinifi())

    def _detay(self, nesne, form=None):
        return self.sayfa(self.detay_sablonu, nesne=nesne, form=form or self.form_sinifi(initial=self.ilk_degerler(nesne)))

    def _kaydet(self, form, nesne=None):
        if not form.is_valid():
            return None
        try:
            return self.kaydet(form, nesne)
        except GecersizIstek as exc:
            form_hatalari(form, exc)
        except ApiHatasi as exc:  # an upload refused for its size or type
            form.add_error("gorsel" if "gorsel" in form.fields else None, exc.mesaj)
        return None

    def get(self, request, nesne_id: int | None = None):
        if nesne_id is None:
            return self._liste()
        try:
            return self._detay(self.nesne(nesne_id))
        except Bulunamadi:
            return bulunamadi(request)

    def post(self, request, nesne_id: int | None = None):
        if nesne_id is None:
            form = self.form_sinifi(request.POST, request.FILES)
            if self._kaydet(form) is None:
                return self._liste(form)
            messages.success(request, _("Kaydedildi."))
            return redirect(self.liste_adi)
        try:
            nesne = self.nesne(nesne_id)
        except Bulunamadi:
            return bulunamadi(request)
        if request.POST.get("islem") == "sil":
            self.sil(nesne)
            messages.success(request, _("Silindi."))
            return redirect(self.liste_adi)
        form = self.form_sinifi(request.POST, request.FILES)
        if self._kaydet(form, nesne) is None:
            return self._detay(self.nesne(nesne_id), form)  # the stored item, unchanged
        messages.success(request, _("Kaydedildi."))
        return redirect(self.liste_adi)


class HazirYanitView(_ListeVeDetay):
    liste_sablonu, detay_sablonu, liste_adi = "portal/hazir_yanitlar.html", "portal/hazir_yanit.html", "portal:hazir_yanitlar"
    form_sinifi = forms.HazirYanitForm

    def sayfa(self, template: str, status: int = 200, **context):
        return super().sayfa(template, status, degiskenler=forms.hazir_yanit_degiskenleri(), **context)

    def nesneler(self):
        return chat_selectors.hazir_yanit_list(musteri_idleri=[self.musteri.id]).order_by("kisayol")

    def nesne(self, nesne_id):
        return chat_selectors.hazir_yanit_get(musteri_id=self.musteri.id, hazir_yanit_id=nesne_id)

    def ilk_degerler(self, nesne):
        return {"kisayol": nesne.kisayol, "baslik": nesne.baslik, "icerik": nesne.icerik}

    def kaydet(self, form, nesne=None):
        return chat_services.hazir_yanit_kaydet(musteri=self.musteri, hazir_yanit=nesne, **form.cleaned_data)

    def sil(self, nesne):
        chat_services.hazir_yanit_sil(hazir_yanit=nesne)


class KampanyaView(_ListeVeDetay):
    liste_sablonu, detay_sablonu, liste_adi = "portal/kampanyalar.html", "portal/kampanya.html", "portal:kampanyalar"
    form_sinifi = forms.KampanyaForm

    def _liste(self, form=None):
        return self.sayfa(self.liste_sablonu, nesneler=list(self.nesneler()), form=form or self.form_sinifi(),
                          simdi=timezone.now())

    def nesneler(self):
        return kb_selectors.kampanya_list(musteri=self.musteri)

    def nesne(self, nesne_id):
        return kb_selectors.kampanya_get(musteri=self.musteri, kampanya_id=nesne_id)

    def ilk_degerler(self, k: Kampanya):
        return {"baslik": k.baslik, "icerik": k.icerik, "baslangic": timezone.localtime(k.baslangic),
                "bitis": timezone.localtime(k.bitis), "gorsel_url": k.gorsel_url, "buton_metni": k.buton_metni,
                "buton_url": k.buton_url, "aktif": k.aktif, "baslik_en": k.baslik_en, "icerik_en": k.icerik_en,
                "buton_metni_en": k.buton_metni_en}

    def kaydet(self, form, nesne=None):
        d = dict(form.cleaned_data)
        dosya, kaldir = d.pop("gorsel"), d.pop("gorsel_kaldir")
        gorsel = kb_services.kampanya_gorseli_yukle(musteri=self.musteri, dosya=dosya) if dosya else None
        return kb_services.kampanya_kaydet(musteri=self.musteri, kampanya=nesne, gorsel=gorsel, gorsel_kaldir=kaldir, **d)

    def sil(self, nesne):
        kb_services.kampanya_sil(kampanya=nesne)


class EtiketView(_ListeVeDetay):
    """`/portal/etiketler` (CONTRACT 21): the project's labels; owners and `yonetici` create,
    rename, recolour and delete (the same services as the REST API, `tenants.etiketler`)."""

    liste_sablonu, detay_sablonu, liste_adi = "portal/etiketler.html", "portal/etiket.html", "portal:etiketler"
    form_sinifi = forms.EtiketForm

    def nesneler(self):
        return etiketler.etiket_list(musteri_id=self.musteri.id)

    def nesne(self, nesne_id):
        return etiketler.etiket_get(musteri_idleri=[self.musteri.id], etiket_id=nesne_id)

    def ilk_degerler(self, nesne):
        return {"ad": nesne.ad, "renk": nesne.renk}

    def _kim(self) -> dict:
        return {"kullanici_id": self.request.user.pk, "ip": istek_ip(self.request)}

    def kaydet(self, form, nesne=None):
        veri = form.cleaned_data
        if nesne is None:
            return etiketler.etiket_olustur(musteri_id=self.musteri.id, ad=veri["ad"], renk=veri["renk"], **self._kim())
        return etiketler.etiket_guncelle(etiket=nesne, ad=veri["ad"], renk=veri["renk"], **self._kim())

    def sil(self, nesne):
        etiketler.etiket_sil(etiket=nesne, **self._kim())
