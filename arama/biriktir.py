"""A chat's new messages reach the search index together (issue 41): the request that wrote a
message only notes its chat in this process (a set: no I/O, nothing serialised), and once an
interval (`ARAMA_BIRIKTIRME_SANIYE`, 1 s) the noted chats go to the indexing task in one hand-off
(`tasks.chat_mesajlari_ekle`: one broker message for all of them, or this process's runner without
a broker). A chat noted ten times in the interval is appended to once, with all ten messages:
the task reads what is newer than the row's last message, not what the notes said.

A process that dies between a commit and its next hand-off (at most one interval) loses its notes;
those messages are appended with the chat's next message, or by the rebuild its close or any other
change of the chat makes (`oturum_kaydedildi`). A hand-off the broker refuses is noted in the
database for the sweep, as before (`services.bekleyen_ekle`)."""
import atexit
import logging
import os
import threading

from django.conf import settings

from supportdesk.core import kosucu

from . import services, tasks

logger = logging.getLogger(__name__)

_kilit = threading.Lock()
_bekleyen: dict[int, int] = {}  # chat id -> tenant id, noted since the last hand-off
_planli = False


def not_al(*, musteri_id: int, oturum_id: int) -> None:
    """Note that chat `oturum_id` has new messages (after their commit); the first note of an
    interval schedules the hand-off."""
    global _planli
    with _kilit:
        _bekleyen[oturum_id] = musteri_id
        if _planli:
            return
        _planli = True
    kosucu.kosucu().sonra(settings.ARAMA_BIRIKTIRME_SANIYE, _zamani_geldi)


def _zamani_geldi() -> None:  # on the runner's timer thread: the hand-off itself goes to a lane
    if kosucu.kosucu().calistir("arama-biriktir", bosalt, esz=1) is None:
        bosalt()  # the runner is stopping: hand off here


def bosalt() -> int:
    """Hand the noted chats to the indexing task now; returns how many."""
    global _planli
    with _kilit:
        notlar = dict(_bekleyen)
        _bekleyen.clear()
        _planli = False
    if not notlar:
        return 0
    if not kosucu.gorev_gonder(tasks.chat_mesajlari_ekle, sorted(notlar), yerel=settings.ARAMA_YEREL_ISCI):
        for oturum_id, musteri_id in notlar.items():
            services.bekleyen_ekle(musteri_id=musteri_id, tur="chat", belge_id=oturum_id)
    return len(notlar)


def _catal_sonrasi() -> None:
    # A forked child has its own notes (none) and its own runner.
    global _kilit, _planli
    _kilit, _planli = threading.Lock(), False
    _bekleyen.clear()


os.register_at_fork(after_in_child=_catal_sonrasi)


@atexit.register
def _cikista() -> None:
    # A process leaving (gunicorn's graceful restart, a worker's shutdown) hands off what it noted.
    try:
        bosalt()
    except Exception:
        logger.warning("Arama notları çıkışta devredilemedi.", exc_info=True)
