"""Login and sign-up attempts per client IP (`PORTAL_RATE_LIMIT`).

The same cache and the same client-IP rule (`NUM_PROXIES`) as DRF's throttles, so a forged
`X-Forwarded-For` never escapes the limit (CONTRACT 9). The portal is plain Django, not DRF, so
the view asks and records explicitly instead of going through `throttle_classes`.
"""
import math

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class PortalIpLimiti(SimpleRateThrottle):
    def __init__(self, scope: str):
        self.scope = scope
        super().__init__()

    def get_rate(self):
        # Read on each use so a test (or an operator) can tune it without a restart.
        return settings.PORTAL_RATE_LIMIT

    def get_cache_key(self, request, view=None):
        return f"throttle:portal:{self.scope}:{self.get_ident(request)}"

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
