"""The automation rules' trigger point (CONTRACT 23): an action function that makes a change a rule
may react to (a chat started, a ticket created, a visitor's message, a label added, an SLA warning)
calls `kurallari_calistir` itself, in its own transaction, as one of its business steps; the rules'
actions then run in that transaction too (a rollback of the change rolls them back).

Rules act through the chat and ticket actions, so their engine (`otomasyon.motor`) sits above
those apps; they reach it through this one seam, which the `otomasyon` app fills in at start
(`calistirici_kaydet`). Without it (the app not installed) a call does nothing.

`tur`: `chat` or `ticket`; `nesne_id`: its id. `metin`: the text the event is about (the message,
the ticket's subject and description) when the caller holds it; `etiket`: the name of the label
added. `nesne`: the chat or ticket as the caller holds it (fields read from it need no query).

The tenant's rules generation (issue 42, `otomasyon.onbellek`): its key is named here so that the
widget's pre-read (`tenants.on_okuma`) reads it in its one round trip for a tenant with rules and
leaves it for the request (`istek_nesli_ayarla`); the engine then needs no round trip of its own.
"""
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any, Protocol

from .onbellek import tenant_etiketi

NESIL = "otomasyon:kurallar-nesli:{}"  # formatted with the tenant's hash tag (Redis Cluster: its slot)
_istek_nesli: ContextVar[tuple[int, Any] | None] = ContextVar("kural_nesli", default=None)


def nesil_anahtari(musteri_id: int) -> str:
    """The cache key (before the cache's prefix) of the tenant's rules generation."""
    return NESIL.format(tenant_etiketi(musteri_id))


def istek_nesli_ayarla(musteri_id: int, deger) -> Token:
    """This request read the tenant's rules generation already (`deger`: the raw value, None when
    unset): the engine uses it until `istek_nesli_bitir(token)`."""
    return _istek_nesli.set((musteri_id, deger))


def istek_nesli_bitir(token: Token) -> None:
    _istek_nesli.reset(token)


def istek_nesli(musteri_id: int) -> tuple[bool, Any]:
    """(True, raw value) when this request read the tenant's rules generation; else (False, None)."""
    okunan = _istek_nesli.get()
    if okunan is None or okunan[0] != musteri_id:
        return False, None
    return True, okunan[1]


_calistirici: Callable[..., bool] | None = None
_on_degerlendirici: Callable[..., "OnDegerlendirme | None"] | None = None


class OnDegerlendirme(Protocol):
    eslesen: bool  # some rule's conditions hold: its actions are to run

    def kaydet(self) -> None:
        """Record the runs whose conditions did not hold (one INSERT)."""


def calistirici_kaydet(calistir: Callable[..., bool], on_degerlendir: Callable[..., "OnDegerlendirme | None"]) -> None:
    global _calistirici, _on_degerlendirici
    _calistirici, _on_degerlendirici = calistir, on_degerlendir


def kurallari_on_degerlendir(olay: str, *, musteri_id: int, tur: str, nesne_id: int,
                             metin: str | None = None, kurallar_var: bool = True) -> OnDegerlendirme | None:
    """The hot path's question before its write (a visitor's message): None when the tenant has no
    active rule for `olay` (from the cache: no query); else whether any rule's conditions hold now,
    read from what does not change with the write. When none holds, the write keeps its one
    statement and `kaydet()` then records the runs; when one does, the caller writes and calls
    `kurallari_calistir` in one transaction."""
    if _on_degerlendirici is None or not kurallar_var:
        return None
    return _on_degerlendirici(olay, musteri_id=musteri_id, tur=tur, nesne_id=nesne_id, metin=metin)


def kurallari_calistir(olay: str, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None = None,
                       etiket: str | None = None, nesne: Any = None, kurallar_var: bool = True) -> bool:
    """True when some rule's actions ran (the caller reads its object again before answering).

    `kurallar_var`: the tenant's `Musteri.kurallar_var` when the caller holds the tenant (the hot
    paths: a chat's start, a visitor's message, a ticket's creation); False skips the rules' cache
    read too, so a tenant without active rules pays no round trip for them."""
    if _calistirici is None or not kurallar_var:
        return False
    return _calistirici(olay, musteri_id=musteri_id, tur=tur, nesne_id=nesne_id, metin=metin, etiket=etiket,
                        nesne=nesne)
