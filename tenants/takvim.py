"""A tenant's working calendar (CONTRACT 15): its zone, its weekly hours and its holidays.

One reading of the settings for every question asked of time: is the tenant open now (`acik_mi`),
when does it open next (`sonraki_acilis`, `acilislar`), and business-time arithmetic for the
service levels (`vade`: the due instant of a target counted in open time; `gecen`: the open time
between two instants).

The rules (CONTRACT 15):
- A slot is half-open, `[start, end)`, in local wall time; `"24:00"` may end one (the next day's
  midnight). A day has any number of slots; `[]` or a missing day key is closed all day.
- `tatiller` are local dates, closed all day (a slot of the day before that runs to `"24:00"` ends
  at the holiday's midnight).
- Null hours: always open but on the holidays (`acik` needs today not in `tatiller` first); with no
  holidays `vade`/`gecen` are plain arithmetic, with some they skip the holidays as any closed day.
- An opening over midnight is written as two slots on consecutive days (`cum ["22:00","24:00"]`,
  `cmt ["00:00","02:00"]`): slots that touch are one continuous opening, so `sonraki_acilis` never
  reports the second half as an opening of its own.

Time: every slot is turned into an interval of UTC instants through `zoneinfo`, so the
arithmetic is right across DST changes (a 09:00–17:00 day is 8 hours long on both change days;
a slot that runs through the hour that is skipped is an hour shorter, through the hour repeated
an hour longer). A wall time that does not exist (spring forward) starts or ends at the change
itself; an ambiguous one (fall back) is its first occurrence.

Never raises on stored data: a stored value that does not validate is read as its default
(`saat_dilimi` Europe/Istanbul, `calisma_saatleri` null, `tatiller` []), field by field, with the
same checks the settings API uses (`*_hatasi` below are those checks).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from django.utils.translation import gettext

UTC = dt.UTC
GUNLER = ("pzt", "sal", "car", "per", "cum", "cmt", "paz")  # Monday first, as date.weekday()
VARSAYILAN_SAAT_DILIMI = "Europe/Istanbul"
_SAAT = re.compile(r"^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$")
_TARIH = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# How far `vade` and `sonraki_acilis` look before answering "never" (a calendar with no open
# time at all, or holidays on every working day): ten years, so a long target still works.
EN_UZAK_GUN = 3660
TATIL_EN_COK = 1000


# --- the checks (shared with the settings API, tenants/ayarlar.py) --------------------------

# Names the zone database answers that are no place's zone (CONTRACT 15: "an IANA zone name"):
# the host's own `localtime` (whatever the server is set to), tzdata's `Factory` ("-00",
# "time zone not set"), `posixrules`, and the `posix/` and `right/` copies some systems add.
YER_OLMAYAN_BOLGELER = frozenset({"localtime", "Factory", "posixrules"})


@lru_cache(maxsize=1)
def _bolgeler() -> frozenset[str]:
    return frozenset(ad for ad in available_timezones()
                     if ad not in YER_OLMAYAN_BOLGELER and not ad.startswith(("posix/", "right/")))


def saat_dilimi_hatasi(deger) -> str | None:
    if not isinstance(deger, str) or deger not in _bolgeler():
        return gettext("Geçerli bir IANA saat dilimi olmalı (örn. Europe/Istanbul).")
    return None


def _dakika(saat) -> int | None:
    """Minutes since local midnight of "HH:MM" ("24:00" is 1440), or None if malformed."""
    if not isinstance(saat, str):
        return None
    eslesme = _SAAT.match(saat)
    if eslesme is None:
        return None
    sa, dk = (eslesme.group(1), eslesme.group(2)) if eslesme.group(1) else (eslesme.group(3), eslesme.group(4))
    return int(sa) * 60 + int(dk)


def calisma_saatleri_hatasi(deger) -> str | None:
    """None when `deger` is valid hours (null, or days of non-overlapping "HH:MM" slots)."""
    if deger is None:
        return None
    if not isinstance(deger, dict):
        return gettext("null ya da gün anahtarlı bir nesne olmalı.")
    for gun, dilimler in deger.items():
        if gun not in GUNLER:
            return gettext("Bilinmeyen gün: %(gun)s (pzt sal car per cum cmt paz).") % {"gun": repr(str(gun)[:20])}
        if not isinstance(dilimler, list):
            return gettext("%(gun)s: dilim listesi olmalı.") % {"gun": gun}
        araliklar = []
        for dilim in dilimler:
            if not isinstance(dilim, list) or len(dilim) != 2:
                return gettext('%(gun)s: her dilim ["SS:DD", "SS:DD"] olmalı.') % {"gun": gun}
            bas, bit = _dakika(dilim[0]), _dakika(dilim[1])
            if bas is None or bit is None or bas == 1440:
                return gettext('%(gun)s: saatler "SS:DD" biçiminde olmalı (00:00–24:00).') % {"gun": gun}
            if bas >= bit:
                return gettext("%(gun)s: başlangıç bitişten önce olmalı.") % {"gun": gun}
            araliklar.append((bas, bit))
        araliklar.sort()
        for (_, onceki_bit), (bas, _) in zip(araliklar, araliklar[1:], strict=False):
            if bas < onceki_bit:
                return gettext("%(gun)s: dilimler çakışıyor.") % {"gun": gun}
    return None


def tatiller_hatasi(deger) -> str | None:
    if not isinstance(deger, list):
        return gettext("YYYY-AA-GG tarihlerinin listesi olmalı.")
    if len(deger) > TATIL_EN_COK:
        return gettext("En çok %(sayi)s tatil günü.") % {"sayi": TATIL_EN_COK}
    for tarih in deger:
        if not isinstance(tarih, str) or not _TARIH.match(tarih):
            return gettext("Tarihler YYYY-AA-GG biçiminde olmalı.")
        try:
            dt.date.fromisoformat(tarih)
        except ValueError:
            return gettext("Geçersiz tarih: %(tarih)s.") % {"tarih": tarih}
    return None


# --- the calendar ------------------------------------------------------------------------------

def _utc(an: dt.datetime) -> dt.datetime:
    return an.replace(tzinfo=UTC) if an.tzinfo is None else an.astimezone(UTC)


@dataclass(frozen=True)
class _Aralik:
    bas: dt.datetime
    bit: dt.datetime


class Takvim:
    """The calendar of one tenant. Immutable; build it per question (it is cheap)."""

    def __init__(self, saat_dilimi: str, calisma_saatleri: dict | None, tatiller: list[str]):
        self.saat_dilimi = saat_dilimi if saat_dilimi_hatasi(saat_dilimi) is None else VARSAYILAN_SAAT_DILIMI
        self.bolge = ZoneInfo(self.saat_dilimi)
        if calisma_saatleri_hatasi(calisma_saatleri) is not None:
            calisma_saatleri = None
        self.tatiller: frozenset[dt.date] = (
            frozenset(dt.date.fromisoformat(t) for t in tatiller) if tatiller_hatasi(tatiller) is None else frozenset()
        )
        if calisma_saatleri is None and self.tatiller:
            # Null hours with holidays: open every moment of every day but the holidays, which is
            # a week of whole days (CONTRACT 15: `acik` needs today not in `tatiller` first).
            calisma_saatleri = {gun: [["00:00", "24:00"]] for gun in GUNLER}
        self.her_zaman_acik = calisma_saatleri is None
        # weekday -> sorted [(start minute, end minute)]
        self._hafta: dict[int, list[tuple[int, int]]] = {
            i: sorted((_dakika(a), _dakika(b)) for a, b in (calisma_saatleri or {}).get(gun, []))
            for i, gun in enumerate(GUNLER)
        }
        self._hic_acik_degil = not self.her_zaman_acik and not any(self._hafta.values())

    @classmethod
    def musteriden(cls, musteri) -> Takvim:
        return cls(musteri.saat_dilimi, musteri.calisma_saatleri, musteri.tatiller)

    # local wall time -> UTC instant
    def _utc_an(self, gun: dt.date, dakika: int) -> dt.datetime:
        yerel = dt.datetime.combine(gun, dt.time()) + dt.timedelta(minutes=dakika)
        ilk = yerel.replace(tzinfo=self.bolge, fold=0).astimezone(UTC)
        if ilk.astimezone(self.bolge).replace(tzinfo=None) == yerel:
            return ilk  # exists (fold=0: the first of an ambiguous pair)
        # A wall time in a spring-forward gap: the change itself, the first instant whose wall
        # time is past it. It lies between the two readings of the wall time; halve to the second.
        alt = yerel.replace(tzinfo=self.bolge, fold=1).astimezone(UTC)
        ust = ilk
        if alt > ust:
            alt, ust = ust, alt
        while ust - alt > dt.timedelta(seconds=1):
            orta = alt + (ust - alt) / 2
            if orta.astimezone(self.bolge).replace(tzinfo=None) >= yerel:
                ust = orta
            else:
                alt = orta
        return ust.replace(microsecond=0) if ust.microsecond else ust

    def _gunun_araliklari(self, gun: dt.date):
        if gun in self.tatiller:
            return
        for bas, bit in self._hafta[gun.weekday()]:
            b, s = self._utc_an(gun, bas), self._utc_an(gun, bit)
            if s > b:
                yield _Aralik(b, s)

    def _araliklar(self, an: dt.datetime, gun_sayisi: int = EN_UZAK_GUN):
        """Open intervals (touching ones merged) that end after `an`, in order, for local dates
        from the day before `an` on, for at most `gun_sayisi` days."""
        gun = an.astimezone(self.bolge).date() - dt.timedelta(days=1)
        bekleyen: _Aralik | None = None
        for _ in range(gun_sayisi + 2):
            for aralik in self._gunun_araliklari(gun):
                if bekleyen is not None and aralik.bas <= bekleyen.bit:
                    bekleyen = _Aralik(bekleyen.bas, max(bekleyen.bit, aralik.bit))
                    continue
                if bekleyen is not None and bekleyen.bit > an:
                    yield bekleyen
                bekleyen = aralik
            gun += dt.timedelta(days=1)
        if bekleyen is not None and bekleyen.bit > an:
            yield bekleyen

    def acik_mi(self, an: dt.datetime) -> bool:
        """True when `an` falls in an open slot of its local day that is not a holiday."""
        if self.her_zaman_acik:
            return True
        if self._hic_acik_degil:
            return False
        an = _utc(an)
        for aralik in self._araliklar(an, gun_sayisi=1):
            return aralik.bas <= an
        return False

    def sonraki_acilis(self, an: dt.datetime, gun: int = 14) -> dt.datetime | None:
        """The next opening after `an` within `gun` days; None when open at `an` (or always open),
        or when there is none within `gun` days (CONTRACT 15's `sonraki_acilis`)."""
        acilis = next(iter(self.acilislar(an, adet=1, gun=gun)), None)
        if acilis is None or self.acik_mi(an):
            return None
        return acilis[0]

    def acilislar(self, an: dt.datetime, adet: int = 5, gun: int = 14) -> list[tuple[dt.datetime, dt.datetime]]:
        """The next `adet` openings that start after `an` within `gun` days, as (start, end) in UTC
        (an opening over midnight is one). Always-open calendars have none."""
        if self.her_zaman_acik or self._hic_acik_degil:
            return []
        an = _utc(an)
        sinir = an + dt.timedelta(days=gun)
        sonuc = []
        for aralik in self._araliklar(an, gun_sayisi=gun + 1):
            if aralik.bas > sinir or len(sonuc) >= adet:
                break
            if aralik.bas > an:
                sonuc.append((aralik.bas, aralik.bit))
        return sonuc

    def vade(self, baslangic: dt.datetime, sure: dt.timedelta) -> dt.datetime | None:
        """The instant at which `sure` of open time has passed since `baslangic` (a start outside
        hours counts from the next opening; a zero `sure` outside hours is that opening). Null
        hours: plain addition. None when the calendar has no open time at all, or not enough
        within EN_UZAK_GUN days: callers treat None as "not due" (never a loop)."""
        baslangic = _utc(baslangic)
        if self.her_zaman_acik:
            return baslangic + sure
        if self._hic_acik_degil:
            return None
        kalan = max(sure, dt.timedelta(0))
        for aralik in self._araliklar(baslangic):
            bas = max(aralik.bas, baslangic)
            if bas + kalan <= aralik.bit:
                return bas + kalan
            kalan -= aralik.bit - bas
        return None

    def gecen(self, baslangic: dt.datetime, bitis: dt.datetime) -> dt.timedelta:
        """Open time between two instants (zero when `bitis` is not after `baslangic`)."""
        baslangic, bitis = _utc(baslangic), _utc(bitis)
        if bitis <= baslangic:
            return dt.timedelta(0)
        if self.her_zaman_acik:
            return bitis - baslangic
        if self._hic_acik_degil:
            return dt.timedelta(0)
        toplam = dt.timedelta(0)
        gun_sayisi = (bitis - baslangic).days + 2
        for aralik in self._araliklar(baslangic, gun_sayisi=gun_sayisi):
            if aralik.bas >= bitis:
                break
            toplam += min(aralik.bit, bitis) - max(aralik.bas, baslangic)
        return toplam


def saat_dilimi_listesi() -> list[str]:
    """Every zone name the checks accept, sorted (the portal's choice)."""
    return sorted(_bolgeler())
