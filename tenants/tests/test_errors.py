import json

import pytest
from django.test import Client

from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/yok", "/api/v1/operator/tenants/abc/sessize", "/api/v1/", "/api/v1/auth/login/x"])
def test_unknown_paths_get_the_envelope(api, path):
    res = api.get(path)
    hata(res, 404, "BULUNAMADI")
    assert res["Content-Type"].startswith("application/json")


def test_wrong_method_gets_405_envelope(api):
    hata(api.get("/api/v1/auth/login"), 405, "YONTEM_DESTEKLENMIYOR")
    hata(api.delete("/api/v1/widget/init"), 401, "KIMLIK_GEREKLI")


def test_500_is_an_envelope_without_internals(settings, monkeypatch):
    from tenants.api import views

    def boom(self, request):
        raise RuntimeError("gizli iç ayrıntı")

    monkeypatch.setattr(views.TenantListView, "get", boom)
    from supportdesk.testing.factories import MusteriFactory
    from supportdesk.testing.fixtures import giris_yap, operator_yap

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

    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "k" * 20 + "Zq9!x-" * 10, "ALLOWED_HOSTS": "support.example.com",
           "DJANGO_SETTINGS_MODULE": "supportdesk.settings"}
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
