import json

import pytest
from django.test import Client

from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/yok", "/api/v1/operator/tenants/abc/sessize", "/api/v1/", "/api/v1/auth/login/x",
                                  "/api/v1/yok%0A", "/api/v1/operator/chat/1%0A/message"])
def test_unknown_paths_get_the_envelope(api, path):
    res = api.get(path)
    hata(res, 404, "BULUNAMADI")
    assert res["Content-Type"].startswith("application/json")


def test_wrong_method_gets_405_envelope(api):
    hata(api.get("/api/v1/auth/login"), 405, "YONTEM_DESTEKLENMIYOR")
    hata(api.delete("/api/v1/widget/init"), 405, "YONTEM_DESTEKLENMIYOR")


def test_500_is_an_envelope_without_internals(settings, monkeypatch):
    from tenants.api import views

    def boom(self, request):
        raise RuntimeError("gizli iç ayrıntı")

    monkeypatch.setattr(views.TenantListView, "get", boom)
    from supportdesk.testing.factories import MusteriFactory
    client = Client(raise_request_exception=False)
    from rest_framework.test import APIClient

    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, operator_yap(MusteriFactory()))}")
    res = api.get("/api/v1/operator/tenants")
    body = hata(res, 500, "SUNUCU_HATASI")
    assert "gizli" not in res.content.decode()
    assert body["hata"]["istek_id"] == res["X-Request-ID"]
    assert client  # plain Django client also available for non-API checks


def test_health(api):
    res = api.get("/api/v1/saglik")
    assert res.status_code == 200, res.content
    data = res.json()["data"]
    assert data["veritabani"] == "ok"
    assert data["kuyruk"] in ("ok", "eager")


def test_schema_and_docs_work_offline(api):
    res = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    schema = json.loads(res.content)
    assert schema["openapi"].startswith("3.")
    for path in ["/api/v1/auth/login", "/api/v1/operator/tenants", "/api/v1/operator/tenants/sira",
                 "/api/v1/widget/init"]:
        assert path in schema["paths"], path
    login = schema["paths"]["/api/v1/auth/login"]["post"]
    assert "requestBody" in login and "200" in login["responses"]
    docs = api.get("/api/v1/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


def test_check_deploy_is_clean(monkeypatch):
    import os
    import subprocess
    import sys

    # A configuration that can run across processes (CONTRACT 20: without one, --deploy fails;
    # supportdesk/tests/test_check_deploy.py). Nothing connects to these addresses.
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "k" * 20 + "Zq9!x-" * 10, "ALLOWED_HOSTS": "support.example.com",
           "DJANGO_SETTINGS_MODULE": "supportdesk.settings", "DATABASE_URL": "postgres://supportdesk@127.0.0.1:5432/supportdesk",
           "REDIS_URL": "redis://127.0.0.1:6379/0", "EMAIL_URL": "smtp://127.0.0.1:25", "MEDIA_PAYLASIMLI": "true"}
    out = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                         env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_unknown_portal_page_is_a_product_page_not_a_debug_page(client):
    res = client.get("/portal/olmayan-sayfa")
    assert res.status_code == 404
    html = res.content.decode()
    assert "Sayfa bulunamadı" in html and "portal.css" in html


def test_500_page_outside_the_api_is_html():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Beklenmeyen bir hata" in html


def test_wrong_method_is_405_before_credentials(api, musteri):
    # The method is wrong whoever asks: 405 with or without credentials, and `Allow` names the right one.
    for res in (api.get("/api/v1/operator/tenants/sira"), api.get("/api/v1/auth/logout"),
                api.put("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json")):
        hata(res, 405, "YONTEM_DESTEKLENMIYOR")
        assert "GET" not in res["Allow"].split(", ")
    res = api.get("/api/v1/widget/init", HTTP_X_API_KEY=musteri.api_key)
    hata(res, 405, "YONTEM_DESTEKLENMIYOR")
    assert "POST" in res["Allow"]
    # The right method without credentials is still 401.
    hata(api.put("/api/v1/operator/tenants/sira", {"order": []}, format="json"), 401, "KIMLIK_GEREKLI")
    hata(api.post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json"), 401, "KIMLIK_GEREKLI")


def test_plain_options_answers_in_the_envelope(api):
    res = api.options("/api/v1/auth/login")
    assert res.status_code == 200, res.content
    assert res.json() == {"basarili": True, "data": {}}
    assert "POST" in res["Allow"]


def test_trailing_slash_reaches_the_same_endpoint(api, musteri):
    user = operator_yap(musteri)
    from supportdesk.testing.factories import TEST_SIFRE

    res = api.post("/api/v1/auth/login/", {"email": user.email, "sifre": TEST_SIFRE}, format="json")
    assert res.status_code == 200, res.content
    assert set(res.json()["data"]) == {"token", "token_tipi", "operator"}
    hata(api.post("/api/v1/auth/login/", {"email": user.email, "sifre": "yanlis"}, format="json"), 401, "GECERSIZ_GIRIS")
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {res.json()['data']['token']}")
    assert api.get("/api/v1/operator/tenants/").json()["data"]["musteriler"][0]["id"] == musteri.id
    res = api.put(f"/api/v1/operator/tenants/{musteri.id}/sessize/", {"sessize": True}, format="json")
    assert res.status_code == 200 and res.json()["data"]["musteri"]["sessize_alindi"] is True, res.content
    assert api.get("/api/v1/saglik/").status_code == 200
    assert api.get("/api/v1/schema").status_code == 200
    widget = api.post("/api/v1/widget/init/", {"ziyaretci_id": "z"}, format="json", HTTP_X_API_KEY=musteri.api_key)
    assert widget.status_code == 200, widget.content
    # Only one slash of difference, and only towards a real route: the rest stays a 404 envelope.
    for path in ["/api/v1/auth/login//", "/api/v1/yok/", "/api/v1/operator/tenants/x/sessize/"]:
        res = api.post(path, {}, format="json")
        hata(res, 404, "BULUNAMADI")


def test_401_names_the_expected_scheme(api, musteri):
    res = api.get("/api/v1/operator/tenants", HTTP_AUTHORIZATION="Bearer bozuk.token.degeri")
    hata(res, 401, "GECERSIZ_TOKEN")
    assert res["WWW-Authenticate"].startswith("Bearer")
    res = api.post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json", HTTP_X_API_KEY="pk_yanlis")
    hata(res, 401, "GECERSIZ_API_ANAHTARI")
    assert res["WWW-Authenticate"].startswith("ApiKey")


@pytest.mark.parametrize("govde", ["null", "[]", "[1, 2]", "5", '"metin"', "true"])
@pytest.mark.parametrize("yol", ["/api/v1/auth/login", "/api/v1/widget/init", "/api/v1/widget/ticket/create",
                                 "/api/v1/context/customer-info", "/api/v1/operator/status",
                                 "/api/v1/operator/tenants/sira"])
def test_json_body_that_is_not_an_object_is_400_in_turkish(api, musteri, yol, govde):
    if yol.startswith("/api/v1/operator/"):
        api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, operator_yap(musteri))}")
    else:
        api.credentials(HTTP_X_API_KEY=musteri.api_key)
    yontem = api.put if yol.endswith("/sira") else api.post
    res = yontem(yol, govde, content_type="application/json")
    body = hata(res, 400, "GECERSIZ_ISTEK")
    assert body["hata"]["alanlar"] == {"genel": "İstek gövdesi bir JSON nesnesi olmalı."}


