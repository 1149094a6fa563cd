"""The operator's banner strip: CONTRACT 6 (spec 2.5, 2.6, 8) in one pure function.

No database, no clock: the caller passes today's date, so the rules are tested by table.
Input is what customer-info stored (already validated by `context.validators`).
"""
import logging
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

logger = logging.getLogger(__name__)

IKON_PAKET = "📦"
IKON_KONTOR = "💰"
IKON_TRIAL = "⏳"
IKON_DEPOLAMA = "💾"
IKON_UYARI = "⚠️"

TRIAL_KRITIK_GUN = 3  # spec 8: 3 days or fewer
DEPOLAMA_KRITIK_YUZDE = 90  # spec 8: 90 percent or more
_ONDALIK_MAX = 10  # decimals shown at most
YUZDE_YAZI_MAX = 999  # a larger percent is written "%999+" (docs/api.md, context)


def sayi_yaz(value) -> str:
    """A number without trailing zeros and never in exponent form: 50.0 -> "50", 45.50 -> "45.5".

    15 significant digits: a float's binary noise goes (0.1 + 0.2 -> "0.3") but a small value
    stays what it is (0.00001 -> "0.00001", not "0", which would contradict its `kritik`); at most
    10 decimals.
    """
    d = Decimal(format(value, ".15g")) if isinstance(value, float) else Decimal(value)
    if d.as_tuple().exponent < -_ONDALIK_MAX:  # 1e-300 is not worth 300 characters of banner
        d = d.quantize(Decimal(1).scaleb(-_ONDALIK_MAX), rounding=ROUND_HALF_UP)
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _ondalik(value) -> Decimal:
    # repr() gives the shortest form of a float, so 45.5 / 50 is exactly 91, not 91.00000000000001.
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def yuzde_yaz(yuzde: Decimal) -> str:
    """`%{floor(percent)}` (CONTRACT 6), capped: above YUZDE_YAZI_MAX it reads "%999+", so a tiny
    total stored before it was refused (5e-324 GB) cannot write hundreds of digits."""
    if yuzde >= YUZDE_YAZI_MAX + 1:  # compared before int(): 5e-324 GB makes a 300-digit number
        return f"%{YUZDE_YAZI_MAX}+"
    return f"%{int(yuzde)}"  # int() floors: the percentage is never negative here


def _oge(tip: str, icon: str, label: str, deger: str, kritik: bool) -> dict:
    return {"tip": tip, "icon": icon, "label": label, "deger": deger, "kritik": bool(kritik)}


def trial_kalan_gun(ekstra: dict, bugun: date, tz=None) -> int | float | None:
    """Days left: end date minus today's date, or `trial_kalan_gun` as given (CONTRACT 6); an
    aware end time is dated in `tz` (the tenant's zone; None: the server's)."""
    bitis = ekstra.get("trial_bitis")
    if isinstance(bitis, str) and bitis:
        dt = parse_datetime(bitis)
        if dt is not None:
            # An aware end time counts in the zone `bugun` is taken in.
            gun = timezone.localtime(dt, tz).date() if timezone.is_aware(dt) else dt.date()
        else:
            gun = parse_date(bitis)
        if gun is not None:
            return (gun - bugun).days
    elif isinstance(bitis, datetime):
        return ((timezone.localtime(bitis, tz).date() if timezone.is_aware(bitis) else bitis.date()) - bugun).days
    elif isinstance(bitis, date):
        return (bitis - bugun).days
    kalan = ekstra.get("trial_kalan_gun")
    if isinstance(kalan, (int, float)) and not isinstance(kalan, bool):
        return kalan
    return None


def _trial(ekstra: dict, bugun: date, tz=None) -> dict | None:
    n = trial_kalan_gun(ekstra, bugun, tz)
    if n is None:
        return None
    if n >= 0:
        adet = n if isinstance(n, int) else (int(n) if float(n).is_integer() else 2)  # ngettext counts in integers
        deger = ngettext("%(sayi)s gün kaldı", "%(sayi)s gün kaldı", adet) % {"sayi": sayi_yaz(n)}
    else:
        deger = _("Süresi doldu")
    return _oge("trial", IKON_TRIAL, _("Deneme süresi"), deger, n <= TRIAL_KRITIK_GUN)


def _sayi_mi(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _depolama(ekstra: dict) -> dict | None:
    kullanilan, toplam = ekstra.get("depolama_kullanilan_gb"), ekstra.get("depolama_toplam_gb")
    if _sayi_mi(kullanilan) and _sayi_mi(toplam):  # Form A wins when both forms are present
        metin = f"{sayi_yaz(kullanilan)} / {sayi_yaz(toplam)} GB"
        kritik = False
        if toplam > 0:
            yuzde = _ondalik(kullanilan) / _ondalik(toplam) * 100
            kritik = yuzde >= DEPOLAMA_KRITIK_YUZDE
            metin += f" ({yuzde_yaz(yuzde)})"
        return _oge("depolama", IKON_UYARI if kritik else IKON_DEPOLAMA, _("Depolama"), metin, kritik)

    kullanim, yuzde, kritik = ekstra.get("depolama_kullanim"), ekstra.get("depolama_dolu_yuzde"), ekstra.get("depolama_kritik")
    has_kullanim = isinstance(kullanim, str) and kullanim != ""
    if not has_kullanim and not _sayi_mi(yuzde):
        return None
    if isinstance(kritik, bool):
        kritik_mi = kritik
    else:
        kritik_mi = _sayi_mi(yuzde) and yuzde >= DEPOLAMA_KRITIK_YUZDE
    deger = kullanim if has_kullanim else yuzde_yaz(_ondalik(yuzde))
    return _oge("depolama", IKON_UYARI if kritik_mi else IKON_DEPOLAMA, _("Depolama"), deger, kritik_mi)


def banner_olustur(*, paket: str | None, kontor, ekstra: dict | None, bugun: date, tz=None) -> list[dict]:
    """Items in the contract's order (paket, kontor, trial, depolama), each only when its data is present."""
    ekstra = ekstra if isinstance(ekstra, dict) else {}
    ogeler = (
        lambda: _oge("paket", IKON_PAKET, _("Paket"), paket, False) if isinstance(paket, str) and paket else None,
        lambda: _oge("kontor", IKON_KONTOR, _("Kontör"), sayi_yaz(kontor), kontor <= 0) if _sayi_mi(kontor) else None,
        lambda: _trial(ekstra, bugun, tz),
        lambda: _depolama(ekstra),
    )
    return [item for item in map(_guvenle, ogeler) if item is not None]


def _guvenle(yap) -> dict | None:
    # Values are checked when stored, but a stored value must never make a read fail: one that
    # slipped through an older check (or a server moved to another zone) only loses its item.
    try:
        return yap()
    except (ArithmeticError, ValueError, TypeError):  # OverflowError, decimal.InvalidOperation among them
        logger.warning("Banner öğesi yazılamadı, atlandı.", exc_info=True)
        return None
