"""Signed addresses and links of mails (CONTRACT 14).

Reply-To of a ticket mail: `<local>+t<ticket id>-<mac>@<domain>`; the tenant's own address:
`<local>+m<tenant id>-<mac>@<domain>`. The MAC is an HMAC of the server's key (Django's
`salted_hmac` over SECRET_KEY), lower-case hex, since mail systems may fold the case of a local
part. A token whose MAC does not match names nothing (the same 404 as an unknown id).
Stop links carry a signed, URL-safe value naming the tenant and what to stop.
"""
import re

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

_TUZ = "eposta.adres"
_DURDUR_TUZ = "eposta.durdur"
_TOKEN = re.compile(r"^([tm])(\d{1,18})-([0-9a-f]{20})$")


def _mac(tur: str, kimlik: int) -> str:
    return salted_hmac(_TUZ, f"{tur}{kimlik}").hexdigest()[:20]


def _token(tur: str, kimlik: int) -> str:
    return f"{tur}{kimlik}-{_mac(tur, kimlik)}"


def _adres(token: str) -> str:
    return f"{settings.INBOUND_EMAIL_LOCAL}+{token}@{settings.INBOUND_EMAIL_DOMAIN}"


def ticket_yanit_adresi(ticket_id: int) -> str:
    return _adres(_token("t", ticket_id))


def musteri_gelen_adresi(musteri_id: int) -> str:
    return _adres(_token("m", musteri_id))


def adres_coz(adres: str) -> tuple[str, int] | None:
    """("t", ticket id) or ("m", tenant id) for one of our signed addresses, else None."""
    adres = (adres or "").strip().lower()
    yerel, _, alan = adres.rpartition("@")
    if alan != settings.INBOUND_EMAIL_DOMAIN.lower() or "+" not in yerel:
        return None
    on, _, token = yerel.partition("+")
    if on != settings.INBOUND_EMAIL_LOCAL.lower():
        return None
    eslesme = _TOKEN.match(token)
    if not eslesme:
        return None
    tur, kimlik, mac = eslesme.group(1), int(eslesme.group(2)), eslesme.group(3)
    if not constant_time_compare(mac, _mac(tur, kimlik)):
        return None
    return tur, kimlik


def durdurma_tokeni(*, musteri_id: int, kapsam: str) -> str:
    return signing.dumps({"m": musteri_id, "k": kapsam}, salt=_DURDUR_TUZ, compress=False)


def durdurma_coz(token: str) -> tuple[int, str] | None:
    try:
        veri = signing.loads(token, salt=_DURDUR_TUZ)
    except signing.BadSignature:
        return None
    if not isinstance(veri, dict) or not isinstance(veri.get("m"), int) or not isinstance(veri.get("k"), str):
        return None
    return veri["m"], veri["k"]
