"""Reads on the read replica (CONTRACT 26: `DATABASE_REPLICA_URL`), by explicit opt-in.

Only views that read and write nothing their own answer depends on are marked, with `@replikadan`:
reports, search, exports, the audit list and the context reads. Everything else, and every write,
stays on the primary: the router sends a read to the replica only inside a marked view, and never
inside a transaction (a service that reads, decides and writes reads what it will write over).

An answer must never be wrong because of the replica (CONTRACT 26), so a marked view still reads
from the primary when:
- the caller wrote a moment ago (read-your-writes): every write request (POST, PUT, PATCH, DELETE)
  of a signed-in user sets a cache marker for REPLIKA_YAZ_OKU_SANIYE seconds, and while it lives
  that user's reads stay on the primary; an unreadable marker (Redis down) counts as set;
- the replica lags more than REPLIKA_AZAMI_GECIKME seconds behind the primary, or does not answer:
  the check is made at most every REPLIKA_DENETIM_ARALIGI seconds per process (its result kept);
- the replica fails during the view (it died after the check): the view runs again, once, on the
  primary. Marked views only read, so running one again changes nothing.

Without a `replica` alias (the setting empty, every test but the replica's own) nothing changes: the
decorator calls the view as it is and the router answers the primary.
"""
import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import MiddlewareNotUsed
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.http import HttpRequest

logger = logging.getLogger(__name__)

REPLIKA = "replica"
_etkin: ContextVar[bool] = ContextVar("replikadan", default=False)
# (time of the last check by time.monotonic(), its answer): per process, shared by its threads.
_durum: dict[str, tuple[float, bool]] = {}

# Seconds the replica is behind: 0 when it has replayed all it received (an idle primary sends
# nothing, and the last replayed transaction's time alone would make it look ever later).
GECIKME_SQL = """
SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN 0
    WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
    ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 1e9)
END
"""


def replika_var() -> bool:
    return REPLIKA in settings.DATABASES


def _isaret_anahtari(kullanici_id: Any) -> str:
    return f"replika:yazdi:{kullanici_id}"


def yazdi_isaretle(kullanici_id: Any) -> None:
    """The caller just wrote: its reads stay on the primary for REPLIKA_YAZ_OKU_SANIYE seconds."""
    try:
        cache.set(_isaret_anahtari(kullanici_id), 1, timeout=settings.REPLIKA_YAZ_OKU_SANIYE)
    except Exception:  # Redis down: the reader then finds no marker it can read, and uses the primary
        logger.warning("Replika: yazma işareti konamadı (önbellek)", exc_info=True)


def _yeni_yazdi_mi(kullanici_id: Any) -> bool:
    try:
        return cache.get(_isaret_anahtari(kullanici_id)) is not None
    except Exception:  # noqa: BLE001 (Redis down: the marker may be there, so the primary)
        return True


def replika_gecikmesi() -> float | None:
    """Seconds the replica is behind the primary, or None when it does not answer."""
    try:
        with connections[REPLIKA].cursor() as imlec:
            imlec.execute(GECIKME_SQL)
            return float(imlec.fetchone()[0])
    except Exception:
        logger.warning("Replika yanıt vermiyor; okumalar birincil veritabanından", exc_info=True)
        connections[REPLIKA].close()
        return None


def replika_saglikli() -> bool:
    simdi = time.monotonic()
    son = _durum.get(REPLIKA)
    if son is not None and simdi - son[0] < settings.REPLIKA_DENETIM_ARALIGI:
        return son[1]
    gecikme = replika_gecikmesi()
    saglikli = gecikme is not None and gecikme <= settings.REPLIKA_AZAMI_GECIKME
    if gecikme is not None and not saglikli:
        logger.warning("Replika %.1f sn geride; okumalar birincil veritabanından", gecikme)
    _durum[REPLIKA] = (simdi, saglikli)
    return saglikli


def _replika_bozuldu() -> None:
    _durum[REPLIKA] = (time.monotonic(), False)
    connections[REPLIKA].close()


def _istek(args: tuple) -> HttpRequest | None:
    # DRF's Request is not an HttpRequest but carries one; both have `user` once authenticated.
    for arg in args:
        if isinstance(arg, HttpRequest) or isinstance(getattr(arg, "_request", None), HttpRequest):
            return arg
    return None


def replikadan_okunabilir(istek: Any) -> bool:
    if not replika_var() or connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return False
    kullanici = getattr(istek, "user", None)
    if kullanici is not None and kullanici.is_authenticated and _yeni_yazdi_mi(kullanici.pk):
        return False
    return replika_saglikli()


F = TypeVar("F", bound=Callable[..., Any])


def replikadan(gorunum: F) -> F:
    """Marks a read-only view (a function or a view's method) as one the replica may answer."""

    @wraps(gorunum)
    def sarili(*args, **kwargs):
        if not replikadan_okunabilir(_istek(args)):
            return gorunum(*args, **kwargs)
        belirtec = _etkin.set(True)
        try:
            return gorunum(*args, **kwargs)
        except (OperationalError, InterfaceError):
            # Maybe the primary's error, not the replica's: then the run on the primary fails too.
            logger.warning("Replikadan okurken hata; birincil veritabanından yeniden", exc_info=True)
            _replika_bozuldu()
            _etkin.set(False)
            return gorunum(*args, **kwargs)
        finally:
            _etkin.reset(belirtec)

    return sarili  # type: ignore[return-value]


class ReplikaYonlendirici:
    """DATABASE_ROUTERS: the replica for reads inside `@replikadan` outside transactions; the
    primary for everything else. The primary is named, not left to Django: an object read from the
    replica would otherwise send the reads made through it (its related managers) there too."""

    def db_for_read(self, model, **hints):
        if _etkin.get() and replika_var() and not connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return REPLIKA
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return {obj1._state.db, obj2._state.db} <= {DEFAULT_DB_ALIAS, REPLIKA, None}

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db != REPLIKA


class YazanOkusunMiddleware:
    """Sets the read-your-writes marker of a signed-in caller's write request (pages and API: DRF
    puts the user it authenticated on the request too). Not installed without a replica."""

    GUVENLI = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

    def __init__(self, get_response):
        if not replika_var():
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            kullanici = getattr(request, "user", None)
            if request.method not in self.GUVENLI and kullanici is not None and kullanici.is_authenticated:
                yazdi_isaretle(kullanici.pk)
