"""Rate limits of the portal's login, sign-up and password-reset forms (CONTRACT 9).

The same cache and the same client-IP rule (`NUM_PROXIES`) as DRF's throttles, so a forged
`X-Forwarded-For` never escapes a limit. The portal is plain Django, not DRF, so the view asks
and records explicitly instead of going through `throttle_classes`.
"""
import math

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from supportdesk.core.throttling import (
    adres_ozeti,
    giris_limit_anahtari,
    kayit_ayir,
    kayit_iade,
    oran_coz,
    pencere_ayir,
    pencere_iade,
)


class _PortalLimiti:
    setting_name = ""
    get_ident = SimpleRateThrottle.get_ident
    # The sliding counter; a login limit is exact instead (supportdesk.core.throttling's doc).
    ayir, iade_et = staticmethod(pencere_ayir), staticmethod(pencere_iade)

    def __init__(self):
        # Read on each use so a test (or an operator) can tune it without a restart.
        self.oran = oran_coz(getattr(settings, self.setting_name))
        self._bekleme = 0.0

    def izin_var(self, request) -> bool:
        """Counts the attempt in the same atomic step (exact under concurrency); `iade` hands
        the place back when the attempt turns out not to count."""
        self._fis = None
        if self.oran is None:
            return True
        self.key = self.get_cache_key(request)
        izin, self._bekleme, self._fis = self.ayir(self.key, self.oran)
        return izin

    def iade(self) -> None:
        self.iade_et(self._fis)
        self._fis = None

    def kaydet(self) -> None:
        """Nothing left to do: `izin_var` counted the attempt already (kept for callers of the old API)."""

    def bekleme_saniye(self) -> int:
        return max(1, math.ceil(self._bekleme))


class GirisLimiti(_PortalLimiti):
    """Login attempts per client IP and e-mail (`LOGIN_RATE_LIMIT`, CONTRACT 9).

    The very bucket of the API's `LoginThrottle` (same key), so alternating between
    `/auth/login` and the portal form never doubles an attacker's budget. Keyed by e-mail too,
    so one address being guessed at never locks everyone else behind the same IP out.
    """

    setting_name = "LOGIN_RATE_LIMIT"
    ayir, iade_et = staticmethod(kayit_ayir), staticmethod(kayit_iade)

    def get_cache_key(self, request, view=None):
        return giris_limit_anahtari(self.get_ident(request), request.POST.get("email", ""))


class KayitLimiti(_PortalLimiti):
    """Sign-up attempts per client IP (`PORTAL_RATE_LIMIT`): what an account farm would make."""

    setting_name = "PORTAL_RATE_LIMIT"

    def get_cache_key(self, request, view=None):
        return f"throttle:portal:kayit:{self.get_ident(request)}"


class SifreSifirlamaLimiti(_PortalLimiti):
    """Password-reset requests per client IP (`PORTAL_RATE_LIMIT`, a bucket of its own)."""

    setting_name = "PORTAL_RATE_LIMIT"

    def get_cache_key(self, request, view=None):
        return f"throttle:portal:sifre:{self.get_ident(request)}"


class SifreAdresLimiti(_PortalLimiti):
    """Reset mails per address (`SIFRE_SIFIRLAMA_ADRES_LIMITI`), whatever the IPs asking: nobody
    can flood someone's inbox with reset links. Over it, the page still says "sent" (it never
    tells whether an address has an account) and nothing is sent."""

    setting_name = "SIFRE_SIFIRLAMA_ADRES_LIMITI"
    onek = "throttle:portal:sifre-adres:"

    def __init__(self, email: str):
        super().__init__()
        self.email = email

    def get_cache_key(self, request, view=None):
        return self.onek + adres_ozeti(self.email)[:40]


class KayitAdresLimiti(SifreAdresLimiti):
    """Sign-up mails per address (`KAYIT_ADRES_LIMITI`), whoever signs up with it: the sign-up
    form mails the address (a confirmation link, or "you have an account"), so nobody can flood
    someone's inbox through it. Over it, the page is the same and nothing is sent."""

    setting_name = "KAYIT_ADRES_LIMITI"
    onek = "throttle:portal:kayit-adres:"
