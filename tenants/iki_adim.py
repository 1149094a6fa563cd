"""Two-factor login (TOTP, django-otp) and the login lockout's view of a request (django-axes),
CONTRACT 18.

- A user turns TOTP on in the portal's account page (`/portal/hesap/iki-adim`): an unconfirmed
  device is made, shown as a QR code and its secret, and confirmed by a first code. From then on
  the portal login asks the code after the password, and so does the admin's login form.
- `ADMIN_2FA_ZORUNLU`: staff without a confirmed device cannot log in to the admin (they set it up
  in the portal first), and an admin session that has not passed a code is refused.
- Lockout: every login goes through `authenticate()`, which the axes backend guards; a wrong
  second-step code counts as a failed login of that account (`kod_basarisiz`).
"""
from django import forms
from django.conf import settings
from django.contrib.admin import AdminSite
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.utils.translation import gettext_lazy
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from supportdesk.core.eylemci import istemci_ip
from supportdesk.core.throttling import GirisAdresLimiti

KOD_HATALI = gettext_lazy("Doğrulama kodu hatalı ya da süresi geçmiş.")
KOD_GEREKLI = gettext_lazy(
    "İki adımlı doğrulama açık: kimlik doğrulayıcı uygulamanızdaki 6 haneli kodu `kod` alanında gönderin.")
KURULUM_GEREKLI = gettext_lazy("Yönetim paneline iki adımlı doğrulama ile girilir: önce portalda Hesabım → İki adımlı "
                               "doğrulama sayfasından kurun.")


def giris_adi(request, credentials) -> str:
    """The account a login attempt names (axes): the e-mail, however the form calls it."""
    credentials = credentials or {}
    ad = credentials.get("email") or credentials.get("username")
    if not ad and request is not None and hasattr(request, "POST"):
        ad = request.POST.get("email") or request.POST.get("username")
    return str(ad or "").strip().lower()


def istemci_adresi(request) -> str:
    return istemci_ip(request) or ""


def kilitli_reddedildi(request) -> bool:
    """Whether this login attempt was refused by the lockout (its pair was locked before it). The
    failure that locks the pair was checked and recorded, so the API answers it as the wrong
    password it was (CONTRACT 9: ten 401s, then 429); the pages show the lockout at once."""
    return getattr(request, "axes_locked_out", False) and getattr(request, "axes_failures_since_start", None) is None


def onayli_cihaz(kullanici) -> TOTPDevice | None:
    if kullanici is None or not getattr(kullanici, "pk", None):
        return None
    return TOTPDevice.objects.filter(user=kullanici, confirmed=True).order_by("id").first()


def kod_dogrula(cihaz: TOTPDevice, kod) -> bool:
    kod = "".join(str(kod or "").split())
    return bool(kod) and kod.isdigit() and cihaz.verify_token(kod)


def kod_basarisiz(request, kullanici) -> None:
    """A wrong second-step code: a failed login of that account (lockout, audit log)."""
    user_login_failed.send(sender=__name__, credentials={"email": kullanici.email}, request=request)


def oturumu_dogrula(request, cihaz: TOTPDevice) -> None:
    """Mark the (just logged-in) session as having passed a code."""
    otp_login(request, cihaz)


class YonetimGirisFormu(AdminAuthenticationForm):
    kod = forms.CharField(label=gettext_lazy("Doğrulama kodu"), required=False, max_length=12,
                          help_text="İki adımlı doğrulama açıksa kimlik doğrulayıcı uygulamanızdaki 6 haneli kod.",
                          widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}))

    def clean(self):
        temiz = super().clean()
        kullanici = self.get_user()
        cihaz = onayli_cihaz(kullanici)
        if cihaz is None:
            if settings.ADMIN_2FA_ZORUNLU:
                raise forms.ValidationError(KURULUM_GEREKLI, code="iki_adim_gerekli")
            return temiz
        if not kod_dogrula(cihaz, self.cleaned_data.get("kod")):
            kod_basarisiz(self.request, kullanici)
            raise forms.ValidationError(KOD_HATALI, code="kod_hatali")
        kullanici._yonetim_otp_cihazi = cihaz
        return temiz


class YonetimSitesi(AdminSite):
    login_form = YonetimGirisFormu
    login_template = "admin/iki_adimli_giris.html"

    def has_permission(self, request):
        if not super().has_permission(request):
            return False
        if settings.ADMIN_2FA_ZORUNLU or getattr(request.user, "otp_device", None) is not None:
            return request.user.is_verified()
        return onayli_cihaz(request.user) is None or request.user.is_verified()

    def login(self, request, extra_context=None):
        if request.method != "POST":
            return super().login(request, extra_context)
        # Spraying from one address across accounts is slowed here as on every other login
        # (CONTRACT 18, GIRIS_ADRES_LIMITI): a wrong password over the address's limit is 429; a
        # right one still logs in while its pair of account and address is not locked.
        adres = GirisAdresLimiti(request)
        adres_dolu = adres.dolu()
        yanit = super().login(request, extra_context)
        cihaz = getattr(request.user, "_yonetim_otp_cihazi", None)
        if cihaz is not None and request.user.is_authenticated:
            oturumu_dogrula(request, cihaz)
        if _yanlis_sifre(yanit) and not kilitli_reddedildi(request):
            adres.basarisiz()
            if adres_dolu:
                yanit.status_code = 429
                yanit["Retry-After"] = str(adres.bekleme_saniye())
        return yanit


def _yanlis_sifre(yanit) -> bool:
    """Whether the admin's login page was answered again for a wrong e-mail or password (not for a
    form left incomplete, nor for a wrong second-step code, which the lockout counts itself)."""
    form = (getattr(yanit, "context_data", None) or {}).get("form")
    if form is None or not form.is_bound:
        return False
    return any(hata.code == "invalid_login" for hata in form.non_field_errors().as_data())
