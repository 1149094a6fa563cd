"""Two-factor login in the portal (CONTRACT 18; tenants/iki_adim.py): the code step after the
password, and the account page that turns TOTP on (QR code and secret, confirmed by a first code)
and off (with a code)."""
import base64

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django_otp.plugins.otp_totp.models import TOTPDevice

from supportdesk.core.dil import dil_kodu, etkinlestir
from tenants import iki_adim
from tenants.models import Kullanici

from .views import IKI_ADIM_BEKLEYEN, PortalView, _giris_sonrasi


class KodForm(forms.Form):
    kod = forms.CharField(label=gettext_lazy("Doğrulama kodu"), max_length=12, widget=forms.TextInput(
        attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}))


def _hatali(form: KodForm) -> None:
    if form.is_valid():  # a well-formed code that did not verify (an ill-formed one has its error)
        form.add_error("kod", iki_adim.KOD_HATALI)


def bekleyen_next(request) -> str:
    return (request.session.get(IKI_ADIM_BEKLEYEN) or {}).get("next", "")


class GirisKodView(View):
    """`/portal/giris/kod`: the second step of a login whose user has TOTP on."""

    template = "portal/giris_kod.html"

    def _bekleyen(self, request):
        bekleyen = request.session.get(IKI_ADIM_BEKLEYEN) or {}
        kullanici = Kullanici.objects.filter(pk=bekleyen.get("kullanici"), is_active=True).first()
        if kullanici is not None and (kod := dil_kodu(kullanici.dil)):
            # The password named the member: the code step speaks its language (CONTRACT 19).
            etkinlestir(request, kod)
        return bekleyen, kullanici

    def get(self, request):
        _, kullanici = self._bekleyen(request)
        if kullanici is None:
            return redirect("portal:giris")
        return render(request, self.template, {"form": KodForm(), "next": bekleyen_next(request)})

    def post(self, request):
        bekleyen, kullanici = self._bekleyen(request)
        if kullanici is None:
            return redirect("portal:giris")
        form = KodForm(request.POST)
        cihaz = iki_adim.onayli_cihaz(kullanici)
        if form.is_valid() and cihaz is not None and iki_adim.kod_dogrula(cihaz, form.cleaned_data["kod"]):
            request.session.pop(IKI_ADIM_BEKLEYEN, None)
            login(request, kullanici, backend=bekleyen.get("backend"))
            iki_adim.oturumu_dogrula(request, cihaz)
            return _giris_sonrasi(request)  # `next` came back as the form's hidden field
        iki_adim.kod_basarisiz(request, kullanici)  # counted towards the lockout, and in the audit log
        if getattr(request, "axes_locked_out", False):
            request.session.pop(IKI_ADIM_BEKLEYEN, None)
        _hatali(form)
        return render(request, self.template, {"form": form, "next": bekleyen.get("next", "")}, status=400)


class IkiAdimView(PortalView):
    """`/portal/hesap/iki-adim`: turn TOTP on (scan, then confirm with a code) or off."""

    aktif_proje_gerekli = False

    def _kurulum(self, request, form=None, status=200):
        cihaz = iki_adim.onayli_cihaz(request.user)
        if cihaz is not None:
            return self.sayfa("portal/iki_adim.html", acik=True, form=form or KodForm(), status=status)
        cihaz = (TOTPDevice.objects.filter(user=request.user, confirmed=False).order_by("id").first()
                 or TOTPDevice.objects.create(user=request.user, name="portal", confirmed=False))
        qr = segno.make(cihaz.config_url, error="m")
        return self.sayfa("portal/iki_adim.html", acik=False, form=form or KodForm(), status=status,
                          qr_svg=qr.svg_inline(scale=4), gizli=base64.b32encode(cihaz.bin_key).decode().rstrip("="),
                          config_url=cihaz.config_url)

    def get(self, request):
        return self._kurulum(request)

    def post(self, request):
        form = KodForm(request.POST)
        islem = request.POST.get("islem")
        if islem == "kapat":
            cihaz = iki_adim.onayli_cihaz(request.user)
            if cihaz is not None and form.is_valid() and iki_adim.kod_dogrula(cihaz, form.cleaned_data["kod"]):
                TOTPDevice.objects.filter(user=request.user).delete()
                messages.success(request, _("İki adımlı doğrulama kapatıldı."))
                return redirect("portal:iki_adim")
        else:
            cihaz = TOTPDevice.objects.filter(user=request.user, confirmed=False).order_by("id").first()
            if cihaz is not None and form.is_valid() and iki_adim.kod_dogrula(cihaz, form.cleaned_data["kod"]):
                TOTPDevice.objects.filter(user=request.user, confirmed=True).delete()
                cihaz.confirmed = True
                cihaz.save(update_fields=["confirmed"])
                iki_adim.oturumu_dogrula(request, cihaz)
                messages.success(request, _("İki adımlı doğrulama açıldı: bundan sonra girişte kod sorulacak."))
                return redirect("portal:iki_adim")
        _hatali(form)
        return self._kurulum(request, form=form, status=400)
