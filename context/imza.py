"""Signed identity on customer-info (spec 5.3, CONTRACT 6).

HMAC-SHA256 keyed with the tenant's `api_secret` over ``f"{ziyaretci_id}|{email}|{timestamp}"``
(`email` is "" when absent), as a hex digest; the timestamp within +-300 s of server time.
"""
import hashlib
import hmac
import re
import time

from supportdesk.core.exceptions import GecersizImza, GecersizIstek

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
    raise GecersizIstek(alanlar={"timestamp": "Tamsayı olmalı (Unix saniyesi)."})


def imza_dogrula(*, api_secret: str, ziyaretci_id: str, email: str | None, timestamp, signature,
                 simdi: float | None = None) -> None:
    """Raise `GecersizImza` unless `signature` is valid and `timestamp` is fresh.

    A `signature` or `timestamp` of the wrong JSON type is `GecersizIstek` (400) instead: the
    client sent a malformed request, not a signature that failed to verify.
    """
    if not isinstance(signature, str):
        raise GecersizIstek(alanlar={"signature": "Onaltılık HMAC-SHA256 özeti metni olmalı."})
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
