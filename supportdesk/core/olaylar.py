"""The event publisher: the one place a domain event leaves a service's transaction.

A service calls `olay_yayinla(musteri_id=..., olay=..., veri=...)` inside its
`transaction.atomic()` block. What happens to the event belongs to the apps that plug in here,
never to core (which knows no domain app):

- `alici_kaydet(fonksiyon)`: run inside the caller's transaction, before it commits. The
  webhooks outbox writer registers here (from `WebhooksConfig.ready()`), so the outbox row and
  its deliveries commit or roll back with the change (CONTRACT 7).
- `commit_sonrasi_kaydet(fonksiyon)`: run once the transaction has committed, in commit order,
  never after a rollback. The socket fan-out (CONTRACT 11) plugs in here.

Both get the same `YayinlananOlay`; its `id` is the event's identity everywhere (the webhook's
`X-Webhook-Id`).

A second kind of event, `anlik_yayinla`, is for the sockets only (CONTRACT 11: a new message, an
accept, a status change...): nothing is written for it, no webhook ever sees it, and it goes only
to the handlers registered with `anlik_alici_kaydet`, after commit, in commit order. Its `veri`
may hold the model objects as the service committed them (it never leaves the process); the
subscriber (the `canli` app) turns them into frames with the REST serializers.
"""
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

logger = logging.getLogger("supportdesk.olaylar")

# CONTRACT 7: the domain events ("Emitted by"). Endpoints subscribe to these names.
OLAYLAR = (
    "yeni_chat",
    "yeni_ticket",
    "chat_kapandi",
    "ticket_cozuldu",
    "memnuniyet_puan",
    "operator_cevrimdisi",
)

# CONTRACT 11: the socket-only events. Never in OLAYLAR, so never in the outbox or a webhook.
ANLIK_OLAYLAR = (
    "chat_yeni",
    "chat_guncellendi",
    "mesaj",
    "ticket_yeni",
    "ticket_guncellendi",
    "operator_durumu",
    "hazir_yanitlar_degisti",
)


@dataclass(frozen=True)
class YayinlananOlay:
    """One published event, as every handler sees it."""

    musteri_id: int
    olay: str
    veri: dict
    id: uuid.UUID = field(default_factory=uuid.uuid4)
    zaman: datetime = field(default_factory=timezone.now)


Alici = Callable[[YayinlananOlay], None]

_alicilar: list[Alici] = []
_commit_sonrasi: list[Alici] = []
_anlik: list[Alici] = []


def alici_kaydet(fonksiyon: Alici) -> Alici:
    """Run `fonksiyon(olay)` inside the publishing transaction (it may write; an exception rolls
    the whole change back). Registering the same function again does nothing. Usable as a decorator."""
    if fonksiyon not in _alicilar:
        _alicilar.append(fonksiyon)
    return fonksiyon


def commit_sonrasi_kaydet(fonksiyon: Alici) -> Alici:
    """Run `fonksiyon(olay)` after the publishing transaction commits (never on rollback). An
    exception is logged and does not reach the caller: the change is already saved."""
    if fonksiyon not in _commit_sonrasi:
        _commit_sonrasi.append(fonksiyon)
    return fonksiyon


def anlik_alici_kaydet(fonksiyon: Alici) -> Alici:
    """Run `fonksiyon(olay)` for each socket-only event (`anlik_yayinla`), after commit."""
    if fonksiyon not in _anlik:
        _anlik.append(fonksiyon)
    return fonksiyon


def kaydi_sil(fonksiyon: Alici) -> None:
    """Unregister `fonksiyon` from every list (tests)."""
    for liste in (_alicilar, _commit_sonrasi, _anlik):
        if fonksiyon in liste:
            liste.remove(fonksiyon)


def alicilar() -> tuple[tuple[Alici, ...], tuple[Alici, ...]]:
    """(in-transaction handlers, after-commit handlers), in registration order."""
    return tuple(_alicilar), tuple(_commit_sonrasi)


def olay_yayinla(*, musteri_id: int, olay: str, veri: dict) -> YayinlananOlay:
    """Publish an event of tenant `musteri_id` from inside the service's transaction.

    In-transaction handlers run now (the webhooks outbox costs 2 queries, 3 when the tenant has a
    subscribed endpoint); after-commit handlers run once the caller's outermost transaction has
    committed. A rollback drops the event for every handler. An unknown event name is a
    programming error (ValueError); so is publishing with no in-transaction handler registered
    (RuntimeError), since the event would be lost without a trace.
    """
    if olay not in OLAYLAR:
        raise ValueError(f"Bilinmeyen olay: {olay}")
    if not _alicilar:
        raise RuntimeError(f"'{olay}' olayı için kayıtlı alıcı yok (webhooks uygulaması yüklenmemiş mi?).")
    kayit = YayinlananOlay(musteri_id=musteri_id, olay=olay, veri=veri)
    # savepoint=False: inside the caller's block this adds no SAVEPOINT queries; called on its
    # own it still keeps what the handlers write together.
    with transaction.atomic(savepoint=False):
        for alici in tuple(_alicilar):
            alici(kayit)
        sonrakiler = tuple(_commit_sonrasi)
        if sonrakiler:
            transaction.on_commit(lambda: _commit_sonrasi_calistir(kayit, sonrakiler))
    return kayit


def _commit_sonrasi_calistir(kayit: YayinlananOlay, fonksiyonlar: tuple[Alici, ...]) -> None:
    for fonksiyon in fonksiyonlar:
        try:
            fonksiyon(kayit)
        except Exception:
            logger.exception("Olay %s (%s) commit sonrası işlenemedi: %s", kayit.id, kayit.olay, fonksiyon)


def anlik_yayinla(*, musteri_id: int | None, olay: str, veri: dict) -> None:
    """Publish a socket-only event (ANLIK_OLAYLAR) once the caller's transaction commits.

    Nothing is stored: a client that misses it re-reads through REST (`sonra=`). With no handler
    registered (no socket app installed) it costs nothing. `musteri_id` is None for an event of
    several tenants (`operator_durumu` names them in `veri`).
    """
    if olay not in ANLIK_OLAYLAR:
        raise ValueError(f"Bilinmeyen anlık olay: {olay}")
    fonksiyonlar = tuple(_anlik)
    if not fonksiyonlar:
        return
    kayit = YayinlananOlay(musteri_id=musteri_id, olay=olay, veri=veri)
    transaction.on_commit(lambda: _commit_sonrasi_calistir(kayit, fonksiyonlar))
