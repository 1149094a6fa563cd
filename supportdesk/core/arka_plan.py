"""What readiness and metrics say about background work (CONTRACT 20, issue 37): the broker, the
Celery workers seen lately, each queue's depth, and each beat job's last run.

All of it is read from the broker's Redis, where the work itself lives, with one pooled client
per process and the service's short Redis timeouts: a probe or a scrape learns "down" within
about a second and never raises.

- Workers: every worker writes its name and the time into one sorted set at Celery's own event
  heartbeat (`heartbeat_sent`, every 2 s; written at most every ISCI_YAZMA_ARALIGI s, by the hook in
  supportdesk/core/metrikler.py), so "seen in the last minute" needs no broadcast to the workers
  (`celery inspect ping` waits for its timeout). A worker started `--without-heartbeat` is never seen.
- Queues: kombu's Redis transport keeps a queue as a list of that name (and one more per priority
  step); the depth is their length, the messages no worker has taken yet.
- Beat: celery-redbeat keeps each job's last run beside its definition (settings.BEAT_ANAHTAR_ONEKI).
"""
import json
import time

import redis
from django.conf import settings
from redbeat.decoder import RedBeatJSONDecoder

from supportdesk.celery import app as celery_app

from .redis_adresi import hizli_istemci

ISCILER_ANAHTARI = "supportdesk:isciler"
ISCI_PENCERESI = 60.0  # seconds: a worker not seen for this long is not counted
ISCI_YAZMA_ARALIGI = 10.0
# kombu's Redis transport: a queue with priorities is one list per step, named queue + sep + step.
_ONCELIK_AYIRICI = "\x06\x16"
_ONCELIK_ADIMLARI = (3, 6, 9)

_istemci: tuple[str, redis.Redis] | None = None


def broker_redis() -> redis.Redis | None:
    """The broker's Redis (one client per process), or None without a Redis broker (`make run`:
    the web process's runner does the background work)."""
    global _istemci
    url = settings.CELERY_BROKER_URL if not celery_app.conf.task_always_eager else ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    if _istemci is None or _istemci[0] != url:
        _istemci = (url, hizli_istemci(url, baglanti_suresi=settings.REDIS_CONNECT_TIMEOUT,
                                       soket_suresi=settings.REDIS_SOCKET_TIMEOUT))
    return _istemci[1]


# --- workers ------------------------------------------------------------------------------------
def isci_goruldu(ad: str, *, simdi: float | None = None) -> None:
    istemci = broker_redis()
    if istemci is None:
        return
    simdi = time.time() if simdi is None else simdi
    with istemci.pipeline(transaction=False) as boru:
        boru.zadd(ISCILER_ANAHTARI, {ad: simdi})
        boru.zremrangebyscore(ISCILER_ANAHTARI, "-inf", simdi - 10 * ISCI_PENCERESI)
        boru.expire(ISCILER_ANAHTARI, int(10 * ISCI_PENCERESI))
        boru.execute()


def canli_isciler(istemci: redis.Redis) -> list[str]:
    """Names of the workers seen within ISCI_PENCERESI (raises when Redis does not answer)."""
    return sorted(a.decode() for a in istemci.zrangebyscore(ISCILER_ANAHTARI, time.time() - ISCI_PENCERESI, "+inf"))


# --- queues and beat ------------------------------------------------------------------------------
def kuyruk_adlari() -> list[str]:
    adlar = {celery_app.conf.task_default_queue}
    adlar.update(k.name for k in (celery_app.conf.task_queues or ()))
    return sorted(adlar)


def kuyruk_derinlikleri(istemci: redis.Redis) -> dict[str, int]:
    adlar = kuyruk_adlari()
    with istemci.pipeline(transaction=False) as boru:
        for ad in adlar:
            boru.llen(ad)
            for adim in _ONCELIK_ADIMLARI:
                boru.llen(f"{ad}{_ONCELIK_AYIRICI}{adim}")
        uzunluklar = boru.execute()
    adim = 1 + len(_ONCELIK_ADIMLARI)
    return {ad: sum(uzunluklar[i * adim:(i + 1) * adim]) for i, ad in enumerate(adlar)}


def beat_son_calismalar(istemci: redis.Redis) -> dict[str, float]:
    """{job name: Unix time of its last run} for the jobs of CELERY_BEAT_SCHEDULE that beat has run."""
    adlar = sorted(settings.CELERY_BEAT_SCHEDULE)
    with istemci.pipeline(transaction=False) as boru:
        for ad in adlar:
            boru.hget(settings.BEAT_ANAHTAR_ONEKI + ad, "meta")
        metalar = boru.execute()
    sonuc = {}
    for ad, meta in zip(adlar, metalar, strict=True):
        son = json.loads(meta, cls=RedBeatJSONDecoder).get("last_run_at") if meta else None
        if son is not None:
            sonuc[ad] = son.timestamp()
    return sonuc
