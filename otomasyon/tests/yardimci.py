"""Helpers of the automation tests: a tenant with an admin and an operator, labels, rules by HTTP."""
from rest_framework.test import APIClient

from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client  # noqa: F401 (re-exported)
from tenants.etiketler import etiket_olustur
from tenants.models import Etiket

START = "/api/v1/widget/chat/start"
W_MESAJ = "/api/v1/widget/chat/message"
W_TICKET = "/api/v1/widget/ticket/create"


def kurallar_url(musteri_id: int) -> str:
    return f"/api/v1/operator/tenants/{musteri_id}/kurallar"


def makrolar_url(musteri_id: int) -> str:
    return f"/api/v1/operator/tenants/{musteri_id}/makrolar"


def istemci(kullanici) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, kullanici)}")
    return client


def ok(res, status: int = 200) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is True, body
    return body["data"]


def hata(res, status: int, kod: str) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == kod, body
    return body["hata"]


def etiket(musteri, ad: str) -> Etiket:
    return etiket_olustur(musteri_id=musteri.id, ad=ad, renk=None, kullanici_id=None, ip=None)


def kural_yaz(client, musteri_id: int, **govde) -> dict:
    return ok(client.post(kurallar_url(musteri_id), {"ad": "Kural", "kosullar": [], **govde}, format="json"), 201)["kural"]
