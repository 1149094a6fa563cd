"""Signed identity on customer-info (spec 5.3, CONTRACT 6).

HMAC-SHA256 keyed with the tenant's `api_secret` over ``f"{ziyaretci_id}|{email}|{timestamp}"``
(`email` is "" when absent), as a hex digest; the timestamp within +-300 s of server time.
"""
import hashlib
import hmac
import re
import time

from supportdesk.core.exceptions import GecersizImza

TOLERANS_SANIYE = 300  # spec 5.3 and 8
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_TAMSAYI = re.compile(r"-?[0-9]{1,15}")


def imza_hesapla(*, api_secret: str, ziyaretci_id: str, email: str, timestamp: int | str) -> str:
    metin = f"{ziyaretci_id}|{email}|{timestamp}"
    return hmac.new(api_secret.encode(), metin.encode(), hashlib.sha256).hexdigest()


def _timestamp_metni(timestamp) -> str | None:
    # Unix seconds as a JSON integer; a string of digits is accepted too (some server templates
    # quote everything). Floats, booleans and anything else cannot have been signed as intended.
    if isinstance(timestamp, bool):
        return None
    if isinstance(timestamp, int):
        return str(timestamp)
    if isinstance(timestamp, str) and _TAMSAYI.fullmatch(timestamp):
        return timestamp
    return None


def imza_dogrula(*, api_secret: str, ziyaretci_id: str, email: str | None, timestamp, signature,
                 simdi: float | None = None) -> None:
    """Raise `GecersizImza` unless `signature` is valid and `timestamp` is fresh."""
    ts = _timestamp_metni(timestamp)
    if ts is None or not isinstance(signature, str) or not _HEX64.fullmatch(signature):
        raise GecersizImza()
    # Whole seconds on both sides, so exactly 300 s is in and 301 s is out.
    simdi = int(time.time() if simdi is None else simdi)
    if abs(simdi - int(ts)) > TOLERANS_SANIYE:
        raise GecersizImza()
    beklenen = imza_hesapla(api_secret=api_secret, ziyaretci_id=ziyaretci_id, email=email or "", timestamp=ts)
    if not hmac.compare_digest(beklenen, signature.lower()):
        raise GecersizImza()
