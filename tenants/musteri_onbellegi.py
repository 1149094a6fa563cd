"""The tenant-by-widget-key cache: every widget and context call resolves `X-API-Key` to its tenant,
and the tenant rarely changes, so no request should compile and run a query for it.

Two levels, both checked against one *generation* (`NESIL`, a random number in the shared cache):
- this process's memory: `api_key -> (generation, tenant, when)`, used only while the generation
  it was read under is still the current one, and for at most `YEREL_SURE` seconds;
- the shared cache (Redis in production): `api_key -> (generation, tenant)`, likewise.

Every change to a tenant (any save or delete of a `Musteri`, whichever write path: services, the
portal, the admin; the `musteri_degisti` event, tenants/dinleyiciler.py) drops the shared entries
of its old and new key and sets a new generation, before and again after the commit. A widget
request reads the generation in the same Redis round trip as its rate limit
(its pre-read, `tenants.on_okuma`), so every process sees any change on its very next request at
no extra cost; an entry read before a change (a request racing the write) carries the old
generation and is never used again. A `QuerySet.update()` of `Musteri` bypasses this: the code
base has none, and must not add one without stating `musteri_degisti`.

A process also keeps each tenant's member ids (`adaylar`), under a generation of the tenant's own
(`UYELIK_NESLI`), renewed the same way whenever a `Uyelik` is created or deleted (`uyelik_eklendi`,
`uyelik_silindi`), so the list is never used after a membership changed. Widget requests narrow
their read of presence to it.

On a Redis Cluster (issue 44) the generation and the key entries are on slots of their own (the
entry's tenant is not known before it is read): `get_many` reads them in per-slot groups
(supportdesk/core/onbellek.py), and the membership generation carries the tenant's hash tag, so
the pre-read's script reads it with the tenant's rate limit.

A cache that cannot be reached is skipped (the database answers), never an error; a generation
change made while Redis was down reaches the memories when Redis is back only through
`YEREL_SURE`, which bounds how long a rotated key can outlive an outage.
"""
import hashlib
import logging
import secrets
import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

from supportdesk.core.onbellek import simdi_ve_commit_sonrasi, tenant_etiketi

from .models import Musteri, Uyelik

logger = logging.getLogger("supportdesk.tenants")
SURE = 3600  # shared entries: a safety net only, every change invalidates at once
YEREL_SURE = 60.0
NESIL = "musteri:nesil"
UYELIK_NESLI = "musteri:uyelik-nesli:{}"  # formatted with the tenant's hash tag (Redis Cluster: its slot)
_yerel: dict[str, tuple[int, Musteri, float]] = {}
_YEREL_EN_COK = 10_000
# musteri_id -> (generation, member ids, when). A tenant with more members than ADAY_EN_COK is
# not narrowed (its whole presence sets are read, as without a list).
_adaylar: dict[int, tuple[int, list[int], float]] = {}
ADAY_EN_COK = 1000


