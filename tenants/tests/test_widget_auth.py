import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import widget_client
from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"


def init(client, **headers):
    return client.post(INIT, {"ziyaretci_id": "z-1"}, format="json", **headers)


def test_init_returns_display_settings(widget, musteri):
    res = init(widget)
    assert res.status_code == 200, res.content
    data = res.json()["data"]
    assert data["firma_adi"] == musteri.firma_adi
    assert data["renk_primary"] == musteri.renk_primary
    assert data["logo_url"] == ""
    assert data["oturum"] is None
    assert "api_secret" not in res.content.decode() and musteri.api_secret not in res.content.decode()


@pytest.mark.parametrize("body", [{}, {"ziyaretci_id": ""}, {"ziyaretci_id": 5}, {"ziyaretci_id": "x" * 129},
                                  {"ziyaretci_id": None}])
def test_init_needs_visitor_id(widget, body):
    hata(widget.post(INIT, body, format="json"), 400, "GECERSIZ_ISTEK")


def test_missing_or_wrong_key(api, musteri):
    hata(api.post(INIT, {"ziyaretci_id": "z"}, format="json"), 401, "KIMLIK_GEREKLI")
    hata(api.post(INIT, {"ziyaretci_id": "z"}, format="json", HTTP_X_API_KEY="pk_yanlis"), 401, "GECERSIZ_API_ANAHTARI")
    musteri.aktif = False
    musteri.save()
    hata(init(widget_client(musteri)), 401, "GECERSIZ_API_ANAHTARI")


def test_rotated_key_stops_working(musteri):
    from tenants.services import musteri_anahtar_yenile

    old = widget_client(musteri)
    musteri_anahtar_yenile(musteri=musteri, hangisi="api_key")
    hata(init(old), 401, "GECERSIZ_API_ANAHTARI")
    assert init(widget_client(musteri)).status_code == 200


def test_one_tenants_key_reads_only_its_own_tenant(musteri):
    other = MusteriFactory(firma_adi="Öteki")
    assert init(widget_client(other)).json()["data"]["firma_adi"] == "Öteki"
    assert init(widget_client(musteri)).json()["data"]["firma_adi"] == musteri.firma_adi


def test_empty_whitelist_accepts_any_origin_and_none(widget):
    assert init(widget).status_code == 200
    assert init(widget, HTTP_ORIGIN="https://herhangi.example").status_code == 200
    assert init(widget, HTTP_ORIGIN="garbage").status_code == 200


@pytest.fixture
def kisitli(musteri):
    musteri.izinli_originler = ["https://shop.example.com", "http://localhost:8080"]
    musteri.save()
    return widget_client(musteri)


@pytest.mark.parametrize("headers", [
    {"HTTP_ORIGIN": "https://shop.example.com"},
    {"HTTP_ORIGIN": "https://SHOP.Example.COM"},
    {"HTTP_ORIGIN": "https://shop.example.com:443"},
    {"HTTP_ORIGIN": "http://localhost:8080"},
    {"HTTP_REFERER": "https://shop.example.com/sepet?x=1#y"},
    {"HTTP_REFERER": "http://localhost:8080/"},
])
def test_whitelist_accepts_exact_matches(kisitli, headers):
    assert init(kisitli, **headers).status_code == 200


@pytest.mark.parametrize("headers", [
    {},
    {"HTTP_ORIGIN": "http://shop.example.com"},
    {"HTTP_ORIGIN": "https://shop.example.com:8443"},
    {"HTTP_ORIGIN": "http://localhost:8081"},
    {"HTTP_ORIGIN": "http://localhost"},
    {"HTTP_ORIGIN": "https://www.shop.example.com"},
    {"HTTP_ORIGIN": "https://shop.example.com.evil.io"},
    {"HTTP_ORIGIN": "https://evilshop.example.com"},
    {"HTTP_ORIGIN": "https://example.com"},
    {"HTTP_ORIGIN": "null"},
    {"HTTP_ORIGIN": "not a url"},
    {"HTTP_ORIGIN": "https://shop.example.com@evil.io"},
    {"HTTP_ORIGIN": "https://"},
    {"HTTP_ORIGIN": "https://shop.example.com:99999"},
    {"HTTP_REFERER": "https://shop.example.com.evil.io/x"},
    {"HTTP_REFERER": "ftp://shop.example.com/"},
    # Origin wins over Referer when both are sent.
    {"HTTP_ORIGIN": "https://evil.io", "HTTP_REFERER": "https://shop.example.com/"},
])
def test_whitelist_refuses(kisitli, headers):
    hata(init(kisitli, **headers), 403, "ORIGIN_IZINSIZ")


def test_cors_preflight_allows_api_key_header(api):
    res = api.options(INIT, HTTP_ORIGIN="https://shop.example.com", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
                      HTTP_ACCESS_CONTROL_REQUEST_HEADERS="x-api-key, content-type")
    assert res.status_code == 200
    assert res["Access-Control-Allow-Origin"] in ("*", "https://shop.example.com")
    assert "x-api-key" in res["Access-Control-Allow-Headers"].lower()


def test_widget_rate_limit(widget, settings):
    settings.WIDGET_RATE_LIMIT = "2/min"
    assert init(widget).status_code == 200
    assert init(widget).status_code == 200
    res = init(widget)
    hata(res, 429, "LIMIT_ASILDI")
    assert int(res["Retry-After"]) >= 1
