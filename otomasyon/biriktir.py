"""The runs whose conditions did not hold reach the database together (issue 42): an event that ran
N rules of which none held only notes `(rule ids, target, time)` in this process after its commit (a
list: no I/O), and once an interval (`KURAL_BIRIKTIRME_SANIYE`, 1 s) the runner writes every
noted run in one statement (`sorgular.kosul_tutmadi_yaz`). A visitor's message against 50 rules
thus costs no statement and no commit of its own for them; the runs are listed by
`GET /operator/kurallar/{id}/calismalar` within about one interval. The pattern is
`arama.biriktir`'s.

Exact as CONTRACT 23 asks, with one bound: a note is taken only after the event's commit
(`transaction.on_commit`), so a rolled-back change records nothing; `uygulandi` and `hata` runs
are never noted here (they are written in the event's own transaction, with what their actions
did). A process that dies between a commit and its next write (at most one interval) loses its
notes; a process leaving normally writes them at exit. `KURAL_BIRIKTIRME_SANIYE=0` writes each
event's runs in its own transaction instead (one statement; the tests' default)."""
import atexit
import logging
import os
import threading
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction

from supportdesk.core import kosucu

from . import sorgular

logger = logging.getLogger("supportdesk.otomasyon")

_kilit = threading.Lock()
_bekleyen: list[tuple[list[int], str, datetime]] = []
_planli = False
EN_COK = 10_000  # events' notes held at most (the database unreachable for long): older ones are dropped


def biriktiriliyor() -> bool:
    return settings.KURAL_BIRIKTIRME_SANIYE > 0 and connection.vendor == "postgresql"


def kaydet(*, kural_idleri: list[int], hedef: str, zaman: datetime) -> None:
    """Note these runs once the current transaction commits (at once outside one)."""
    olay = (kural_idleri, hedef, zaman)
    transaction.on_commit(lambda: _not_al(olay))


def _not_al(olay: tuple[list[int], str, datetime]) -> None:
    global _planli
    with _kilit:
        _bekleyen.append(olay)
        if len(_bekleyen) > EN_COK:
            del _bekleyen[:len(_bekleyen) - EN_COK]
        if _planli:
            return
        _planli = True
    kosucu.kosucu().sonra(settings.KURAL_BIRIKTIRME_SANIYE, _zamani_geldi)


def _zamani_geldi() -> None:  # on the runner's timer thread: the write itself goes to a lane
    if kosucu.kosucu().calistir("kural-biriktir", bosalt, esz=1) is None:
        bosalt()  # the runner is stopping: write here


def bosalt() -> int:
    """Write the noted runs now, in one statement; returns how many events' were noted."""
    global _planli
    with _kilit:
        olaylar = list(_bekleyen)
        _bekleyen.clear()
        _planli = False
    if olaylar:
        sorgular.kosul_tutmadi_yaz(olaylar)
    return len(olaylar)


def _catal_sonrasi() -> None:
    # A forked child has its own notes (none) and its own runner.
    global _kilit, _planli
    _kilit, _planli = threading.Lock(), False
    _bekleyen.clear()


os.register_at_fork(after_in_child=_catal_sonrasi)


@atexit.register
def _cikista() -> None:
    try:
        bosalt()
    except Exception:
        logger.warning("Kural çalışmaları çıkışta yazılamadı.", exc_info=True)
