"""Whether a visitor is still with its chat: the time of its last poll (CONTRACT 14, "offline
message answered": no poll or socket for 2 minutes).

One cache write per poll (a Redis SET with `REDIS_URL`, else local memory), no database write on
the hot path. The widget socket (CONTRACT 11) plugs in by calling `ziyaretci_goruldu` for each of
the visitor's open chats when its socket opens and at least once a minute while it stays open
(on a ping, or any frame), so a visitor held by a socket never counts as gone.
"""
import logging
import time

from django.core.cache import cache

logger = logging.getLogger(__name__)

_SURE = 24 * 3600


def _anahtar(oturum_id: int) -> str:
    return f"chat:ziyaretci_goruldu:{oturum_id}"


def ziyaretci_goruldu(*, oturum_id: int) -> None:
    # Redis down must not fail the visitor's call (issue 13): the mark is a hint, logged and lost.
    try:
        cache.set(_anahtar(oturum_id), time.time(), timeout=_SURE)
    except Exception:
        logger.warning("Ziyaretçinin son görülmesi önbelleğe yazılamadı.", exc_info=True)


def ziyaretci_son_gorulme(*, oturum_id: int) -> float | None:
    """Unix time of the visitor's last poll of this chat, or None (never, over a day ago, or the
    cache cannot be reached: then the visitor counts as gone and gets the mail, which is the
    safer mistake)."""
    try:
        return cache.get(_anahtar(oturum_id))
    except Exception:
        logger.warning("Ziyaretçinin son görülmesi önbellekten okunamadı.", exc_info=True)
        return None
