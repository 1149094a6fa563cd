"""Whether a visitor is still with its chat: the time of its last poll (CONTRACT 14, "offline message
answered": no poll or socket for 2 minutes).

At most one cache write per chat per process every `_aralik()` seconds (an eighth of the "gone"
threshold, 15 s at the default 2 minutes; a Redis SET with `REDIS_URL`, else local memory): a
visitor polling every 2.5 s costs a write on about one poll in six, never a database write, and the
mark is never older than the threshold allows for. An open widget socket (CONTRACT 11) is read from
the presence registry instead (`supportdesk.core.varlik.ziyaretci_soketi_acik`, asked by
`eposta.services.ziyaretci_orada_mi`), so a visitor held by a socket never counts as gone.
"""
import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

_SURE = 24 * 3600
_yazilan: dict[int, float] = {}  # oturum_id -> monotonic time this process last wrote its mark
_YAZILAN_EN_COK = 50_000


def _aralik() -> float:
    return min(15.0, float(getattr(settings, "EPOSTA_ZIYARETCI_AYRILDI_SANIYE", 120)) / 8)


def _anahtar(oturum_id: int) -> str:
    return f"chat:ziyaretci_goruldu:{oturum_id}"


def sifirla() -> None:
    """Forget which marks this process wrote (tests that empty the cache between them)."""
    _yazilan.clear()


def ziyaretci_goruldu(*, oturum_id: int) -> None:
    simdi = time.monotonic()
    if simdi - _yazilan.get(oturum_id, -1e18) < _aralik():
        return
    if len(_yazilan) >= _YAZILAN_EN_COK:
        _yazilan.clear()
    # Redis down must not fail the visitor's call (issue 13): the mark is a hint, logged and lost.
    try:
        cache.set(_anahtar(oturum_id), time.time(), timeout=_SURE)
    except Exception:
        logger.warning("Ziyaretçinin son görülmesi önbelleğe yazılamadı.", exc_info=True)
        return
    _yazilan[oturum_id] = simdi


def ziyaretci_son_gorulme(*, oturum_id: int) -> float | None:
    """Unix time of the visitor's last poll of this chat, or None (never, over a day ago, or the
    cache cannot be reached: then the visitor counts as gone and gets the mail, which is the
    safer mistake)."""
    try:
        return cache.get(_anahtar(oturum_id))
    except Exception:
        logger.warning("Ziyaretçinin son görülmesi önbellekten okunamadı.", exc_info=True)
        return None
