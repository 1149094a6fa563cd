"""Must-show behaviour with a real receiver on loopback, real Redis and a real Celery worker."""
import hashlib
import hmac
import json
import os
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import transaction
from rest_framework.test import APIClient

from supportdesk.core.olaylar import yayinla
from supportdesk.testing.celery_worker import worker_veritabani_url
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Teslimat, WebhookEndpoint

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
DURUM = "/api/v1/operator/status"


def imza_dogru(istek, gizli_anahtar: str) -> bool:
    """Verification as docs/webhooks.md tells a receiver to do it."""
    zaman = istek.headers["x-webhook-zaman"]
    mac = hmac.new(gizli_anahtar.encode(), f"{zaman}.".encode() + istek.govde, hashlib.sha256).hexdigest()
    return hmac.compare_digest(istek.headers["x-webhook-imza"], "sha256=" + mac) and abs(time.time() - int(zaman)) < 300


def bekle_durum(teslimat_filtresi: dict, durum: str, timeout: float = 15) -> Teslimat:
    bitis = time.monotonic() + timeout
    while time.monotonic() < bitis:
        t = Teslimat.objects.filter(**teslimat_filtresi).first()
        if t is not None and t.durum == durum:
            return t
        time.sleep(0.1)
    raise AssertionError(f"Teslimat {durum} olmadı: {list(Teslimat.objects.values('durum', 'deneme_sayisi'))}")


@pytest.fixture
def operator_istemci(musteri):
    user = operator_yap(musteri)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    assert client.post(DURUM, {"durum": "cevrimici"}, format="json").status_code == 200
    return user, client


def test_api_olayi_imzali_ulasir(celery_worker_sureci, webhook_alici, musteri, operator_istemci):
    user, client = operator_istemci
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
    res = client.post(DURUM, {"durum": "cevrimdisi"}, format="json")
    assert res.status_code == 200, res.content
    [istek] = webhook_alici.bekle(1, timeout=15)
    assert imza_dogru(istek, ep.gizli_anahtar)
    govde = json.loads(istek.govde)
    assert set(govde) == {"olay", "zaman", "veri"}
    assert govde["olay"] == istek.headers["x-webhook-olay"] == "operator_cevrimdisi"
    assert govde["veri"] == {"operator_id": user.id, "musteri_id": musteri.id, "email": user.email}
    t = bekle_durum({"endpoint": ep}, "teslim_edildi")
    assert istek.headers["x-webhook-id"] == str(t.olay_id)


def test_iki_500_sonra_200_ayni_kimlikle_uc_kez(celery_worker_sureci, webhook_alici, musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(500, 500)
    with transaction.atomic():
        olay = yayinla("chat_kapandi", musteri_id=musteri.id, veri={"oturum_id": 1})
    istekler = webhook_alici.bekle(3, timeout=15)
    assert [i.headers["x-webhook-id"] for i in istekler] == [str(olay.id)] * 3
    assert all(imza_dogru(i, ep.gizli_anahtar) for i in istekler)
    t = bekle_durum({"olay_id": olay.id}, "teslim_edildi")
    assert [(d.durum_kodu, d.basarili) for d in t.denemeler.all()] == [(500, False), (500, False), (200, True)]
    assert webhook_alici.sessiz_mi(1.0)


def test_hic_2xx_donmeyen_ayarlanan_denemeden_sonra_basarisiz(celery_worker_sureci, webhook_alici, musteri):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.varsayilan_durum = 500
    olay = yayinla("yeni_ticket", musteri_id=musteri.id, veri={"ticket_id": 3})
    t = bekle_durum({"olay_id": olay.id}, "basarisiz")
    assert t.deneme_sayisi == 4 and t.denemeler.count() == 4  # WEBHOOK_MAX_ATTEMPTS of the worker
    assert {i.headers["x-webhook-id"] for i in webhook_alici.bekle(4)} == {str(olay.id)}
    assert webhook_alici.sessiz_mi(1.0, mevcut=4)


def test_asili_alici_zaman_asiminda_kesilir_api_beklemez(celery_worker_sureci, webhook_alici, musteri,
                                                          operator_istemci):
    _, client = operator_istemci
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(200, gecikme=30)  # hangs far past the worker's 1 s timeout
    baslangic = time.monotonic()
    res = client.post(DURUM, {"durum": "cevrimdisi"}, format="json")
    assert res.status_code == 200, res.content
    assert time.monotonic() - baslangic < 1.0  # the API request never waits for the receiver
    webhook_alici.bekle(2, timeout=15)  # cut off, then retried (and answered 200)
    t = bekle_durum({"endpoint": ep}, "teslim_edildi")
    ilk, ikinci = t.denemeler.all()
    assert ilk.durum_kodu is None and "Zaman aşımı" in ilk.hata and ilk.sure_ms < 5000
    assert ikinci.basarili


def test_broker_erisilemezken_yazilan_olay_supurme_gorevine_teslim(celery_worker_sureci, webhook_alici, musteri):
    # Another process whose broker address is dead writes the event: its commit must succeed,
    # and the worker's beat sweep (broker up) must deliver it afterwards.
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    betik = (
        "from django.db import transaction\n"
        "from supportdesk.core.olaylar import yayinla\n"
        "with transaction.atomic():\n"
        f"    o = yayinla('memnuniyet_puan', musteri_id={musteri.id}, veri={{'oturum_id': 1, 'musteri_id': {musteri.id},"
        " 'puan': 5, 'yorum': None, 'etiketler': []})\n"
        "print('OLAY', o.id)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", "DATABASE_URL": worker_veritabani_url(),
           "REDIS_URL": "redis://127.0.0.1:1/0", "CELERY_TASK_ALWAYS_EAGER": "false"}
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", betik], cwd=settings.BASE_DIR, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "kuyruğa alınamadı" in out.stderr  # the broker really was unreachable
    olay_id = out.stdout.split("OLAY", 1)[1].strip()
    [istek] = webhook_alici.bekle(1, timeout=15)
    assert istek.headers["x-webhook-id"] == olay_id and imza_dogru(istek, ep.gizli_anahtar)
    bekle_durum({"olay_id": olay_id}, "teslim_edildi")


def test_yalnizca_hakli_uc_nokta_alir(celery_worker_sureci, webhook_alici, musteri):
    diger = MusteriFactory()
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/baska-olay"), olaylar=["yeni_ticket"])
    pasif = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/pasif"))
    WebhookEndpoint.objects.filter(pk=pasif.pk).update(aktif=False)
    webhook_endpoint_olustur(musteri=diger, url=webhook_alici.adres("/diger-kiraci"))
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hedef"), olaylar=["chat_kapandi"])

    with pytest.raises(RuntimeError), transaction.atomic():
        yayinla("chat_kapandi", musteri_id=musteri.id, veri={"geri_alindi": True})
        raise RuntimeError("geri al")
    yayinla("chat_kapandi", musteri_id=musteri.id, veri={"oturum_id": 9})

    [istek] = webhook_alici.bekle(1, timeout=15)
    assert istek.path == "/hedef" and istek.json()["veri"] == {"oturum_id": 9}
    assert webhook_alici.sessiz_mi(2.0)  # two sweeps later still nothing else arrived
    assert Teslimat.objects.count() == 1
