"""The automation rules' trigger point (CONTRACT 23): an action function that makes a change a rule
may react to (a chat started, a ticket created, a visitor's message, a label added, an SLA warning)
calls `kurallari_calistir` itself, in its own transaction, as one of its business steps; the rules'
actions then run in that transaction too (a rollback of the change rolls them back).

Rules act through the chat and ticket actions, so their engine (`otomasyon.motor`) sits above
those apps; they reach it through this one seam, which the `otomasyon` app fills in at start
(`calistirici_kaydet`). Without it (the app not installed) a call does nothing.

`tur`: `chat` or `ticket`; `nesne_id`: its id. `metin`: the text the event is about (the message,
the ticket's subject and description) when the caller holds it; `etiket`: the name of the label
added. `nesne`: the chat or ticket as the caller holds it (fields read from it need no query)."""
from collections.abc import Callable
from typing import Any

_calistirici: Callable[..., bool] | None = None
_var_mi: Callable[[str, int], bool] | None = None


def calistirici_kaydet(calistir: Callable[..., bool], kural_var_mi: Callable[[str, int], bool]) -> None:
    global _calistirici, _var_mi
    _calistirici, _var_mi = calistir, kural_var_mi


def kural_var_mi(olay: str, musteri_id: int) -> bool:
    """Whether the tenant has an active rule for `olay` (from the rules' cache: no query). The
    visitor's message path asks first, to keep its one-statement write when there is none."""
    return _var_mi is not None and _var_mi(olay, musteri_id)


def kurallari_calistir(olay: str, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None = None,
                       etiket: str | None = None, nesne: Any = None) -> bool:
    """True when some rule's actions ran (the caller reads its object again before answering)."""
    if _calistirici is None:
        return False
    return _calistirici(olay, musteri_id=musteri_id, tur=tur, nesne_id=nesne_id, metin=metin, etiket=etiket,
                        nesne=nesne)
