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
from django.conf import settings

from supportdesk.core import kosucu
from supportdesk.core.biriktirici import Biriktirici

from . import services, tasks


def _devret(notlar: list[tuple[int, int]]) -> int:
    """Hand the noted chats to the indexing task (one broker message); returns how many."""
    sohbetler = dict(notlar)  # chat id -> tenant id: a chat noted ten times goes once
    if not kosucu.gorev_gonder(tasks.chat_mesajlari_ekle, sorted(sohbetler), yerel=settings.ARAMA_YEREL_ISCI):
        for oturum_id, musteri_id in sohbetler.items():
            services.bekleyen_ekle(musteri_id=musteri_id, tur="chat", belge_id=oturum_id)
    return len(sohbetler)


_biriktirici = Biriktirici(ad="arama-biriktir", aralik=lambda: settings.ARAMA_BIRIKTIRME_SANIYE, yaz=_devret)
bosalt = _biriktirici.bosalt


def not_al(*, musteri_id: int, oturum_id: int) -> None:
    """Note that chat `oturum_id` has new messages (after their commit); the first note of an
    interval schedules the hand-off."""
    _biriktirici.ekle((oturum_id, musteri_id))
