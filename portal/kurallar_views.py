"""`/portal/kurallar` (CONTRACT 23): the project's rules, a form to create and edit one, a rule's
latest runs, and a preview of what the conditions in the form would match among the latest 100
chats or tickets. Every member reads; writes (`sahip`, `yonetici`) go through the same services as
the REST API, with the same checks: a bad rule is shown in the form and nothing is stored. The
conditions and actions are edited as JSON (the API's own shapes), beside a list of what each may
name (fields, actions, and the project's labels, canned responses, members and teams with ids)."""
import json

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from chat.models import HazirYanit
from otomasyon import dogrulama, onizleme, selectors, services
from otomasyon.models import OLAYLAR
from supportdesk.core.exceptions import ApiHatasi, Bulunamadi
from supportdesk.core.throttling import istemci_ip
from tenants.models import Ekip, Etiket, Uyelik

from .views import PortalView, bulunamadi, yetkisiz


def _json(deger) -> str:
    metin = json.dumps(deger, ensure_ascii=False, indent=1)
    try:
        metin.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate sent as `\ud800`, echoed back in the form: was a 500
        return json.dumps(deger, indent=1)
    return metin


class _KuralSayfasi(PortalView):
    # Every member reads and previews (a POST that writes nothing); saving and deleting are checked
    # in `_yazabilir`.
    yonetim_gerekli = False

    def _yazabilir(self) -> bool:
        return self.uyelik.yonetebilir

    def _form_verisi(self, request) -> tuple[dict, dict]:
        """The form as the API's body; a box that is not JSON is an error of its own."""
        p, hatalar, veri = request.POST, {}, {}
        veri = {"ad": p.get("ad", ""), "olay": p.get("olay", ""), "aktif": p.get("aktif") == "on"}
        try:
            veri["sira"] = int(p.get("sira") or 0)
        except ValueError:
            veri["sira"] = p.get("sira")
        for alan in ("kosullar", "eylemler"):
            metin = p.get(alan) or "[]"
            try:
                veri[alan] = json.loads(metin)
            except ValueError:
                veri[alan] = metin
                hatalar[alan] = _("Geçerli bir JSON listesi olmalı.")
        return veri, hatalar

    def _sayfa(self, *, veri: dict, hatalar: dict | None = None, kural=None, onizleme_sonucu=None, status=200):
        m = self.musteri.id
        return self.sayfa(
            "portal/kurallar.html", status=status, kural=kural, hatalar=hatalar or {},
            form={**veri, "kosullar": veri["kosullar"] if isinstance(veri["kosullar"], str) else _json(veri["kosullar"]),
                  "eylemler": veri["eylemler"] if isinstance(veri["eylemler"], str) else _json(veri["eylemler"])},
            kurallar=[] if kural else list(selectors.kural_list(musteri_id=m)),
            calismalar=selectors.calisma_list(kural=kural) if kural else [],
            onizleme=onizleme_sonucu, olaylar=OLAYLAR, alanlar=dogrulama.ALANLAR, islemler=dogrulama.ISLEMLER,
            eylem_turleri=dogrulama.KURAL_EYLEMLERI.items(),
            etiketler=Etiket.objects.kapsamda([m]).order_by("anahtar"),
            hazir_yanitlar=HazirYanit.objects.kapsamda([m]).order_by("kisayol"),
            uyeler=Uyelik.objects.filter(musteri_id=m).select_related("kullanici").order_by("kullanici__email"),
            ekipler=Ekip.objects.kapsamda([m]).order_by("anahtar"))

    def _onizle(self, veri: dict, hatalar: dict, kural=None):
        if not hatalar:
            try:
                kosullar = dogrulama.kosullar_dogrula(veri["kosullar"], musteri_id=self.musteri.id)
                olay = dogrulama.olay_dogrula(veri["olay"])
            except ApiHatasi as hata:
                hatalar = dict(hata.alanlar or {})
            else:
                return self._sayfa(veri=veri, kural=kural, onizleme_sonucu=onizleme.onizle(
                    musteri_id=self.musteri.id, olay=olay, kosullar=kosullar))
        return self._sayfa(veri=veri, hatalar=hatalar, kural=kural, status=400)

    def _kaydet(self, request, veri: dict, hatalar: dict, kural=None):
        if not self._yazabilir():
            return yetkisiz(request)
        if not hatalar:
            try:
                if kural is None:
                    services.kural_olustur(musteri_id=self.musteri.id, veri=veri, aktor_id=request.user.id,
                                           ip=istemci_ip(request))
                else:
                    services.kural_guncelle(kural=kural, veri=veri, aktor_id=request.user.id, ip=istemci_ip(request))
            except ApiHatasi as hata:
                hatalar = dict(hata.alanlar or {"genel": hata.mesaj})
            else:
                messages.success(request, _("Kural kaydedildi."))
                return redirect("portal:kurallar")
        return self._sayfa(veri=veri, hatalar=hatalar, kural=kural, status=400)


class KurallarView(_KuralSayfasi):
    def get(self, request):
        return self._sayfa(veri={"ad": "", "olay": OLAYLAR[0], "aktif": True, "sira": 0, "kosullar": [],
                                 "eylemler": []})

    def post(self, request):
        veri, hatalar = self._form_verisi(request)
        if request.POST.get("islem") == "onizle":
            return self._onizle(veri, hatalar)
        return self._kaydet(request, veri, hatalar)


class KuralView(_KuralSayfasi):
    def _kural(self, kural_id: int):
        return selectors.kural_get(musteri_idleri=[self.musteri.id], kural_id=kural_id)

    def get(self, request, kural_id: int):
        try:
            kural = self._kural(kural_id)
        except Bulunamadi:
            return bulunamadi(request)
        return self._sayfa(veri=selectors.kural_verisi(kural), kural=kural)

    def post(self, request, kural_id: int):
        try:
            kural = self._kural(kural_id)
        except Bulunamadi:
            return bulunamadi(request)
        if request.POST.get("islem") == "sil":
            if not self._yazabilir():
                return yetkisiz(request)
            services.kural_sil(kural=kural, aktor_id=request.user.id, ip=istemci_ip(request))
            messages.success(request, _("Kural silindi."))
            return redirect("portal:kurallar")
        veri, hatalar = self._form_verisi(request)
        if request.POST.get("islem") == "onizle":
            return self._onizle(veri, hatalar, kural)
        return self._kaydet(request, veri, hatalar, kural)
