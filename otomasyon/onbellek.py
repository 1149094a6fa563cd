"""The tenant's active rules, compiled (`kosullar.DerlenmisKural`) and kept in this process's memory
under the tenant's *rules generation* (issue 42), so an event on the hot path (a visitor's message,
a chat's start) reads one small value from the shared cache (Redis in production) and neither
queries, unpickles nor compiles anything while the rules are unchanged.

The generation (`supportdesk.core.kurallar.NESIL`, a random number under the tenant's hash tag;
read by a widget request's pre-read in its one round trip, `tenants.on_okuma`, else here) is renewed by every write of
a rule now and again after its commit (`unut`, `supportdesk.core.onbellek.simdi_ve_commit_sonrasi`).
A process uses its copy only while the generation it was read under is the current one: a copy
read before a committed change (a reader racing the write) carries a generation that is never
current again, so invalidation is exact across processes. A generation that is missing (never set,
evicted, the cache emptied) is set first and the rules read under it. A cache that cannot be
reached is skipped: the database answers every event; a generation renewal lost while it was
down reaches the copies when it is back only through `YEREL_SURE`, which bounds their age."""
import logging
import secrets
import time

from django.core.cache import cache

from supportdesk.core import kurallar as kural_noktasi
from supportdesk.core.onbellek import simdi_ve_commit_sonrasi

from .kosullar import DerlenmisKural, OlayKurallari
from .models import Kural

logger = logging.getLogger("supportdesk.otomasyon")
NESIL_SURE = 86400 * 7  # a safety net only: a missing generation is set again and the rules re-read
_YEREL_EN_COK = 10_000
YEREL_SURE = 60.0


class _Kopya:
    """One tenant's rules as this process holds them, by event (in `sira` order, with the event's
    prefilter: `kosullar.OlayKurallari`)."""

    __slots__ = ("nesil", "olaya_gore", "zaman")

    def __init__(self, nesil: int | None, kurallar: list[DerlenmisKural]):
        self.nesil, self.zaman = nesil, time.monotonic()
        olaya_gore: dict[str, list[DerlenmisKural]] = {}
        for kural in kurallar:
            olaya_gore.setdefault(kural.olay, []).append(kural)
        self.olaya_gore = {olay: OlayKurallari(k) for olay, k in olaya_gore.items()}


_yerel: dict[int, _Kopya] = {}
_HICBIRI = OlayKurallari(())


def _nesil_oku(musteri_id: int) -> int | None:
    """The tenant's current rules generation: as this request's pre-read read it, else one cache
    round trip; set first when missing. None: the cache cannot be reached."""
    okundu, nesil = kural_noktasi.istek_nesli(musteri_id)
    if okundu and nesil is not None:
        return int(nesil)
    anahtar = kural_noktasi.nesil_anahtari(musteri_id)
    try:
        if not okundu:
            nesil = cache.get(anahtar)
        if nesil is None:
            cache.add(anahtar, secrets.randbits(62) + 1, NESIL_SURE)
            nesil = cache.get(anahtar)
    except Exception:
        logger.warning("Kural önbelleği okunamadı.", exc_info=True)
        return None
    return int(nesil) if nesil is not None else None


def _kopya(musteri_id: int) -> _Kopya:
    nesil = _nesil_oku(musteri_id)
    kopya = _yerel.get(musteri_id)
    if (nesil is not None and kopya is not None and kopya.nesil == nesil
            and time.monotonic() - kopya.zaman <= YEREL_SURE):
        return kopya
    kopya = _Kopya(nesil, [DerlenmisKural.derle(k) for k in _oku(musteri_id)])
    if nesil is not None:
        if len(_yerel) >= _YEREL_EN_COK:
            _yerel.clear()
        _yerel[musteri_id] = kopya
    return kopya


def olay_kurallari(musteri_id: int, olay: str) -> OlayKurallari:
    """The tenant's active rules for `olay`, compiled, in `sira` order (empty: none)."""
    return _kopya(musteri_id).olaya_gore.get(olay, _HICBIRI)


def _oku(musteri_id: int) -> list[dict]:
    return list(Kural.objects.kapsamda([musteri_id]).filter(aktif=True).order_by("sira", "id")
                .values("id", "olay", "kosullar", "eylemler"))


def unut(musteri_id: int) -> None:
    """A rule of the tenant changed: a new generation now and again after the commit."""
    def yenile():
        try:
            cache.set(kural_noktasi.nesil_anahtari(musteri_id), secrets.randbits(62) + 1, NESIL_SURE)
        except Exception:
            logger.warning("Kural önbelleği yenilenemedi.", exc_info=True)

    simdi_ve_commit_sonrasi(yenile)


def sifirla() -> None:
    """Empty this process's copies (tests)."""
    _yerel.clear()
