"""Delivery without a broker (`make run`: no REDIS_URL, Celery in eager mode).

Eager Celery would run each HTTP attempt inside the API request that caused the event (a slow
receiver would hold the request) and nothing would ever retry, since there is no beat. So in
eager mode threads of the web process do the worker's and the beat's job: a loop, woken after
each commit and every second, hands whatever is due to a small pool that attempts deliveries
side by side, so one tenant's hanging receiver (up to the 10 s timeout a time) never holds up
the others. Leases make several such loops (several processes) safe. Off in tests
(`WEBHOOK_LOCAL_WORKER`), where the in-process `teslimatlari_simdi_gonder()` is explicit instead.
"""
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.signals import request_started
from django.db import connection

from supportdesk.celery import app as celery_app

from .teslimat import teslimat_dene, vadesi_gelen_teslimat_idleri

logger = logging.getLogger("supportdesk.webhooks")

_kilit = threading.Lock()
_uyandir = threading.Event()
_dur = threading.Event()
_thread: threading.Thread | None = None
ILK_ISTEK_UID = "webhooks-yerel-ilk-istek"


def _eszamanli() -> int:
    # Attempts at once; like a worker's concurrency. Each one holds a thread for at most the timeout.
    return max(1, int(getattr(settings, "WEBHOOK_LOCAL_WORKER_THREADS", 8)))


def eager() -> bool:
    """Celery runs tasks in this process (no broker): then this module does the worker's job."""
    return bool(celery_app.conf.task_always_eager)


def uyandir() -> None:
    global _thread
    with _kilit:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_dongu, name="webhook-yerel-teslimat", daemon=True)
            _thread.start()
    _uyandir.set()


def ilk_istek(**_) -> None:
    """`request_started`: the web process's first request starts the loop, so deliveries left
    due before a restart (retries, events whose process died before queueing) go out without
    waiting for the next event. With a broker (not eager) this process has nothing to do here."""
    if _thread is not None and _thread.is_alive():
        return
    if not settings.WEBHOOK_LOCAL_WORKER:
        return
    if eager():
        uyandir()
    else:
        request_started.disconnect(dispatch_uid=ILK_ISTEK_UID)


def durdur(timeout: float = 15) -> None:
    """Stop the loop and its pool (tests; they are daemons otherwise and end with the process)."""
    global _thread
    with _kilit:
        thread, _thread = _thread, None
    if thread is not None:
        _dur.set()
        _uyandir.set()
        thread.join(timeout)
        _dur.clear()


def _dongu() -> None:
    eszamanli = _eszamanli()
    havuz = ThreadPoolExecutor(max_workers=eszamanli, thread_name_prefix="webhook-yerel-deneme")
    suren: set[int] = set()  # handed to the pool and not finished yet
    suren_kilit = threading.Lock()

    def bitti(teslimat_id: int) -> None:
        with suren_kilit:
            suren.discard(teslimat_id)
        _uyandir.set()  # a free slot: look for more due work at once

    try:
        while not _dur.is_set():
            _uyandir.wait(timeout=1.0)
            _uyandir.clear()
            if _dur.is_set():
                break
            with suren_kilit:
                haric, bos = set(suren), eszamanli - len(suren)
            if bos <= 0:
                continue
            try:
                ids = vadesi_gelen_teslimat_idleri(limit=bos, haric=haric)
            except Exception:  # the loop must survive anything (a locked SQLite file, a bad row)
                logger.exception("Yerel webhook teslimatı: vadesi gelenler okunamadı")
                ids = []
            finally:
                connection.close()
            for teslimat_id in ids:
                with suren_kilit:
                    suren.add(teslimat_id)
                havuz.submit(_dene, teslimat_id).add_done_callback(lambda _f, i=teslimat_id: bitti(i))
    finally:
        havuz.shutdown(wait=True, cancel_futures=True)


def _dene(teslimat_id: int) -> None:
    try:
        teslimat_dene(teslimat_id=teslimat_id)
    except Exception:
        logger.exception("Yerel webhook teslimatı #%s başarısız", teslimat_id)
    finally:
        connection.close()  # pool threads live on: never keep a connection between attempts