def _anahtar(api_key: str) -> str:
    return "musteri:anahtar:" + hashlib.sha256(api_key.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def nesil_redis_anahtari() -> str | None:
    """The generation's raw Redis key (for reads batched with the rate limit), or None without Redis."""
    varsayilan = caches["default"]
    return varsayilan.make_key(NESIL) if isinstance(varsayilan, RedisCache) else None


def yerel(api_key: str) -> Musteri | None:
    """This process's copy of the tenant of `api_key`, whatever its generation (the caller checks
    it with `musteri_getir(..., nesil=)` in the same request); None when there is none or it is old."""
    kayit = _yerel.get(api_key)
    if kayit is None or time.monotonic() - kayit[2] > YEREL_SURE:
        return None
    return kayit[1]


def sifirla() -> None:
    """Empty this process's memory of tenants (tests that empty the cache between them)."""
    _yerel.clear()
    _adaylar.clear()


def uyelik_nesli_redis_anahtari(musteri_id: int) -> str:
    """The raw Redis key of the tenant's membership generation (read with the rate limit)."""
    return caches["default"].make_key(UYELIK_NESLI.format(tenant_etiketi(musteri_id)))


def adaylar(musteri_id: int) -> tuple[int, list[int]] | None:
    """This process's list of the tenant's members and the membership generation it was read
    under, for a read that checks that generation in the same round trip (`tenants.on_okuma`);
    None when there is none, it is older than YEREL_SURE, or the tenant has too many members."""
    kayit = _adaylar.get(musteri_id)
    if kayit is None or time.monotonic() - kayit[2] > YEREL_SURE or len(kayit[1]) > ADAY_EN_COK:
        return None
    return kayit[0], kayit[1]


def adaylari_yukle(musteri_id: int, nesil) -> None:
    """Read the tenant's members under `nesil`, its membership generation read *before* this (a
    membership that commits meanwhile renews the generation, so this list is then never used)."""
    nesil = _coz(nesil)
    if nesil is None:  # never set, or evicted: set one first, then read under it
        anahtar = UYELIK_NESLI.format(tenant_etiketi(musteri_id))
        try:
            cache.add(anahtar, _yeni_nesil(), None)
            nesil = cache.get(anahtar)
        except Exception:
            logger.warning("Proje önbelleği okunamadı.", exc_info=True)
            return
        if nesil is None:
            return
    kayit = _adaylar.get(musteri_id)
    if kayit is not None and kayit[0] == nesil and time.monotonic() - kayit[2] <= YEREL_SURE:
        return  # held already (a tenant with too many members to narrow to)
    ids = list(Uyelik.objects.filter(musteri_id=musteri_id).order_by()
               .values_list("kullanici_id", flat=True)[:ADAY_EN_COK + 1])
    if len(_adaylar) >= _YEREL_EN_COK:
        _adaylar.clear()
    _adaylar[musteri_id] = (nesil, ids, time.monotonic())


def _yerel_yaz(api_key: str, nesil, musteri: Musteri | None) -> None:
    if musteri is None or nesil is None:
        _yerel.pop(api_key, None)
        return
    if len(_yerel) >= _YEREL_EN_COK:
        _yerel.clear()
    _yerel[api_key] = (nesil, musteri, time.monotonic())


def _yeni_nesil() -> int:
    # An integer: Django's Redis cache stores ints as plain digits, so a Lua GET reads the same value.
    return secrets.randbits(62) + 1


def _coz(deger):
    return int(deger) if isinstance(deger, bytes) else deger


def musteri_getir(api_key: str, yukle, *, nesil=None, nesil_okundu: bool = False) -> Musteri | None:
    """The active tenant of `api_key`, else None; `yukle()` reads it from the database.

    `nesil_okundu`: the caller read the current generation (`nesil`, None when unset) in this
    request already; this process's copy is then used when it has that generation, at no cost.
    """
    if nesil_okundu:
        nesil = _coz(nesil)
        kayit = _yerel.get(api_key)
        if nesil is not None and kayit is not None and kayit[0] == nesil and time.monotonic() - kayit[2] <= YEREL_SURE:
            return kayit[1]
    anahtar = _anahtar(api_key)
    try:
        if nesil_okundu:
            paylasilan = cache.get(anahtar)
        else:
            okunan = cache.get_many([NESIL, anahtar])
            nesil, paylasilan = okunan.get(NESIL), okunan.get(anahtar)
        if nesil is None:
            cache.add(NESIL, _yeni_nesil(), None)
            nesil = cache.get(NESIL)
    except Exception:
        logger.warning("Proje önbelleği okunamadı.", exc_info=True)
        _yerel.pop(api_key, None)
        return yukle()
    if isinstance(paylasilan, tuple) and len(paylasilan) == 2 and paylasilan[0] == nesil:
        musteri = paylasilan[1]
    else:
        musteri = yukle()
        if musteri is not None:
            try:
                cache.set(anahtar, (nesil, musteri), SURE)
            except Exception:
                logger.warning("Proje önbelleğe yazılamadı.", exc_info=True)
    _yerel_yaz(api_key, nesil, musteri)
    return musteri


def unut(*api_keys: str) -> None:
    anahtarlar = [_anahtar(k) for k in dict.fromkeys(api_keys) if k]
    if not anahtarlar:
        return

    def sil():
        for k in api_keys:
            _yerel.pop(k, None)
        try:
            cache.delete_many(anahtarlar)
            cache.set(NESIL, _yeni_nesil(), None)
        except Exception:
            logger.warning("Proje önbelleği temizlenemedi.", exc_info=True)

    simdi_ve_commit_sonrasi(sil)


def uyelik_nesli_yenile(musteri_id: int) -> None:
    """The tenant's member list changed: this process's copy and every process's (through the
    shared generation) are not used again, now and after the commit."""

    def yenile():
        _adaylar.pop(musteri_id, None)
        try:
            cache.set(UYELIK_NESLI.format(tenant_etiketi(musteri_id)), _yeni_nesil(), None)
        except Exception:
            logger.warning("Proje önbelleği temizlenemedi.", exc_info=True)

    simdi_ve_commit_sonrasi(yenile)
