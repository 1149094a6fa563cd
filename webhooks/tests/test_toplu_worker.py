"""Batches in a real Celery worker (real Redis, receiver on loopback): a burst to one endpoint is
attempted in batches, and every event still arrives exactly once, signed, logged once."""
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from supportdesk.celery import app as celery_app
from supportdesk.core.olaylar import yayinla
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Olay, Teslimat, TeslimatDenemesi

from .test_worker import imza_dogru

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _kuyruk_baglantisi(_hizli_ayarlar):
    # As in test_yalitim: the autouse cache.clear() emptied the broker's bindings; declare again.
    with celery_app.connection_for_write() as baglanti:
        celery_app.amqp.queues[celery_app.conf.task_default_queue].bind(baglanti.default_channel).declare()


def test_bir_uc_noktaya_300_olay_partilerle_her_biri_bir_kez(celery_worker_sureci, webhook_alici, musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/toplu"))
    for i in range(300):
        yayinla("chat_kapandi", musteri_id=musteri.id, veri={"sira": i})
    istekler = webhook_alici.bekle(300, timeout=60)
    assert webhook_alici.sessiz_mi(1.0)  # nothing more: no duplicate
    assert sorted(i.json()["veri"]["sira"] for i in istekler) == list(range(300))
    assert len({i.headers["x-webhook-id"] for i in istekler}) == 300
    assert all(imza_dogru(i, ep.gizli_anahtar) for i in istekler)
    bitis = time.monotonic() + 10
    while Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR).exists() and time.monotonic() < bitis:
        time.sleep(0.1)
    assert set(Teslimat.objects.values_list("durum", "deneme_sayisi", "kilit_bitis")) == {("teslim_edildi", 1, None)}
    assert TeslimatDenemesi.objects.count() == 300
    # A batch logs its attempts in one transaction, with one time: fewer times than attempts.
    partiler = Counter(TeslimatDenemesi.objects.values_list("zaman", flat=True))
    print(f"\n300 teslimat {len(partiler)} partide; en büyüğü {max(partiler.values())} "
          f"(sınır {settings.WEBHOOK_BATCH_MAX})")
    assert len(partiler) < 300 and max(partiler.values()) <= settings.WEBHOOK_BATCH_MAX


def test_coklu_uc_nokta_ve_supurme_tek_mesajda_her_biri_bir_kez(celery_worker_sureci, webhook_alici, musteri):
    # An event with 3 endpoints is one broker message (webhooks.teslimatlar_gonder) for its 3
    # deliveries; so is what the sweep finds (up to 100 a message). Each arrives exactly once.
    endpointler = [webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres(f"/{ad}")) for ad in "abc"]
    for i in range(10):
        yayinla("chat_kapandi", musteri_id=musteri.id, veri={"sira": i})
    # Written but never queued (as if the broker had been down at commit): the worker's beat sweep
    # finds the 15 and queues them in one message.
    eski = timezone.now() - timedelta(minutes=5)
    for i in range(10, 15):
        olay = Olay.objects.create(musteri=musteri, olay="chat_kapandi", zaman=eski, veri={"sira": i})
        Teslimat.objects.bulk_create([Teslimat(musteri=musteri, olay=olay, endpoint=e, sonraki_deneme=eski)
                                      for e in endpointler])
    istekler = webhook_alici.bekle(45, timeout=30)
    assert webhook_alici.sessiz_mi(1.5)  # three sweeps later, nothing more
    for ad in "abc":
        assert sorted(i.json()["veri"]["sira"] for i in istekler if i.path == f"/{ad}") == list(range(15))
    assert len({(i.path, i.headers["x-webhook-id"]) for i in istekler}) == 45
