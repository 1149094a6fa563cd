"""One bad endpoint never slows the others (issue 18): a real Celery worker, real Redis, real
receivers on loopback. The worker's timeout is 6 s here so that a receiver answering after 5 s
succeeds and a hanging one is cut off at 6 s."""
import statistics
import time
from datetime import datetime

import pytest
from django.conf import settings

from supportdesk.celery import app as celery_app
from supportdesk.core.olaylar import yayinla
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.receiver import WebhookAlici
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Teslimat

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
WORKER_EK_AYARLARI = {"WEBHOOK_TIMEOUT_SECONDS": "6", "WEBHOOK_MAX_ATTEMPTS": "2"}


@pytest.fixture(autouse=True)
def _kuyruk_baglantisi(_hizli_ayarlar):
    """The autouse cache.clear() empties the Redis database the broker shares, bindings included;
    this process declared the queue in an earlier test and will not again, so its messages would go
    to kombu's dead-letter queue and only the sweep (seconds later) would deliver. Declare again."""
    with celery_app.connection_for_write() as baglanti:
        celery_app.amqp.queues[celery_app.conf.task_default_queue].bind(baglanti.default_channel).declare()


def gecikmeler(alici: WebhookAlici, n: int, timeout: float) -> list[float]:
    """Seconds from each event (its `zaman`) to its arrival at the receiver, for the first n."""
    return [i.zaman - datetime.fromisoformat(i.json()["zaman"]).timestamp() for i in alici.bekle(n, timeout=timeout)]


def ozet(ad: str, g: list[float]) -> str:
    g = sorted(g)
    return (f"{ad}: {len(g)} teslimat, medyan {statistics.median(g) * 1000:.0f} ms, "
            f"p95 {g[int(len(g) * 0.95) - 1] * 1000:.0f} ms, en çok {g[-1] * 1000:.0f} ms")


def sakinlestir(*alicilar: WebhookAlici, timeout: float = 40) -> None:
    """Let the worker finish every delivery before the test's tables are emptied (a TRUNCATE
    racing the worker's writes can deadlock): the receivers answer at once from now on."""
    for alici in alicilar:
        alici.varsayilan_gecikme = 0.0
    bitis = time.monotonic() + timeout
    while Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR).exists():
        assert time.monotonic() < bitis, "worker teslimatları bitiremedi"
        time.sleep(0.2)


def test_a_receiver_answering_after_5_s_does_not_delay_a_fast_one(celery_worker_sureci, webhook_alici):
    yavas_musteri, hizli_musteri = MusteriFactory(), MusteriFactory()
    with WebhookAlici() as yavas:
        yavas.varsayilan_gecikme = 5.0
        webhook_endpoint_olustur(musteri=yavas_musteri, url=yavas.adres("/yavas"))
        webhook_endpoint_olustur(musteri=hizli_musteri, url=webhook_alici.adres("/hizli"))
        for i in range(50):  # the slow tenant's event first, every time
            yayinla("chat_kapandi", musteri_id=yavas_musteri.id, veri={"sira": i})
            yayinla("chat_kapandi", musteri_id=hizli_musteri.id, veri={"sira": i})
        hizli = gecikmeler(webhook_alici, 50, timeout=20)
        print("\n" + ozet("hızlı uç nokta (yavaş komşusu 5 s)", hizli))
        print(f"yavaş uç noktaya o sırada ulaşan: {len(yavas.istekler)}")
        assert max(hizli) < 2.0
        assert sorted(i.json()["veri"]["sira"] for i in webhook_alici.istekler[:50]) == list(range(50))
        # The slow one is served too, a few at a time, and answered within the timeout.
        assert 1 <= len(yavas.bekle(2, timeout=15)) <= settings.WEBHOOK_ENDPOINT_CONCURRENCY + 1
        sakinlestir(yavas)


def test_a_hanging_endpoint_with_100_events_leaves_other_tenants_flowing(celery_worker_sureci, webhook_alici):
    asili_musteri = MusteriFactory()
    digerleri = [MusteriFactory() for _ in range(3)]
    with WebhookAlici() as asili:
        asili.varsayilan_gecikme = 60.0  # never answers within the 6 s timeout
        webhook_endpoint_olustur(musteri=asili_musteri, url=asili.adres("/asili"))
        for m in digerleri:
            webhook_endpoint_olustur(musteri=m, url=webhook_alici.adres(f"/m{m.id}"))
        for i in range(100):
            yayinla("yeni_ticket", musteri_id=asili_musteri.id, veri={"sira": i})
        # The worker has taken the hanging endpoint's deliveries and is attempting: its first request came.
        bitis = time.monotonic() + 20
        while not asili.istekler and time.monotonic() < bitis:
            time.sleep(0.05)
        assert asili.istekler, "asılı uç noktaya hiç istek gelmedi"
        for tur in range(10):
            for m in digerleri:
                yayinla("yeni_ticket", musteri_id=m.id, veri={"sira": tur})
        diger = gecikmeler(webhook_alici, 30, timeout=20)
        print("\n" + ozet("diğer kiracılar (asılı komşu, 100 olay)", diger))
        # Requests to it open at once: each hangs until the 6 s timeout, so those that arrived
        # within any 5.5 s of each other were open together.
        z = [i.zaman for i in asili.istekler]
        acik = max(sum(1 for j in z if t - 5.5 < j <= t) for t in z)
        print(f"asılı uç noktaya ulaşan istek: {len(z)}, aynı anda açık en çok: {acik}")
        assert max(diger) < 2.0
        assert {i.path for i in webhook_alici.istekler} == {f"/m{m.id}" for m in digerleri}
        # The hanging endpoint holds at most its slow-lane cap of attempts; the rest wait without a thread.
        assert 1 <= acik <= settings.WEBHOOK_SLOW_ENDPOINT_CONCURRENCY
        sakinlestir(asili)
