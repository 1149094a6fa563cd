"""Languages (CONTRACT 19): which one a request, a user, a widget and a chat speak.

Turkish is the source and the default; English is the second language. Everything that picks a
language calls the functions here, so "supported", "`en-US` counts as `en`" and "else `tr`" are
decided once:

- pages (portal, console's HTML, admin): the signed-in user's `dil`, else the browser's
  `Accept-Language`, else `tr`;
- the API (`/api/v1/`): `Accept-Language`, else the authenticated user's `dil` (set when the
  credential is read: `tenants.kimlik`), else `tr`;
- the widget: the tenant's `dil`; `otomatik` follows the visitor's browser (`Accept-Language`),
  else `tr`. A chat or a ticket keeps the language it was made in (`Oturum.dil`, `Ticket.dil`), so
  its `sistem` messages and its visitor mails stay in it;
- mails to members: the member's `dil`, else `tr` (`kullanici_dili`);
- what `make run` prints (the demo data's summary): the shell's locale (`kabuk_dili`).
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

VARSAYILAN = "tr"
OTOMATIK = "otomatik"


def diller() -> tuple[str, ...]:
    return tuple(kod for kod, _ad in settings.LANGUAGES)


def dil_kodu(deger) -> str | None:
    """A supported language code for `deger` (`en`, `en-US`, `EN_gb` → `en`), or None."""
    if not isinstance(deger, str) or not deger or len(deger) > 35:
        return None
    kod = deger.strip().replace("_", "-").split("-", 1)[0].lower()
    return kod if kod in diller() else None


def tarayici_dili(request) -> str | None:
    """The first supported language of the request's `Accept-Language`, by its q order, or None."""
    baslik = request.META.get("HTTP_ACCEPT_LANGUAGE", "") if request is not None else ""
    if not baslik or len(baslik) > 1000:
        return None
    for kod, q in parse_accept_lang_header(baslik):
        if q <= 0:
            break  # `q=0` means "not this one" (RFC 9110 12.4.2); the list is in q order
        if kod != "*" and (bulunan := dil_kodu(kod)):
            return bulunan
    return None


def kullanici_dili(kullanici, yedek: str | None = None) -> str:
    """A member's language: its own choice, else `yedek` (the language of the page or request that
    acts for a member who chose none), else the default (mails sent outside a request). `kullanici`
    may be None (nobody known yet)."""
    return dil_kodu(getattr(kullanici, "dil", None)) or dil_kodu(yedek) or VARSAYILAN


def sayfa_dili(request, kullanici=None) -> str:
    """A page's (and the console's) language: the member's own choice (`kullanici`, else the
    request's signed-in user), else the browser's, else the default."""
    kullanici = kullanici if kullanici is not None else getattr(request, "user", None)
    if kullanici is not None and getattr(kullanici, "is_authenticated", False):
        if kod := dil_kodu(getattr(kullanici, "dil", None)):
            return kod
    return tarayici_dili(request) or VARSAYILAN


def widget_dili(musteri, request=None) -> str:
    """The widget's language for this tenant and visitor (CONTRACT 19)."""
    secim = getattr(musteri, "dil", None)
    if secim == OTOMATIK:
        return tarayici_dili(request) or VARSAYILAN
    return dil_kodu(secim) or VARSAYILAN


def kabuk_dili(ortam=None) -> str:
    """The language of what `make run` prints (issue 39.9), decided as the Makefile's `TR` is:
    Turkish when the first of LC_ALL, LANGUAGE and LANG that is set starts with `tr`, else English
    (a `C` or unset locale too: a reader we know nothing of reads English)."""
    ortam = os.environ if ortam is None else ortam
    for ad in ("LC_ALL", "LANGUAGE", "LANG"):
        if deger := ortam.get(ad):
            return "tr" if deger.startswith("tr") else "en"
    return "en"


def api_kullanici_dili(request, kullanici) -> None:
    """Called once an API credential names a user: without a supported `Accept-Language`, the
    rest of the request (validation messages, `hata.mesaj`) speaks the user's language."""
    if tarayici_dili(request) is None:
        etkinlestir(request, kullanici_dili(kullanici))


@contextmanager
def dilde(kod: str | None):
    """Run a block in language `kod` (a chat's, a ticket's, a member's); unsupported → default."""
    with translation.override(dil_kodu(kod) or VARSAYILAN):
        yield


def etkinlestir(request, kod: str) -> None:
    """The rest of `request` speaks `kod`: once its person is known (a login, a link naming a
    member, a language just chosen, the widget's tenant), after the middleware chose."""
    translation.activate(kod)
    request.LANGUAGE_CODE = kod


class DilMiddleware:
    """First of all: activates the browser's language (or the default) for the whole request, so
    even the earliest refusals (414, a bad body) speak it, and says which language answered
    (`Content-Language`, `Vary: Accept-Language`). Django's LocaleMiddleware decides by URL prefix,
    cookie and header, not by a user's stored choice, so it is not used. Pages refine the choice
    once their user is known (`SayfaDiliMiddleware`), the API once its credential is read."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        etkinlestir(request, tarayici_dili(request) or VARSAYILAN)
        try:
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language",))
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            translation.deactivate()


class SayfaDiliMiddleware:
    """In `settings.SAYFA_MIDDLEWARE`, after authentication: a signed-in user's own language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        etkinlestir(request, sayfa_dili(request))
        return self.get_response(request)
