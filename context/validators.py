"""Checks on what a tenant's site sends, so that a bad value is a 400 at write time and never a
broken banner at read time (CONTRACT 6)."""
import json
import math
from datetime import UTC, date

from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import NUL_KARAKTERI

EKSTRA_MAX_BAYT = 16 * 1024
EKSTRA_MAX_DERINLIK = 32
SAYI_MAX = 1e15
# A non-zero storage size below this (about one byte in GB) is noise the banner would write as 0,
# and a total that small makes a percent of hundreds of digits (5e-324 GB).
DEPOLAMA_MIN_GB = 1e-9
_ILK_GUN, _SON_GUN = date(1, 1, 2), date(9999, 12, 30)

# ekstra keys the banner reads, with the check each must pass (spec 2.6, CONTRACT 6).
_NEGATIF_OLMAYAN = ("depolama_kullanilan_gb", "depolama_toplam_gb", "depolama_dolu_yuzde")
_GB = ("depolama_kullanilan_gb", "depolama_toplam_gb")


def sayi_mi(value) -> bool:
    """A JSON number: booleans and numeric strings are not numbers here.

    The range is compared first: Python compares an int of any size with a float exactly, while
    `math.isfinite` would have to convert it and raise OverflowError beyond float range."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    return abs(value) <= SAYI_MAX and math.isfinite(value)


def _tarih_mi(value) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        dt = parse_datetime(value)
        if dt is None:
            return parse_date(value) is not None
    except ValueError:  # well-formed but impossible, e.g. 2026-02-30
        return False
    # With an offset the banner moves the time into the server's zone: "9999-12-31T23:59:59-23:59"
    # is past the last datetime Python can hold once in UTC (OverflowError). Kept a day inside
    # either end, so that no zone of less than 24 hours can push it over.
    if dt.utcoffset() is None:
        return True
    try:
        utc = dt.astimezone(UTC)
    except OverflowError:
        return False
    return _ILK_GUN <= utc.date() <= _SON_GUN


def ekstra_hatalari(ekstra) -> dict[str, str]:
    """Per-field messages for `ekstra` (dotted names, as `hata.alanlar` writes them); empty when valid."""
    if not isinstance(ekstra, dict):
        return {"ekstra": _("Nesne (JSON object) olmalı.")}
    derinlik, nul = _derinlik_ve_nul(ekstra)
    if derinlik > EKSTRA_MAX_DERINLIK:
        # Every context read writes `ekstra` out again: a nesting that only just parsed must not
        # become an answer that can no longer be rendered.
        return {"ekstra": _("En çok %(sayi)s düzey iç içe olabilir.") % {"sayi": EKSTRA_MAX_DERINLIK}}
    if nul:
        # PostgreSQL's jsonb cannot hold U+0000 (in a key or a value): refused on every database.
        return {"ekstra": str(NUL_KARAKTERI)}
    try:
        boyut = len(json.dumps(ekstra, ensure_ascii=False, allow_nan=False).encode())
    except (TypeError, ValueError):
        return {"ekstra": _("Geçerli JSON değerleri içermeli.")}
    if boyut > EKSTRA_MAX_BAYT:
        return {"ekstra": _("En çok %(sayi)s bayt olabilir.") % {"sayi": EKSTRA_MAX_BAYT}}
    hatalar: dict[str, str] = {}
    for key in _NEGATIF_OLMAYAN:
        value = ekstra.get(key)
        if value is not None and not (sayi_mi(value) and value >= 0):
            hatalar[f"ekstra.{key}"] = _("Negatif olmayan bir sayı olmalı.")
    for key in _GB:
        value = ekstra.get(key)
        if f"ekstra.{key}" not in hatalar and value is not None and 0 < value < DEPOLAMA_MIN_GB:
            hatalar[f"ekstra.{key}"] = _("0 ya da en az %(gb)s GB olmalı.") % {"gb": format(DEPOLAMA_MIN_GB, "g")}
    if ekstra.get("depolama_kritik") is not None and not isinstance(ekstra["depolama_kritik"], bool):
        hatalar["ekstra.depolama_kritik"] = _("true ya da false olmalı.")
    for key in ("depolama_kullanim", "son_yedek"):
        value = ekstra.get(key)
        if value is not None and not (isinstance(value, str) and len(value) <= 200):
            hatalar[f"ekstra.{key}"] = _("En çok 200 karakterlik metin olmalı.")
    if ekstra.get("trial_bitis") is not None and not _tarih_mi(ekstra["trial_bitis"]):
        hatalar["ekstra.trial_bitis"] = _("Tarih (YYYY-AA-GG) ya da ISO 8601 tarih-saat olmalı; saat dilimli bir değer "
                                           "UTC'de 0001-01-02 ile 9999-12-30 arasında kalmalı.")
    if ekstra.get("trial_kalan_gun") is not None and not sayi_mi(ekstra["trial_kalan_gun"]):
        hatalar["ekstra.trial_kalan_gun"] = _("Sayı olmalı.")
    return hatalar


def _derinlik_ve_nul(value) -> tuple[int, bool]:
    """Nesting depth of a parsed JSON value, and whether any key or string holds U+0000.
    Iterative: a deeply nested body must not turn into a RecursionError here."""
    en_derin, yigin = 0, [(value, 1)]
    while yigin:
        deger, derinlik = yigin.pop()
        if isinstance(deger, str):
            if "\x00" in deger:
                return derinlik, True
        elif isinstance(deger, dict):
            en_derin = max(en_derin, derinlik)
            for k, v in deger.items():
                yigin.append((k, derinlik + 1))
                yigin.append((v, derinlik + 1))
        elif isinstance(deger, list):
            en_derin = max(en_derin, derinlik)
            yigin.extend((v, derinlik + 1) for v in deger)
    return en_derin, False


def http_adresi_mi(value: str) -> bool:
    # Only http(s): the operator panel may turn these into links, and javascript: must never be one.
    lowered = value.lower()
    return lowered.startswith("http://") or lowered.startswith("https://")
