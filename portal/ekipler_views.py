"""`/portal/ekipler`: the project's teams (CONTRACT 22): create, rename, members, routing mode, the
widget flag, delete, for `sahip` and `yonetici` (every member may look). Every rule is in
`tenants.ekipler`, as for the REST API; this module only turns forms into the calls of
`chat.yonlendirme` (its actions, which drain the queue when a team's routing changes)."""
from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from chat import yonlendirme
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from tenants import ekip, ekipler
from tenants.models import Musteri

from .views import PortalView, bulunamadi


def _alanlar(post) -> dict:
    """The form's fields as the service takes them (`uyeler` from checkboxes, null mode from "")."""
    try:
        uyeler = [int(i) for i in post.getlist("uyeler")]
    except ValueError:
        uyeler = ["?"]  # the service says what is wrong
    return {"ad": post.get("ad", ""), "uyeler": uyeler, "atama_modu": post.get("atama_modu") or None,
            "widgetta_secilir": post.get("widgetta_secilir") == "1"}


def _hata(request, exc: GecersizIstek) -> None:
    messages.error(request, " ".join(str(m) for m in exc.alanlar.values()) if exc.alanlar else str(exc.mesaj))


class EkiplerView(PortalView):
    yonetim_gerekli = True

    def get(self, request):
        return self.sayfa("portal/ekipler.html", ekipler=[ekipler.ekip_verisi(e) for e in
                                                          ekipler.ekip_list(musteri_id=self.musteri.pk)],
                          uyeler=list(ekip.ekip_list(musteri=self.musteri)), modlar=Musteri.AtamaModu.choices)

    def post(self, request):
        try:
            yeni = yonlendirme.ekip_olustur(musteri_id=self.musteri.pk, aktor_id=request.user.pk,
                                        ip=request.META.get("REMOTE_ADDR"), **_alanlar(request.POST))
            messages.success(request, _("“%(ad)s” ekibi eklendi.") % {"ad": yeni.ad})
        except GecersizIstek as exc:
            _hata(request, exc)
        return redirect("portal:ekipler")


class EkipDuzenleView(PortalView):
    """POST only: `islem` = `guncelle` or `sil`."""

    yonetim_gerekli = True

    def post(self, request, ekip_id: int):
        try:
            hedef = ekipler.ekip_get(musteri_idleri=[self.musteri.pk], ekip_id=ekip_id)
        except Bulunamadi:
            return bulunamadi(request)
        ip = request.META.get("REMOTE_ADDR")
        if request.POST.get("islem") == "sil":
            yonlendirme.ekip_sil(ekip=hedef, aktor_id=request.user.pk, ip=ip)
            messages.success(request, _("“%(ad)s” ekibi silindi.") % {"ad": hedef.ad})
            return redirect("portal:ekipler")
        try:
            hedef = yonlendirme.ekip_guncelle(ekip=hedef, aktor_id=request.user.pk, ip=ip, **_alanlar(request.POST))
            messages.success(request, _("“%(ad)s” ekibi kaydedildi.") % {"ad": hedef.ad})
        except GecersizIstek as exc:
            _hata(request, exc)
        return redirect("portal:ekipler")
