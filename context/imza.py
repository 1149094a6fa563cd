"""Signed identity on customer-info (spec 5.3, CONTRACT 6).

HMAC-SHA256 keyed with the tenant's `api_secret` over ``f"{ziyaretci_id}|{email}|{timestamp}"``
(`email` is "" when absent), as a hex digest; the timestamp within +-300 s of server time.

Hardened beyond spec 5.3 (CONTRACT 2a): a signed `ziyaretci_id` or `email` holding `|` is refused
(400), so no two messages sign alike; and a signature is consumed by its first use: accepted for
one call and one body (`imza_kullan`).
"""
import hashlib
import hmac
import json
import re
import time
from datetime import UTC, datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import GecersizImza, GecersizIstek

from .models import ImzaKullanimi

TOLERANS_SANIYE = 300  # spec 5.3 and 8
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_TAMSAYI = re.compile(r"-?[0-9]{1,15}")


def imza_hesapla(*, api_secret: str, ziyaretci_id: str, email: str, timestamp: int | str) -> str:
    metin = f"{ziyaretci_id}|{email}|{timestamp}"
    return hmac.new(api_secret.encode(), metin.encode(), hashlib.sha256).hexdigest()


def _timestamp_metni(timestamp) -> str | None:
    # Unix seconds as a JSON integer; a string of digits is accepted too (some server templates
    # quote everything). Missing is a signature that cannot be checked (401, CONTRACT 6); a value
    # of another JSON type (a float, a boolean, words) is a wrong type (400, CONTRACT 1).
    if timestamp is None:
        return None
    if isinstance(timestamp, int) and not isinstance(timestamp, bool):
        return str(timestamp)
    if isinstance(timestamp, str) and _TAMSAYI.fullmatch(timestamp):
        return timestamp
    raise GecersizIstek(alanlar={"timestamp": _("Tamsayı olmalı (Unix saniyesi).")})


def imza_dogrula(*, api_secret: str, ziyaretci_id: str, email: str | None, timestamp, signature,
                 simdi: float | None = None) -> None:
    """Raise `GecersizImza` unless `signature` is valid and `timestamp` is fresh.

    A `signature` or `timestamp` of the wrong JSON type is `GecersizIstek` (400) instead: the
    client sent a malformed request, not a signature that failed to verify.
    """
    if not isinstance(signature, str):
        raise GecersizIstek(alanlar={"signature": _("Onaltılık HMAC-SHA256 özeti metni olmalı.")})
    ayrac = {ad: _("İmzalı kimlikte '|' karakteri bulunamaz.") for ad, deger in (("ziyaretci_id", ziyaretci_id), ("email", email))
             if isinstance(deger, str) and "|" in deger}
    if ayrac:
        raise GecersizIstek(alanlar=ayrac)
    ts = _timestamp_metni(timestamp)
    if ts is None or not _HEX64.fullmatch(signature):
        raise GecersizImza()
    # Whole seconds on both sides, so exactly 300 s is in and 301 s is out.
    simdi = int(time.time() if simdi is None else simdi)
    if abs(simdi - int(ts)) > TOLERANS_SANIYE:
        raise GecersizImza()
    beklenen = imza_hesapla(api_secret=api_secret, ziyaretci_id=ziyaretci_id, email=email or "", timestamp=ts)
    if not hmac.compare_digest(beklenen, signature.lower()):
        raise GecersizImza()


def _govde_ozeti(govde) -> str:
    metin = json.dumps(govde, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(metin.encode("utf-8", "surrogatepass")).hexdigest()


def imza_kullan(*, musteri, amac: str, signature: str, timestamp, govde) -> None:
    """Consume a verified signature (CONTRACT 2a): it is accepted for this call and this body only.
    The same signature again on the other endpoint (`amac`: init or profile), or with any field
    changed, is `GecersizImza` (401); an identical repeat passes, and so answers as the first did.
    The signed message names no purpose, so without this the init signature, which reaches the
    browser, would also vouch for a profile the browser made up.

    Call inside the transaction that stores what the signature vouches for: if that rolls back,
    the signature was never used. The record lives until the timestamp leaves its window (after
    that `imza_dogrula` refuses the signature anyway). It is a row with a unique key rather than
    a cache entry: a cache may evict it, restart empty or be down, and each of those would let a
    changed body through; a database that is down refuses the call, which is the safe side.
    """
    ozet = _govde_ozeti({"amac": amac, "govde": govde})
    bitis = datetime.fromtimestamp(int(_timestamp_metni(timestamp)) + TOLERANS_SANIYE + 1, tz=UTC)
    kayit, yeni = ImzaKullanimi.objects.get_or_create(
        musteri=musteri, imza=signature.lower(), defaults={"amac": amac, "govde_ozeti": ozet, "bitis": bitis}
    )
    if not yeni and not hmac.compare_digest(kayit.govde_ozeti, ozet):
        raise GecersizImza()
    if yeni:
        # Expired records are useless: keep the table small on the way.
        ImzaKullanimi.objects.filter(bitis__lt=timezone.now()).delete()
