"""Only the middlewares an API path needs (supportdesk.core.middleware.SayfaAraKatmanlari)."""
import pytest
from django.test import Client

from supportdesk.testing.fixtures import widget_client

pytestmark = pytest.mark.django_db


def test_api_answers_skip_the_page_middlewares(musteri):
    res = widget_client(musteri).post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json")
    assert res.status_code == 200
    # No session was opened (SessionMiddleware would add Vary: Cookie), framing still refused.
    assert "Cookie" not in res.get("Vary", "") and res["X-Frame-Options"] == "DENY"
    assert res["X-Request-ID"]


def test_pages_keep_sessions_csrf_and_messages():
    client = Client(enforce_csrf_checks=True)
    sayfa = client.get("/portal/giris")
    assert sayfa.status_code == 200 and "csrftoken" in sayfa.cookies
    # A form post without the CSRF token is refused by the page chain's CSRF check.
    assert client.post("/portal/giris", {"email": "a@b.c", "sifre": "x"}).status_code == 403