@pytest.mark.parametrize(("method", "path", "extra", "status"), [
    ("post", "/api/v1/schema/", {}, 405), ("delete", "/api/v1/docs/", {}, 405), ("put", "/api/v1/redoc/", {}, 405),
    ("get", "/api/v1/schema/", {"HTTP_ACCEPT": "text/html"}, 406),
])
def test_schema_and_docs_errors_are_envelopes(api, method, path, extra, status):
    res = getattr(api, method)(path, **extra)
    assert res.status_code == status, res.content
    assert res["Content-Type"].startswith("application/json")
    assert res.json()["basarili"] is False


def test_oversized_json_body_is_413_before_it_is_parsed(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    govde = json.dumps({"email": "a@ornek.com", "sifre": "x" * 2000})
    res = api.post("/api/v1/auth/login", govde, content_type="application/json")
    assert hata(res, 413, "DOSYA_COK_BUYUK")["hata"]["mesaj"] == "İstek gövdesi izin verilen boyutu aşıyor."
    # Within the limit the same endpoint reads the body as usual.
    res = api.post("/api/v1/auth/login", json.dumps({"email": "a@ornek.com", "sifre": "x"}), content_type="application/json")
    hata(res, 401, "GECERSIZ_GIRIS")


@pytest.mark.parametrize("yol", ["/api/v1/operator/chats", "/api/v1/widget/campaigns?ziyaretci_id=z",
                                 "/api/v1/widget/kb/categories?ziyaretci_id=z", "/api/v1/saglik"])
def test_an_unknown_format_is_406_like_an_unknown_accept_not_a_404(api, musteri, yol):
    ayrac = "&" if "?" in yol else "?"
    for istek in ({"path": f"{yol}{ayrac}format=xml"}, {"path": yol, "HTTP_ACCEPT": "application/xml"}):
        hata(api.get(**istek, HTTP_X_API_KEY=musteri.api_key), 406, "KABUL_EDILEMEZ")
    hata(api.post("/api/v1/auth/login?format=yaml", {"email": "a@b.c", "sifre": "x"}, format="json"), 406,
         "KABUL_EDILEMEZ")
    # `format=json` (and an empty one) is the one format there is.
    assert api.get(f"{yol}{ayrac}format=json", HTTP_X_API_KEY=musteri.api_key).status_code in (200, 401)
    assert api.get(f"{yol}{ayrac}format=", HTTP_X_API_KEY=musteri.api_key).status_code in (200, 401)


def test_head_answers_like_get_on_widget_and_operator_reads(api, musteri):
    # HEAD is in every GET endpoint's `Allow`: the visitor comes from the query string as for GET.
    from chat.tests.yardimci import baslat, widget_client

    widget = widget_client(musteri)
    o = baslat(widget, "z")
    for yol in ["/api/v1/widget/campaigns?ziyaretci_id=z", "/api/v1/widget/kb/categories?ziyaretci_id=z",
                "/api/v1/widget/ticket/list?ziyaretci_id=z",
                f"/api/v1/widget/chat/messages?ziyaretci_id=z&oturum_id={o['id']}&sonra=0"]:
        get, head = widget.get(yol), widget.head(yol)
        assert get.status_code == head.status_code == 200, (yol, head.content)
        assert head.content == b"" and head["Content-Type"] == get["Content-Type"]
    hata(widget.get("/api/v1/widget/campaigns"), 400, "GECERSIZ_ISTEK")
    res = widget.head("/api/v1/widget/campaigns")
    assert res.status_code == 400 and res.content == b""
