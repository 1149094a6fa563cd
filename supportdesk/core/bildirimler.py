"""Domain notices that are not webhook events: "something happened" for the apps above.

`olaylar` carries the six webhook events of CONTRACT 7, each written to the outbox. Some changes
matter to a feature above the publishing app without being a webhook event (an operator's
ticket reply, an operator's chat message: the e-mail app mails the visitor). A lower app must
not import the feature that cares, so it announces the change here, by name, and whoever cares
registers from its `AppConfig.ready()`:

- `bildirim_yayinla(ad, **veri)` inside the service's transaction: handlers run after commit,
  never after a rollback. An exception in a handler is logged; the change is already saved.
- `bildirim_kaydet(ad, fonksiyon)`: `fonksiyon(**veri)` runs for every such notice.
"""
import logging
from collections.abc import Callable

from django.db import transaction

logger = logging.getLogger("supportdesk.bildirimler")

BILDIRIMLER = (
    "ticket_operator_yaniti",  # veri: yanit_id
    "chat_operator_mesaji",  # veri: mesaj_id
)

_kayitlar: dict[str, list[Callable[..., None]]] = {ad: [] for ad in BILDIRIMLER}


def bildirim_kaydet(ad: str, fonksiyon: Callable[..., None]) -> Callable[..., None]:
    if ad not in _kayitlar:
        raise ValueError(f"Bilinmeyen bildirim: {ad}")
    if fonksiyon not in _kayitlar[ad]:
        _kayitlar[ad].append(fonksiyon)
    return fonksiyon


def bildirim_yayinla(ad: str, **veri) -> None:
    if ad not in _kayitlar:
        raise ValueError(f"Bilinmeyen bildirim: {ad}")
    fonksiyonlar = tuple(_kayitlar[ad])
    if fonksiyonlar:
        transaction.on_commit(lambda: _calistir(ad, fonksiyonlar, veri))


def _calistir(ad: str, fonksiyonlar, veri: dict) -> None:
    for fonksiyon in fonksiyonlar:
        try:
            fonksiyon(**veri)
        except Exception:
            logger.exception("Bildirim %s işlenemedi: %s", ad, fonksiyon)
