"""Who is acting, for the events a request causes (the audit log, CONTRACT 18).

`IstekEylemcisiMiddleware` (first in MIDDLEWARE) keeps the current request in a context variable
for the request's whole life; `eylemci()` reads, at the moment an event is published, who the
request's user is (a portal session, a console cookie or a bearer token: DRF writes the user it
authenticated back onto the Django request, so the same `request.user` is read whatever the
authentication) and the client's address (`REMOTE_ADDR`, or the `NUM_PROXIES`-th address from the
right of `X-Forwarded-For` behind that many proxies, as the rate limits read it).

A service publishing an event need not pass the caller down: listeners call `eylemci()`. A value
a publisher puts in `veri` (`kullanici_id`, `ip`) wins. Outside a request (Celery, a management
command, the runner) both are None: the system did it."""
import contextvars
from dataclasses import dataclass

from . import throttling

_istek: contextvars.ContextVar = contextvars.ContextVar("eylemci_istegi", default=None)


@dataclass(frozen=True)
class Eylemci:
    kullanici_id: int | None
    ip: str | None


def istemci_ip(request) -> str | None:
    """The client's address as the rate limits see it (`NUM_PROXIES`), at most 45 characters."""
    adres = throttling.istemci_ip(request)
    return adres[:45] if adres else None


def eylemci() -> Eylemci:
    request = _istek.get()
    if request is None:
        return Eylemci(None, None)
    kullanici = getattr(request, "user", None)
    kullanici_id = kullanici.pk if kullanici is not None and getattr(kullanici, "is_authenticated", False) else None
    return Eylemci(kullanici_id, istemci_ip(request))


def istek_ayarla(request):
    """Make `request` the current one (returns the token for `istek_birak`); for the middleware and
    for the socket consumers."""
    return _istek.set(request)


def istek_birak(token) -> None:
    _istek.reset(token)


class IstekEylemcisiMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _istek.set(request)
        try:
            return self.get_response(request)
        finally:
            _istek.reset(token)
