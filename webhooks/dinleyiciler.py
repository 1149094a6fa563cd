"""What the webhooks app does with domain events (supportdesk.core.olaylar).

Every webhook event (CONTRACT 7, `OLAYLAR`) is written to the outbox inside the transaction that
states it, so the row and its deliveries commit or roll back with the change; delivery is queued
after commit (`outbox.teslimatlari_olustur`)."""
from supportdesk.core import olaylar

from . import outbox

olaylar.dinle(*olaylar.OLAYLAR, islem_icinde=True)(outbox.olay_yaz)
