"""The webhooks outbox: the publisher's in-transaction handler (CONTRACT 7).

`olay_yaz` is registered with `supportdesk.core.olaylar` from `WebhooksConfig.ready()`. It writes
the `Olay` row and one `Teslimat` per subscribed active endpoint inside the publishing
transaction; the deliveries are queued only after that transaction commits (`kuyruk`), and the
beat sweep queues whatever the broker missed.
"""
from django.db import transaction

from supportdesk.core.olaylar import YayinlananOlay, webhook_govdesi

from . import kuyruk
from .models import Olay, Teslimat, WebhookEndpoint


def olay_yaz(olay: YayinlananOlay) -> Olay:
    """Write `olay` and its deliveries (2 queries, 3 when the tenant has a subscribed endpoint)."""
    kayit = Olay.objects.create(id=olay.id, musteri_id=olay.musteri_id, olay=olay.olay, zaman=olay.zaman,
                                veri=webhook_govdesi(olay))
    teslimatlari_olustur(kayit, WebhookEndpoint.objects.kapsamda([olay.musteri_id]).filter(aktif=True))
    return kayit


def teslimatlari_olustur(kayit: Olay, endpointler) -> list[Teslimat]:
    """One delivery per endpoint subscribed to the event (a test event goes to the one given),
    queued after commit."""
    hedefler = [e for e in endpointler if e.abone_mi(kayit.olay) or kayit.olay == Olay.Tip.WEBHOOK_TEST]
    if not hedefler:
        return []
    teslimatlar = Teslimat.objects.bulk_create(
        [Teslimat(musteri_id=kayit.musteri_id, olay=kayit, endpoint=e, sonraki_deneme=kayit.zaman) for e in hedefler]
    )
    endpointler = {t.pk: t.endpoint_id for t in teslimatlar}
    transaction.on_commit(lambda: kuyruk.teslimata_gonder(list(endpointler), endpointler=endpointler))
    return teslimatlar
