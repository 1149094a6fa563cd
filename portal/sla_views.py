"""`/portal/sla`: the project's service levels (CONTRACT 17, 21): the same policy as
`GET`/`PUT /operator/tenants/{id}/sla`, read by every member and written by `sahip` and `yonetici`,
with the same checks (`tickets.sla.politika_dogrula`): a bad value is shown in the form and
nothing is stored."""
from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from supportdesk.core.throttling import istemci_ip
from tickets import sla

from .views import PortalView

ONCELIK_ADLARI = {"acil": gettext_lazy("Acil"), "yuksek": gettext_lazy("Yüksek"), "normal": gettext_lazy("Normal"),
                  "dusuk": gettext_lazy("Düşük")}
HEDEF_ADLARI = {"ilk_yanit_dk": gettext_lazy("İlk yanıt (dk)"), "sonraki_yanit_dk": gettext_lazy("Sonraki yanıt (dk)"),
                "cozum_dk": gettext_lazy("Çözüm (dk)")}


def _sayi(deger: str):
    deger = (deger or "").strip()
    if not deger:
        return None
    try:
        return int(deger)
    except ValueError:
        return deger  # refused by the check, shown as typed


class SlaView(PortalView):
    yonetim_gerekli = True

    def _sayfa(self, veri: dict, hatalar: dict | None = None, status: int = 200):
        hatalar = hatalar or {}
        satirlar = [{"oncelik": o, "ad": ONCELIK_ADLARI[o], "hucreler": [
            {"ad": f"hedef_{o}_{a}", "deger": veri["hedefler"][o][a], "hata": hatalar.get(f"hedefler.{o}.{a}")}
            for a in HEDEF_ADLARI]} for o in sla.ONCELIKLER]
        return self.sayfa("portal/sla.html", status=status, veri=veri, hatalar=hatalar, satirlar=satirlar,
                          hedef_adlari=HEDEF_ADLARI.values())

    def get(self, request):
        return self._sayfa(sla.politika_verisi(sla.politika(self.musteri.id)))

    def post(self, request):
        p = request.POST
        govde = {
            "aktif": p.get("aktif") == "on", "mesai_icinde": p.get("mesai_icinde") == "on",
            "uyari_dk": _sayi(p.get("uyari_dk")), "chat_ilk_yanit_sn": _sayi(p.get("chat_ilk_yanit_sn")),
            "hedefler": {o: {a: _sayi(p.get(f"hedef_{o}_{a}")) for a in HEDEF_ADLARI} for o in sla.ONCELIKLER},
        }
        if govde["uyari_dk"] is None:
            govde["uyari_dk"] = ""  # required here: an empty box is an error, not "no change"
        degisen, hatalar = sla.politika_dogrula(govde)
        if hatalar:
            return self._sayfa(govde, hatalar, status=400)
        sla.politika_kaydet(musteri_id=self.musteri.id, degisen=degisen, kullanici_id=request.user.id,
                            ip=istemci_ip(request))
        messages.success(request, _("SLA politikası kaydedildi."))
        return redirect("portal:sla")
