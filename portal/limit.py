"""Rate limits of the portal's login and sign-up forms (CONTRACT 9).

The same cache and the same client-IP rule (`NUM_PROXIES`) as DRF's throttles, so a forged
`X-Forwarded-For` never escapes a limit. The portal is plain Django, not DRF, so the view asks
and records explicitly instead of going through `throttle_classes`.
"""
import math

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from supportdesk.core.throttling import giris_limit_anahtari


class _PortalLimiti(SimpleRateThrottle):
    setting_name = ""

    def get_rate(self):
        # Read on each use so a test (or an operator) can tune it without a restart.
        return getattr(settings, self.setting_name)

    def izin_var(self, request) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) < self.num_requests

    def kaydet(self) -> None:
        if self.rate is None:
            return
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)

    def bekleme_saniye(self) -> int:
        wait = self.wait()
        return max(1, math.ceil(wait)) if wait is not None else self.duration


class GirisLimiti(_PortalLimiti):
    """Login attempts per client IP and e-mail (`LOGIN_RATE_LIMIT`, CONTRACT 9).

    The very bucket of the API's `LoginThrottle` (same key), so alternating between
    `/auth/login` and the portal form never doubles an attacker's budget. Keyed by e-mail too,
    so one address being guessed at never locks everyone else behind the same IP out.
    """

    setting_name = "LOGIN_RATE_LIMIT"

    def get_cache_key(self, request, view=None):
        return giris_limit_anahtari(self.get_ident(request), request.POST.get("email", ""))


class KayitLimiti(_PortalLimiti):
    """Sign-up attempts per client IP (`PORTAL_RATE_LIMIT`): what an account farm would make."""

    setting_name = "PORTAL_RATE_LIMIT"

    def get_cache_key(self, request, view=None):
        return f"throttle:portal:kayit:{self.get_ident(request)}"
