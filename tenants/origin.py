"""Origin whitelist (spec 5.2, CONTRACT 8): one place that parses, normalises and compares.

Entries and request headers are reduced to ``scheme://host[:port]`` with the scheme and host
lower-cased and default ports dropped, then compared for equality: no prefix, suffix or
sub-domain matching, so ``https://shop.example.com.evil.io`` never passes for
``https://shop.example.com``.
"""
import ipaddress
import re
from urllib.parse import urlsplit

from django.utils.translation import gettext

_DEFAULT_PORTS = {"http": 80, "https": 443}
_HOST_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def _host_gecerli(host: str) -> bool:
    if not host or len(host) > 253:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    return all(_HOST_LABEL.match(label) for label in host.split("."))


def _parcala(value: str):
    """Return (scheme, host, port, rest) of an absolute http(s) URL, or None when malformed."""
    if not isinstance(value, str) or not value or value != value.strip() or any(c.isspace() for c in value):
        return None
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.netloc or parts.username is not None or "@" in parts.netloc:
        return None
    host = (parts.hostname or "").lower()
    if not _host_gecerli(host):
        return None
    return scheme, host, port, parts


def _birlestir(scheme: str, host: str, port: int | None) -> str:
    shown_host = f"[{host}]" if ":" in host else host
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown_host}"
    return f"{scheme}://{shown_host}:{port}"


def origin_girdisini_normalle(value: str) -> str:
    """Normalise a whitelist entry; raise ValueError when it is not exactly scheme+host(+port)."""
    parsed = _parcala(value)
    if parsed is None:
        raise ValueError(gettext("Geçerli bir http(s) adresi değil; örnek: https://shop.example.com"))
    scheme, host, port, parts = parsed
    if parts.path not in ("", "/") or parts.query or parts.fragment or value.endswith(("?", "#")):
        raise ValueError(gettext("Yalnızca şema ve alan adı (isteğe bağlı port) girin; yol, sorgu ya da parça olmamalı."))
    return _birlestir(scheme, host, port)


def istek_originini_bul(origin: str | None, referer: str | None) -> str | None:
    """The caller's origin from ``Origin`` (preferred) or ``Referer`` (path and query ignored)."""
    value = origin if origin else referer
    if not value:
        return None
    parsed = _parcala(value)
    if parsed is None:
        return None
    scheme, host, port, _ = parsed
    return _birlestir(scheme, host, port)


def origin_izinli(izinli_originler: list, origin: str | None, referer: str | None) -> bool:
    if not izinli_originler:
        return True  # empty list (the default) accepts every origin, and none (spec 5.2.3)
    caller = istek_originini_bul(origin, referer)
    if caller is None:
        return False
    allowed = set()
    for entry in izinli_originler:
        try:
            allowed.add(origin_girdisini_normalle(entry))
        except ValueError:
            continue
    return caller in allowed
