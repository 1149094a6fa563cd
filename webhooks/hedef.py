"""Which URLs a webhook may target (CONTRACT 7).

Only http(s). Private, loopback, link-local (cloud metadata at 169.254.169.254) and other
non-public addresses are refused unless `WEBHOOK_ALLOW_PRIVATE_TARGETS` is on, so a tenant
cannot make our workers probe the internal network. The check runs when the endpoint is saved,
again before every attempt (a name may resolve differently later), and on the connected socket
itself (`oturum`), so a name that re-resolves between the check and the connection (DNS
rebinding) still cannot reach a private address.
"""
import ipaddress
import socket
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils.translation import gettext
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from supportdesk.core.exceptions import GecersizIstek

URL_MAX = 500


class HedefIzinsiz(ValueError):
    pass


def _adres_izinsiz(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def _host_adresleri(host: str, port: int) -> list:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []  # unresolvable now: the attempt will fail (and be checked) at delivery time
    return [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]


def hedef_kontrol(url: str) -> None:
    """Raise HedefIzinsiz (with a reason in the active language: a request's, or the default in a
    delivery) when the URL may not be a webhook target."""
    if not isinstance(url, str) or not url.strip():
        raise HedefIzinsiz(gettext("Adres zorunludur."))
    url = url.strip()
    if len(url) > URL_MAX:
        raise HedefIzinsiz(gettext("Adres en çok %(sayi)s karakter olabilir.") % {"sayi": URL_MAX})
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise HedefIzinsiz(gettext("Adres geçerli bir URL değil.")) from None
    if parts.scheme not in ("http", "https"):
        raise HedefIzinsiz(gettext("Yalnızca http ve https adresleri kabul edilir."))
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise HedefIzinsiz(gettext("Adreste sunucu adı yok."))
    if any(c.isspace() for c in url):
        raise HedefIzinsiz(gettext("Adres boşluk içeremez."))
    if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        return
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        raise HedefIzinsiz(gettext("Yerel adreslere webhook gönderilemez."))
    if any(_adres_izinsiz(ip) for ip in _host_adresleri(host, port)):
        raise HedefIzinsiz(gettext("Özel, yerel ya da bağlantı-yerel (link-local) adreslere webhook gönderilemez."))


def webhook_url_dogrula(url: str) -> str:
    """The cleaned URL, or GecersizIstek(alanlar={"url": reason}) for forms and the API."""
    try:
        hedef_kontrol(url)
    except HedefIzinsiz as exc:
        raise GecersizIstek(alanlar={"url": str(exc)}) from None
    return url.strip()


# --- the connected socket -------------------------------------------------------------------
def _soket_kontrol(sock) -> None:
    ip = ipaddress.ip_address(sock.getpeername()[0].split("%")[0])
    if _adres_izinsiz(ip):
        sock.close()
        raise HedefIzinsiz(gettext("Bağlanılan adres özel, yerel ya da bağlantı-yerel (link-local); gönderilmedi."))


class _DenetliHTTPConnection(HTTPConnection):
    def _new_conn(self):
        sock = super()._new_conn()
        _soket_kontrol(sock)
        return sock


class _DenetliHTTPSConnection(HTTPSConnection):
    def _new_conn(self):
        sock = super()._new_conn()
        _soket_kontrol(sock)  # before the TLS handshake: nothing is sent to a refused address
        return sock


class _DenetliHTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = _DenetliHTTPConnection


class _DenetliHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _DenetliHTTPSConnection


class _DenetliAdapter(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _DenetliHTTPConnectionPool,
                                                   "https": _DenetliHTTPSConnectionPool}


def oturum() -> requests.Session:
    """An HTTP session for delivering to tenant URLs: no environment proxies (they must not
    reroute tenant traffic), and, unless private targets are allowed, every connection's peer
    address is checked once connected (raises HedefIzinsiz)."""
    s = requests.Session()
    s.trust_env = False
    if not settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        adapter = _DenetliAdapter()
        s.mount("http://", adapter)
        s.mount("https://", adapter)
    return s
