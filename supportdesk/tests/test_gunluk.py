"""`LOG_FORMAT=json` (CONTRACT 20): one JSON object per line with `zaman`, `seviye`, `mesaj`,
`istek_id`, the route, status and duration of a request, and the caller when known; the request's
id follows its work into Celery tasks and socket connections."""
import io
import json
import logging
import time
from datetime import datetime

import pytest
from rest_framework.test import APIClient
from websockets.sync.client import connect

from supportdesk.core.gunluk import IstekFiltresi, JsonBicimi
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client

pytestmark = pytest.mark.django_db
WORKER_EK_AYARLARI = {"LOG_FORMAT": "json"}


@pytest.fixture
def json_gunluk(settings):
    """The production handler of LOG_FORMAT=json (filter + formatter) on the root logger, into a
    buffer; returns a function giving the lines written so far, each parsed."""
    settings.ISTEK_GUNLUGU = True
    tampon = io.StringIO()
    handler = logging.StreamHandler(tampon)
    handler.addFilter(IstekFiltresi())
    handler.setFormatter(JsonBicimi())
    kok = logging.getLogger()
    kok.addHandler(handler)
    try:
        yield lambda: [json.loads(satir) for satir in tampon.getvalue().splitlines()]
    finally:
        kok.removeHandler(handler)


def kapanis_satiri(satirlar, istek_id):
    bulunan = [s for s in satirlar if s.get("istek_id") == istek_id and s.get("kaynak") == "supportdesk.istek"]
    assert len(bulunan) == 1, satirlar
    return bulunan[0]


def test_an_operator_request_has_one_closing_line_with_its_id_route_status_duration_and_user(json_gunluk, musteri):
    user = operator_yap(musteri)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, user)}")
    res = api.get("/api/v1/operator/tenants")
    assert res.status_code == 200, res.content
    satir = kapanis_satiri(json_gunluk(), res["X-Request-ID"])
    assert satir["seviye"] == "INFO" and satir["mesaj"], satir
    assert datetime.fromisoformat(satir["zaman"]).utcoffset() is not None, satir
    assert satir["durum"] == 200 and satir["yontem"] == "GET", satir
    assert satir["rota"] and "/" not in satir["rota"], satir  # the route's name, not its path
    assert isinstance(satir["sure_ms"], (int, float)), satir
    assert satir["kullanici_id"] == user.id, satir
    assert "musteri_id" not in satir, satir


def test_a_widget_request_names_its_tenant_and_a_given_request_id_is_kept(json_gunluk, musteri):
    res = widget_client(musteri, HTTP_X_REQUEST_ID="istemcinin-kimligi-1").post(
        "/api/v1/widget/chat/start", {"ziyaretci_id": "z-gunluk"}, format="json")
    assert res.status_code == 201, res.content
    assert res["X-Request-ID"] == "istemcinin-kimligi-1"
    satir = kapanis_satiri(json_gunluk(), "istemcinin-kimligi-1")
    assert satir["musteri_id"] == musteri.id and satir["durum"] == 201, satir


def test_a_500_logs_its_traceback_under_the_id_the_client_got(json_gunluk, musteri, monkeypatch):
    from tenants.api import views

    def patla(self, request):
        raise RuntimeError("gizli iç ayrıntı")

    monkeypatch.setattr(views.TenantListView, "get", patla)
    user = operator_yap(musteri)
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, user)}")
    res = api.get("/api/v1/operator/tenants")
    assert res.status_code == 500
    satirlar = [s for s in json_gunluk() if s.get("istek_id") == res["X-Request-ID"]]
    hata = [s for s in satirlar if s["seviye"] == "ERROR"]
    assert hata and "gizli iç ayrıntı" in hata[0]["exc_info"] and hata[0]["kullanici_id"] == user.id, satirlar
    assert kapanis_satiri(satirlar, res["X-Request-ID"])["durum"] == 500


@pytest.mark.django_db(transaction=True)
def test_a_socket_connection_logs_under_its_own_id_with_its_tenant(canli_sunucu_baslat, musteri):
    """A live uvicorn process with LOG_FORMAT=json: the socket's closing line carries the
    connection's own id (`ws-<socket id>`) and its tenant."""
    sunucu = canli_sunucu_baslat(LOG_FORMAT="json", LOG_LEVEL="INFO", ISTEK_GUNLUGU="true")
    with connect(f"{sunucu.ws_url}/ws/v1/widget/?api_key={musteri.api_key}&ziyaretci_id=z-soket", open_timeout=5):
        pass
    bitis, satirlar = time.monotonic() + 5, []
    while time.monotonic() < bitis and not satirlar:
        satirlar = [json.loads(s) for s in sunucu.log.read_text(errors="replace").splitlines()
                    if s.startswith("{") and '"supportdesk.istek"' in s and '"ws-' in s]
        time.sleep(0.05)
    [satir] = satirlar
    assert satir["istek_id"].startswith("ws-") and len(satir["istek_id"]) == 35, satir
    assert satir["musteri_id"] == musteri.id and satir["rota"] == "/ws/v1/widget/", satir
    assert {"zaman", "seviye", "mesaj", "sure_ms"} <= set(satir), satir


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_request_id_follows_its_work_into_a_real_celery_worker(celery_worker_sureci, webhook_alici, musteri, tmp_path):
    """The worker (LOG_FORMAT=json) logs the task that delivered the request's webhook under the
    request's id, carried in the task's message header."""
    from webhooks.endpointler import webhook_endpoint_olustur

    user = operator_yap(musteri)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, user)}")
    assert api.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json").status_code == 200
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
    res = api.post("/api/v1/operator/status", {"durum": "cevrimdisi"}, format="json")
    assert res.status_code == 200, res.content
    webhook_alici.bekle(1, timeout=15)
    rid = res["X-Request-ID"]
    # This module's worker log (earlier modules' workers left theirs beside it, in text).
    loglar = list(tmp_path.parent.glob("celery*/worker.log"))
    bitis, satirlar = time.monotonic() + 10, []
    while time.monotonic() < bitis:
        satirlar = [json.loads(s) for log in loglar for s in log.read_text(errors="replace").splitlines()
                    if s.startswith("{")]
        if any(s.get("istek_id") == rid for s in satirlar):
            break
        time.sleep(0.1)
    bizim = [s for s in satirlar if s.get("istek_id") == rid]
    assert bizim, satirlar[-10:]
    assert all({"zaman", "seviye", "mesaj"} <= set(s) for s in bizim), bizim
    assert any("webhooks." in s["mesaj"] for s in bizim), bizim
