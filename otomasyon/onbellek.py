"""The tenant's active rules, kept in the shared cache (Redis in production) under the tenant's own
key, so an event on the hot path (a visitor's message, a chat's start) reads them with one cache
round trip and no query. Every write of a rule drops the entry now and again after its commit
(`supportdesk.core.onbellek.simdi_ve_commit_sonrasi`), so no process uses a list older than a
committed change; a reader racing the write may store the old list only before the commit, and
the second drop removes it. A cache that cannot be reached is skipped (the database answers)."""
import logging

from django.core.cache import cache

from supportdesk.core.onbellek import simdi_ve_commit_sonrasi

from .models import Kural

logger = logging.getLogger("supportdesk.otomasyon")
ANAHTAR = "otomasyon:kurallar:{}"
SURE = 3600  # a safety net only: every change drops the entry


def kurallar(musteri_id: int) -> list[dict]:
    """The tenant's active rules in `sira` order: `{"id", "olay", "kosullar", "eylemler"}`."""
    anahtar = ANAHTAR.format(musteri_id)
    try:
        kayit = cache.get(anahtar)
    except Exception:
        logger.warning("Kural önbelleği okunamadı.", exc_info=True)
        return _oku(musteri_id)
    if isinstance(kayit, list):
        return kayit
    kayit = _oku(musteri_id)
    try:
        cache.set(anahtar, kayit, SURE)
    except Exception:
        logger.warning("Kural önbelleğe yazılamadı.", exc_info=True)
    return kayit


def _oku(musteri_id: int) -> list[dict]:
    return list(Kural.objects.kapsamda([musteri_id]).filter(aktif=True).order_by("sira", "id")
                .values("id", "olay", "kosullar", "eylemler"))


def unut(musteri_id: int) -> None:
    def sil():
        try:
            cache.delete(ANAHTAR.format(musteri_id))
        except Exception:
            logger.warning("Kural önbelleği temizlenemedi.", exc_info=True)

    simdi_ve_commit_sonrasi(sil)
