"""`/portal/eposta`: the active project's inbound address (tickets by e-mail, CONTRACT 14) with
how to forward a support mailbox to it, and the member's own "new ticket" e-mail alerts (a
switch of its membership; the same as `PUT /api/v1/operator/tenants/{id}/eposta-bildirimi`)."""
from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from eposta.tokenlar import musteri_gelen_adresi
from tenants.services import uyelik_eposta_bildirimi_ayarla

from .views import PortalView


class EpostaView(PortalView):
    def get(self, request):
        return self.sayfa("portal/eposta.html", gelen_adresi=musteri_gelen_adresi(self.musteri.id),
                          eposta_bildirimi=self.uyelik.eposta_bildirimi)

    def post(self, request):
        # Every member chooses for itself: no role needed to change one's own alerts.
        acik = request.POST.get("eposta_bildirimi") == "1"
        uyelik_eposta_bildirimi_ayarla(kullanici=request.user, musteri_id=self.musteri.id, acik=acik)
        messages.success(request, _("Yeni talep e-postaları açıldı.") if acik else _("Yeni talep e-postaları kapatıldı."))
        return redirect("portal:ekip" if request.POST.get("geri") == "ekip" else "portal:eposta")
