"""`/portal/ekip`: the project's members, invitations, roles (CONTRACT 13), and the invitation
link's acceptance page `/portal/davet/<token>` (for new and existing users).

Every rule (last owner, one-time link, 7 days) is in `tenants.ekip`; this module only turns
forms into its calls.
"""
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views import View

from chat import uyeler
from eposta.services import davet_eposta_gonder
from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi, GecersizIstek, Yetkisiz
from tenants import ekip
from tenants.models import Kullanici

from . import forms, services
from .views import PortalView, _proje_etkinlestir, bulunamadi, dil_etkinlestir, hata_sayfasi


def form_hatalari(form, exc) -> None:
    alanlar = getattr(exc, "alanlar", None) or {}
    for alan, mesaj in alanlar.items():
        form.add_error(alan if alan in form.fields else None, mesaj)
    if not alanlar:
        form.add_error(None, exc.mesaj)


class EkipView(PortalView):
    yonetim_gerekli = True

    def _sayfa(self, status=200, davet_form=None, yeni_davet=None):
        return self.sayfa(
            "portal/ekip.html", status=status,
            uyeler=list(ekip.ekip_list(musteri=self.musteri)),
            davetler=list(ekip.bekleyen_davet_list(musteri=self.musteri)),
            davet_form=davet_form or forms.DavetForm(), yeni_davet=yeni_davet,
            rol_secenekleri=forms.ROL_SECENEKLERI,
        )

    def get(self, request):
        return self._sayfa()

    def post(self, request):
        form = forms.DavetForm(request.POST)
        if not form.is_valid():
            return self._sayfa(davet_form=form)
        d = form.cleaned_data
        try:
            davet = ekip.davet_olustur(musteri=self.musteri, email=d["email"], rol=d["rol"], davet_eden=request.user,
                                       max_chat_per_tenant=d["max_chat_per_tenant"], yapan=self.uyelik)
        except (GecersizIstek, Yetkisiz) as exc:
            form_hatalari(form, exc)
            return self._sayfa(davet_form=form)
        # The link goes by mail (through the outbox, after the commit) and is shown once to the
        # inviter too, who may pass it on another way.
        url = request.build_absolute_uri(davet.url)
        davet_eposta_gonder(davet=davet, url=url)  # in its language (eposta.services.davet_dili)
        return self._sayfa(yeni_davet={"email": davet.email, "url": url})


class UyeView(PortalView):
    """POST only: `islem` = `guncelle` (role, chat limit) or `cikar`."""

    yonetim_gerekli = True

    def post(self, request, uyelik_id: int):
        try:
            uyelik = ekip.ekip_uyelik_get(musteri=self.musteri, uyelik_id=uyelik_id)
        except Bulunamadi:
            return bulunamadi(request)
        islem = request.POST.get("islem")
        try:
            if islem == "cikar":
                # The member's active chats go back to the queue with it, in the same transaction.
                uyeler.uyeyi_cikar(uyelik=uyelik, yapan=self.uyelik)
                messages.success(request, _("%(email)s projeden çıkarıldı.") % {"email": uyelik.kullanici.email})
            elif islem == "guncelle":
                form = forms.UyeForm(request.POST)
                if not form.is_valid():
                    for hatalar in form.errors.values():
                        messages.error(request, f"{uyelik.kullanici.email}: {' '.join(hatalar)}")
                    return redirect("portal:ekip")
                # A higher cap is room: the tenant's queue drains after the commit.
                uyeler.uyeligi_guncelle(uyelik=uyelik, rol=form.cleaned_data["rol"],
                                        max_chat_per_tenant=form.cleaned_data["max_chat_per_tenant"], yapan=self.uyelik)
                messages.success(request, _("%(email)s güncellendi.") % {"email": uyelik.kullanici.email})
            else:
                messages.error(request, _("Bilinmeyen işlem."))
        except (DurumCakismasi, GecersizIstek, Yetkisiz) as exc:
            messages.error(request, exc.mesaj if not exc.alanlar else " ".join(exc.alanlar.values()))
        return redirect("portal:ekip")


class DavetIptalView(PortalView):
    yonetim_gerekli = True

    def post(self, request, davet_id: int):
        try:
            davet = ekip.davet_get(musteri=self.musteri, davet_id=davet_id)
        except Bulunamadi:
            return bulunamadi(request)
        ekip.davet_iptal(davet=davet)
        messages.success(request, _("%(email)s davet edilmişti; davet geri alındı.") % {"email": davet.email})
        return redirect("portal:ekip")


class DavetKabulView(View):
    """The link of an invitation. A new address sets its password here; an existing user signs
    in as the invited address and joins. Unknown, expired and used links get one clean page."""

    template = "portal/davet.html"

    def _gecersiz(self, request):
        return hata_sayfasi(request, 404, _("Davet geçersiz"), ekip.GECERSIZ_DAVET_MESAJI)

    def _baglam(self, request, davet, form=None):
        mevcut = Kullanici.objects.filter(email=davet.email).exists()
        giris = f"{reverse('portal:giris')}?{urlencode({'next': request.path})}"
        return {"davet": davet, "mevcut_kullanici": mevcut, "form": form or forms.DavetKabulForm(),
                "giris_url": giris, "dogru_kullanici": request.user.is_authenticated
                and request.user.email.lower() == davet.email}

    def get(self, request, token: str):
        try:
            davet = ekip.davet_bul(token=token)
        except Bulunamadi:
            return self._gecersiz(request)
        return render(request, self.template, self._baglam(request, davet))

    def post(self, request, token: str):
        try:
            davet = ekip.davet_bul(token=token)
        except Bulunamadi:
            return self._gecersiz(request)
        form = None
        try:
            if request.user.is_authenticated and request.user.email.lower() == davet.email:
                uyelik = ekip.davet_kabul_et(token=token, kullanici=request.user)
            else:
                form = forms.DavetKabulForm(request.POST, email=davet.email)
                if not form.is_valid():
                    return render(request, self.template, self._baglam(request, davet, form))
                uyelik = ekip.davet_kabul_et(token=token, sifre=form.cleaned_data["sifre"], ad=form.cleaned_data["ad"])
                login(request, uyelik.kullanici, backend="django.contrib.auth.backends.ModelBackend")
                services.dil_tarayicidan_ogren(kullanici=uyelik.kullanici, request=request)
                dil_etkinlestir(request)
        except Bulunamadi:
            return self._gecersiz(request)
        except GecersizIstek as exc:
            form = form or forms.DavetKabulForm(email=davet.email)
            form_hatalari(form, exc)
            return render(request, self.template, self._baglam(request, davet, form))
        _proje_etkinlestir(request, uyelik.musteri_id)
        if uyelik.yonetebilir:
            katildi = _("“%(proje)s” projesine katıldınız.") % {"proje": uyelik.musteri.firma_adi}
        else:
            # CONTRACT 21: an operator works in the console; the dashboard's first card leads there.
            katildi = _("“%(proje)s” projesine katıldınız. Sohbetleri ve talepleri operatör panelinde "
                        "yanıtlarsınız.") % {"proje": uyelik.musteri.firma_adi}
        messages.success(request, katildi)
        return redirect("portal:pano")
