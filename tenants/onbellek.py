"""The tenant-by-widget-key cache: every widget and context call resolves `X-API-Key` to its tenant,
and the tenant rarely changes, so it is read from the shared cache (Redis in production, so every
process sees an invalidation at once) instead of compiling and running a query per request.

Invalidation is on the write path, whichever it is (services, the portal, the admin): any save or
delete of a `Musteri` drops the entries of its old and new key, before and again after the commit,
so a request racing the write cannot put the old row back for long. A `QuerySet.update()` of
`Musteri` bypasses this: the code base has none, and must not add one without calling `unut`.
A cache that cannot be reached is skipped (the database answers), never an error.
"""
import hashlib
import logging

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save

from .models import Musteri

logger = logging.getLogger("supportdesk.tenants")
SURE = 3600  # a safety net only: every change invalidates at once


def _anahtar(api_key: str) -> str:
    return "musteri:anahtar:" + hashlib.sha256(api_key.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def musteri_getir(api_key: str, yukle) -> Musteri | None:
    """The active tenant of `api_key` from the cache, else from `yukle()` (then cached)."""
    anahtar = _anahtar(api_key)
    try:
        musteri = cache.get(anahtar)
    except Exception:
        logger.warning("Proje önbelleği okunamadı.", exc_info=True)
        return yukle()
    if musteri is not None:
        return musteri
    musteri = yukle()
    if musteri is not None:
        try:
            cache.set(anahtar, musteri, SURE)
        except Exception:
            logger.warning("Proje önbelleğe yazılamadı.", exc_info=True)
    return musteri


def unut(*api_keys: str) -> None:
    anahtarlar = [_anahtar(k) for k in dict.fromkeys(api_keys) if k]
    if not anahtarlar:
        return

    def sil():
        try:
            cache.delete_many(anahtarlar)
        except Exception:
            logger.warning("Proje önbelleği temizlenemedi.", exc_info=True)

    sil()
    transaction.on_commit(sil)


def _once(sender, instance: Musteri, raw=False, **kwargs):
    if instance.pk and not raw:
        instance._onceki_api_key = Musteri.objects.filter(pk=instance.pk).values_list("api_key", flat=True).first()


def _sonra(sender, instance: Musteri, raw=False, **kwargs):
    unut(instance.api_key, getattr(instance, "_onceki_api_key", None) or "")


def bagla() -> None:
    pre_save.connect(_once, sender=Musteri, dispatch_uid="musteri_onbellek_once")
    post_save.connect(_sonra, sender=Musteri, dispatch_uid="musteri_onbellek_sonra")
    post_delete.connect(_sonra, sender=Musteri, dispatch_uid="musteri_onbellek_sil")
