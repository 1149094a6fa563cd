"""POST /operator/status and logout: operator_cevrimdisi once per tenant, only on a change."""
import pytest
from rest_framework.test import APIClient

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.tests.test_auth import hata
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Olay
from webhooks.teslimat import teslimatlari_simdi_gonder

pytestmark = pytest.mark.django_db
DURUM = "/api/v1/operator/status"


@pytest.fixture
def iki_kiracili():
    a, b = MusteriFactory(), MusteriFactory()
    user = operator_yap(a, b)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return user, client, a, b


def cevrimdisi_olaylari():
    return list(Olay.objects.filter(olay="operator_cevrimdisi").order_by("musteri_id").values("musteri_id", "veri"))


def test_durum_ayarlanir_ve_cevrimdisi_her_kiraciya_bir_olay(iki_kiracili):
    user, client, a, b = iki_kiracili
    res = client.post(DURUM, {"durum": "cevrimici"}, format="json")
    assert res.status_code == 200, res.content
    assert res.json() == {"basarili": True, "data": {"operator_id": user.id, "durum": "cevrimici"}}
    user.refresh_from_db()
    assert user.durum == "cevrimici"
    assert client.post(DURUM, {"durum": "mesgul"}, format="json").status_code == 200
    assert cevrimdisi_olaylari() == []

    res = client.post(DURUM, {"durum": "cevrimdisi"}, format="json")
    assert res.status_code == 200, res.content
    assert cevrimdisi_olaylari() == [
        {"musteri_id": m.id, "veri": {"operator_id": user.id, "musteri_id": m.id, "email": user.email}} for m in (a, b)
    ]
    # The same status again changes nothing and emits nothing.
    res = client.post(DURUM, {"durum": "cevrimdisi"}, format="json")
    assert res.status_code == 200 and res.json()["data"]["durum"] == "cevrimdisi"
    assert len(cevrimdisi_olaylari()) == 2


def test_cikis_cevrimdisi_yapar_ve_olay_uretir(iki_kiracili, webhook_alici):
    user, client, a, b = iki_kiracili
    webhook_endpoint_olustur(musteri=a, url=webhook_alici.adres("/a"))
    assert client.post(DURUM, {"durum": "cevrimici"}, format="json").status_code == 200
    res = client.post("/api/v1/auth/logout")
    assert res.status_code == 200, res.content
    user.refresh_from_db()
    assert user.durum == "cevrimdisi"
    assert [o["musteri_id"] for o in cevrimdisi_olaylari()] == [a.id, b.id]
    teslimatlari_simdi_gonder()
    [istek] = webhook_alici.bekle(1)
    assert istek.json()["veri"] == {"operator_id": user.id, "musteri_id": a.id, "email": user.email}
    assert istek.headers["x-webhook-olay"] == "operator_cevrimdisi"


def test_cikis_durum_zaten_cevrimdisi_olsa_da_olay_uretir(iki_kiracili):
    # CONTRACT 7: "status becoming cevrimdisi or logout" - logout is a trigger of its own, so an
    # operator who logs in and straight out (never having set a status) still emits, once per tenant.
    user, client, a, b = iki_kiracili
    user.refresh_from_db()
    assert user.durum == "cevrimdisi"
    assert client.post("/api/v1/auth/logout").status_code == 200
    assert [o["musteri_id"] for o in cevrimdisi_olaylari()] == [a.id, b.id]
    # The revoked token cannot log out (or emit) a second time.
    assert client.post("/api/v1/auth/logout").status_code == 401
    assert len(cevrimdisi_olaylari()) == 2


@pytest.mark.parametrize("govde", [{"durum": "uykuda"}, {"durum": ""}, {"durum": 1}, {"durum": None}, {}, {"durum": ["mesgul"]}])
def test_gecersiz_durum_400_ve_degisiklik_yok(iki_kiracili, govde):
    user, client, a, b = iki_kiracili
    body = hata(client.post(DURUM, govde, format="json"), 400, "GECERSIZ_ISTEK")
    assert "durum" in body["hata"]["alanlar"]
    user.refresh_from_db()
    assert user.durum == "cevrimdisi"


def test_bozuk_json_400(iki_kiracili):
    _, client, _, _ = iki_kiracili
    hata(client.post(DURUM, "{durum", content_type="application/json"), 400, "GECERSIZ_ISTEK")


def test_kimliksiz_401(api):
    hata(api.post(DURUM, {"durum": "mesgul"}, format="json"), 401, "KIMLIK_GEREKLI")


def test_olay_yalniz_uyesi_oldugu_kiracilara(iki_kiracili):
    user, client, a, b = iki_kiracili
    MusteriFactory()  # a tenant the operator does not belong to
    client.post(DURUM, {"durum": "cevrimici"}, format="json")
    client.post(DURUM, {"durum": "cevrimdisi"}, format="json")
    assert {o["musteri_id"] for o in cevrimdisi_olaylari()} == {a.id, b.id}
