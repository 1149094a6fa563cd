"""Rate limits (CONTRACT 9), read from settings on each check so they can be tuned per test."""
import hashlib

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import SimpleRateThrottle


class _ThrottleDeposu:
    """The default cache, as the throttles use it (`get` and `set`, same keys and values).

    Django's RedisCache builds a new `redis.Redis` object for every call (about 50 µs each, two
    per checked request; the connection pool is shared either way): on Redis one client object
    per cache backend is kept instead. Any other cache is simply called.
    """

    def get(self, key, default=None):
        cache = caches["default"]
        istemci = _redis_istemcisi(cache)
        if istemci is None:
            return cache.get(key, default)
        value = istemci.get(cache.make_and_validate_key(key))
        return default if value is None else cache._cache._serializer.loads(value)

    def set(self, key, value, timeout):
        cache = caches["default"]
        istemci = _redis_istemcisi(cache)
        if istemci is None or not timeout:
            cache.set(key, value, timeout)
            return
        istemci.set(cache.make_and_validate_key(key), cache._cache._serializer.dumps(value),
                    ex=cache.get_backend_timeout(timeout))


def _redis_istemcisi(cache):
    if not isinstance(cache, RedisCache):
        return None
    istemci = getattr(cache, "_throttle_istemcisi", None)
    if istemci is None:
        istemci = cache._throttle_istemcisi = cache._cache.get_client(write=True)
    return istemci


class _AyarliThrottle(SimpleRateThrottle):
    setting_name = ""
    cache = _ThrottleDeposu()

    def get_rate(self):
        return getattr(settings, self.setting_name)


class WidgetThrottle(_AyarliThrottle):
    """Widget and context calls per API key and client IP."""

    scope = "widget"
    setting_name = "WIDGET_RATE_LIMIT"

    def get_cache_key(self, request, view):
        musteri = request.auth
        return f"throttle:widget:{musteri.pk}:{self.get_ident(request)}"


class LoginThrottle(_AyarliThrottle):
    """Login attempts per client IP and e-mail.

    Only failed attempts are counted, so an operator whose client logs in often is never locked
    out by its own successes; once the budget of failures is spent, every attempt for that IP and
    e-mail (the right password too) is refused until the window moves on.
    """

    scope = "login"
    setting_name = "LOGIN_RATE_LIMIT"

    def get_cache_key(self, request, view):
        email = request.data.get("email") if hasattr(request.data, "get") else None
        return giris_limit_anahtari(self.get_ident(request), email)

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) < self.num_requests or self.throttle_failure()

    def basarisiz_kaydet(self) -> None:
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


def giris_limit_anahtari(ident: str, email) -> str:
    """The login limit's key, per client IP and e-mail (CONTRACT 9), shared by `/auth/login` and the
    portal's login form so that switching between them never doubles an attacker's budget. The
    e-mail is hashed: whatever a client types (spaces, NUL) never reaches the cache key as text."""
    email = email.strip().lower() if isinstance(email, str) else ""
    return f"throttle:login:{ident}:{hashlib.sha256(email.encode('utf-8', 'surrogatepass')).hexdigest()}"
