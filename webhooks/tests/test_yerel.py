"""Broker-less mode (`make run`): the web process's runner delivers and retries (webhooks/havuz.py
on supportdesk/core/kosucu.py)."""
import time

import pytest
from rest_framework.test import APIClient

from supportdesk.celery import app as celery_app
from supportdesk.core import kosucu
from supportdesk.core.olaylar import yayinla
from supportdesk.testing.fixtures import giris_yap, operator_yap
from webhooks import kuyruk
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Teslimat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def yerel_isci(settings, monkeypatch):
    settings.WEBHOOK_LOCAL_WORKER = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    settings.WEBHOOK_BACKOFF_BASE_SECONDS = 0.1
    settings.WEBHOOK_BACKOFF_MAX_SECONDS = 0.2
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # no broker
    kosucu.durdur()  # a fresh web process: its first request starts the runner
    yield
    kosucu.durdur()
    celery_app.conf.task_always_eager = onceki


def test_yerel_isci_istegi_bekletmeden_teslim_eder_ve_yeniden_dener(yerel_isci, musteri, webhook_alici):
    user = operator_yap(musteri)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    assert client.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json").status_code == 200
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(200, gecikme=5)  # hangs past the 0.5 s timeout, then 200 by default

    baslangic = time.monotonic()
    res = client.post("/api/v1/operator/status", {"durum": "cevrimdisi"}, format="json")
    assert res.status_code == 200, res.content
    assert time.monotonic() - baslangic < 0.5

    istekler = webhook_alici.bekle(2, timeout=10)
    assert istekler[0].headers["x-webhook-id"] == istekler[1].headers["x-webhook-id"]
    bitis = time.monotonic() + 5
    while Teslimat.objects.get().durum != "teslim_edildi" and time.monotonic() < bitis:
        time.sleep(0.05)
    t = Teslimat.objects.get()
    assert t.durum == "teslim_edildi" and t.deneme_sayisi == 2


def test_kisa_yeniden_deneme_denemenin_kapanisini_gecse_de_gider(yerel_isci, musteri, webhook_alici, monkeypatch):
    # On a loaded machine an attempt's closing steps (its Redis place given back) can outlast the
    # retry's 0.1-0.2 s wait: the retry then found its delivery still in the pool and was dropped,
    # leaving it to the sweep a minute later. Here the place is given back half a second late.
    from webhooks import havuz

    gercek = havuz.semafor_birak

    def gec_birak(*args, **kwargs):
        time.sleep(0.5)
        return gercek(*args, **kwargs)

    monkeypatch.setattr(havuz, "semafor_birak", gec_birak)
    user = operator_yap(musteri)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    assert client.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json").status_code == 200
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(500)  # then 200
    assert client.post("/api/v1/operator/status", {"durum": "cevrimdisi"}, format="json").status_code == 200
    istekler = webhook_alici.bekle(2, timeout=5)
    assert istekler[0].headers["x-webhook-id"] == istekler[1].headers["x-webhook-id"]


def test_asili_alici_diger_teslimatlari_bekletmez(yerel_isci, settings, musteri, diger_musteri, webhook_alici):
    # One tenant's hanging receiver must not hold every other delivery of the process for the
    # length of its timeout (the broker-less loop attempts deliveries side by side).
    from supportdesk.testing.receiver import WebhookAlici
    settings.WEBHOOK_TIMEOUT_SECONDS = 3
    with WebhookAlici() as asili:
        asili.varsayilan_gecikme = 10
        webhook_endpoint_olustur(musteri=diger_musteri, url=asili.adres("/asili"))
        webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hizli"))
        yayinla("yeni_chat", musteri_id=diger_musteri.id, veri={"oturum_id": 1})
        asili.bekle(1, timeout=5)  # the hanging attempt is under way
        baslangic = time.monotonic()
        yayinla("yeni_chat", musteri_id=musteri.id, veri={"oturum_id": 2})
        [istek] = webhook_alici.bekle(1, timeout=5)
        assert istek.path == "/hizli"
        assert time.monotonic() - baslangic < 1.5


def test_sunucunun_ilk_istegi_bekleyen_teslimatlari_baslatir(yerel_isci, monkeypatch, musteri, webhook_alici):
    # A delivery left due by a process that never queued it (or a retry from before a restart)
    # goes out once the web process serves anything, not only after the next event.
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    with monkeypatch.context() as m:
        m.setattr(kuyruk, "teslimata_gonder", lambda *a, **k: True)
        olay = yayinla("yeni_ticket", musteri_id=musteri.id, veri={"ticket_id": 1})
    assert webhook_alici.sessiz_mi(1.2, mevcut=0)
    APIClient().get("/api/v1/operator/tenants")
    [istek] = webhook_alici.bekle(1, timeout=5)
    assert istek.headers["x-webhook-id"] == str(olay.id)
