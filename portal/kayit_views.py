"""Sign-up (`/portal/kayit`) and its confirmation link (CONTRACT 8).

The form answers the same, after the same work, whether the address has an account or not (it
said "Bu e-posta adresiyle zaten bir hesap var.", telling anyone which addresses have accounts;
found by an outside probe): it checks the input and the limits, hashes the password, and hands
the rest to the background (`portal.tasks.kayit_basvurusu`). A new address gets a link that opens
the account and its first project and signs the user in with one click; an address with an
account gets a note to log in or reset the password instead.

The link opens the account with one click in the browser that signed up (the session remembers
the address); in any other browser it also asks for the password given at sign-up. So someone
who signs up with another person's address cannot have that person open, by one click on an
unexpected mail, an account whose password the signer knows.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.hashers import make_password
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from supportdesk.core import kosucu
from supportdesk.core.dil import dil_kodu, etkinlestir, tarayici_dili
from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi
from supportdesk.core.throttling import adres_ozeti

from . import forms, services, tasks
from .limit import KayitAdresLimiti, KayitLimiti
from .views import AKTIF_PROJE, dil_etkinlestir, hata_sayfasi, limit_yaniti

KAYIT_OTURUMU = "portal_kayit_adresleri"  # SHA-256 of the addresses this browser signed up with


class KayitView(View):
    template = "portal/kayit.html"

    def get(self, request):
        if request.user.is_authenticated:
            return redirect("portal:pano")
        return render(request, self.template, {"form": forms.KayitForm()})

    def post(self, request):
        # A client that leaves the project name out gets a default one; a blanked field is an error.
        form = forms.KayitForm(forms.takma_adlari_coz(request.POST, firma_adi=forms.varsayilan_proje_adi(0)))
        limit = KayitLimiti()
        if not limit.izin_var(request):
            return limit_yaniti(request, self.template, form, limit)
        # Every sign-up attempt counts (izin_var counted it), successful ones too: they are what
        # an account farm makes.
        if not form.is_valid():
            return render(request, self.template, {"form": form})
        d = form.cleaned_data
        sifre_ozeti = make_password(d["sifre"])  # hashed here: no password in a task's arguments
        request.session[KAYIT_OTURUMU] = [*request.session.get(KAYIT_OTURUMU, [])[-4:], adres_ozeti(d["email"])]
        if KayitAdresLimiti(d["email"]).izin_var(request):
            kok = request.build_absolute_uri("/").rstrip("/")
            # The browser's language (CONTRACT 19): the mail's, and the new account's `dil` ("" when
            # it asked for none we speak: the mail is then in the default).
            kosucu.commit_sonrasi(tasks.kayit_basvurusu, d["email"], sifre_ozeti, d["firma_adi"], d["ad"], kok,
                                  tarayici_dili(request) or "", yerel=settings.EPOSTA_YEREL_ISCI)
        return redirect("portal:kayit_gonderildi")


class KayitGonderildiView(View):
    def get(self, request):
        return render(request, "portal/kayit_gonderildi.html")


class KayitOnayView(View):
    """The mailed link: GET shows one button (so a mail scanner that fetches links opens no
    account and signs nobody in), its POST opens the account and signs the user in; outside the
    browser that signed up, with the sign-up's password."""

    template = "portal/kayit_onay.html"

    def _gecersiz(self, request):
        return hata_sayfasi(request, 404, _("Bağlantı geçersiz"), services.GECERSIZ_KAYIT_MESAJI)

    def _dil(self, request, bekleyen) -> None:
        """The page speaks the sign-up's language, as its mail did (CONTRACT 19)."""
        if kod := dil_kodu(bekleyen.dil):
            etkinlestir(request, kod)

    def _form(self, request, bekleyen, data=None):
        if adres_ozeti(bekleyen.email) in request.session.get(KAYIT_OTURUMU, []):
            return None
        return forms.KayitOnayForm(data, sifre_ozeti=bekleyen.sifre)

    def get(self, request, token: str):
        try:
            bekleyen = services.bekleyen_kayit_bul(token=token)
        except Bulunamadi:
            return self._gecersiz(request)
        self._dil(request, bekleyen)
        return render(request, self.template, {"bekleyen": bekleyen, "form": self._form(request, bekleyen)})

    def post(self, request, token: str):
        try:
            bekleyen = services.bekleyen_kayit_bul(token=token)
            self._dil(request, bekleyen)
            form = self._form(request, bekleyen, request.POST)
            if form is not None and not form.is_valid():
                return render(request, self.template, {"bekleyen": bekleyen, "form": form})
            kullanici, musteri = services.kayit_onayla(token=token)
        except Bulunamadi:
            return self._gecersiz(request)
        except DurumCakismasi:
            messages.info(request, services.HESAP_ACIK_MESAJI)
            return redirect("portal:giris")
        login(request, kullanici, backend="django.contrib.auth.backends.ModelBackend")
        services.dil_tarayicidan_ogren(kullanici=kullanici, request=request)
        dil_etkinlestir(request)
        request.session[AKTIF_PROJE] = musteri.id
        messages.success(request, _("Hoş geldiniz! “%(proje)s” projeniz 14 günlük deneme ile açıldı.")
                         % {"proje": musteri.firma_adi})
        return redirect("portal:pano")
