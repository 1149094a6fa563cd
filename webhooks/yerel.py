"""Delivery without a broker (`make run`: no REDIS_URL, Celery in eager mode).

Eager Celery would run each HTTP attempt inside the API request that caused the event (a slow
receiver would hold the request) and nothing would ever retry, since there is no beat. So in
eager mode a daemon thread of the web process does the worker's and the beat's job: woken
after each commit, and every second, it attempts whatever is due. Leases make several such
threads (several processes) safe. Off in tests (`WEBHOOK_LOCAL_WORKER`), where the in-process
`teslimatlari_simdi_gonder()` is explicit instead.
"""
import logging
import threading

from django.db import connection

logger = logging.getLogger("supportdesk.webhooks")

_kilit = threading.Lock()
_uyandir = threading.Event()
_dur = threading.Event()
_thread: threading.Thread | None = None


def uyandir() -> None:
    global _thread
    with _kilit:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_dongu, name="webhook-yerel-teslimat", daemon=True)
            _thread.start()
    _uyandir.set()


def durdur(timeout: float = 15) -> None:
    """Stop the thread (tests; it is a daemon otherwise and ends with the process)."""
    global _thread
    with _kilit:
        thread, _thread = _thread, None
    if thread is not None:
        _dur.set()
        _uyandir.set()
        thread.join(timeout)
        _dur.clear()


def _dongu() -> None:
    from .services import vadesi_gelenleri_simdi_dene

    while not _dur.is_set():
        _uyandir.wait(timeout=1.0)
        _uyandir.clear()
        if _dur.is_set():
            break
        try:
            vadesi_gelenleri_simdi_dene()
        except Exception:  # the loop must survive anything (a locked SQLite file, a bad row)
            logger.exception("Yerel webhook teslimatı başarısız")
        finally:
            connection.close()
