"""CONTRACT 16: canned-response variables filled for a chat or a ticket through HTTP
(`GET /operator/canned-responses/{id}/doldur`), and the shared function's rules."""
import pytest
from rest_framework.test import APIClient

from chat.models import HazirYanit
from chat.services import hazir_yanit_doldur
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client

pytestmark = pytest.mark.django_db
API = "/api/v1"
METIN = "Merhaba {ziyaretci_adi} ({ziyaretci_email}), ben {operator_adi}, {firma_adi}. {bilinmeyen} {ZIYARETCI_ADI}"


def ok(res, status=200):
    assert res.status_code == status, res.content
    return res.json()["data"]


def hata(res, status, kod):
    assert res.status_code == status, res.content
    assert res.json()["hata"]["kod"] == kod, res.content


@pytest.fixture
def ortam(musteri):
    op = operator_yap(musteri)
    op.ad = "Mehmet"
    op.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, op)}")
    widget = widget_client(musteri)
    oturum = ok(widget.post(f"{API}/widget/chat/start", {"ziyaretci_id": "z1", "ad": "Ayşe", "email": "a@ornek.com"},
                            format="json"), 201)["oturum"]
    ticket = ok(widget.post(f"{API}/widget/ticket/create", {"ziyaretci_id": "z2", "konu": "K", "mesaj": "M",
                                                             "ad": "Can"}, format="json"), 201)["ticket"]
    yanit = HazirYanit.objects.create(musteri=musteri, kisayol="/selam", baslik="Selam", icerik=METIN)
    return client, oturum, ticket, yanit


def test_sohbet_ve_ticket_icin_doldurur(ortam, musteri):
    client, oturum, ticket, yanit = ortam
    url = f"{API}/operator/canned-responses/{yanit.id}/doldur"
    veri = ok(client.get(url, {"oturum_id": oturum["id"]}))
    assert veri["icerik"] == (f"Merhaba Ayşe (a@ornek.com), ben Mehmet, {musteri.firma_adi}. {{bilinmeyen}} "
                              "{ZIYARETCI_ADI}")
    assert veri["hazir_yanit"]["kisayol"] == "/selam"
    veri = ok(client.get(url, {"ticket_id": ticket["id"]}))
    assert veri["icerik"].startswith("Merhaba Can (), ben Mehmet")


def test_hatalar(ortam, musteri):
    client, oturum, ticket, yanit = ortam
    url = f"{API}/operator/canned-responses/{yanit.id}/doldur"
    for params in ({}, {"oturum_id": oturum["id"], "ticket_id": ticket["id"]}, {"oturum_id": "x"}, {"ticket_id": "0"}):
        hata(client.get(url, params), 400, "GECERSIZ_ISTEK")
    hata(client.get(f"{API}/operator/canned-responses/999999/doldur", {"oturum_id": oturum["id"]}), 404, "BULUNAMADI")
    # Another tenant's canned response, chat or ticket: 404.
    diger = MusteriFactory()
    yabanci_yanit = HazirYanit.objects.create(musteri=diger, kisayol="/x", baslik="X", icerik="{firma_adi}")
    hata(client.get(f"{API}/operator/canned-responses/{yabanci_yanit.id}/doldur", {"oturum_id": oturum["id"]}), 404,
         "BULUNAMADI")
    yabanci = APIClient()
    yabanci.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(yabanci, operator_yap(diger))}")
    hata(yabanci.get(url, {"oturum_id": oturum["id"]}), 404, "BULUNAMADI")


def test_paylasilan_fonksiyon_bir_kez_doldurur():
    assert hazir_yanit_doldur("{ziyaretci_adi} {firma_adi}", {"ziyaretci_adi": "{firma_adi}", "firma_adi": "F"}) == (
        "{firma_adi} F")
    assert hazir_yanit_doldur("{ operator_adi } {operator_adi", {"operator_adi": "O"}) == "{ operator_adi } {operator_adi"
    assert hazir_yanit_doldur("{ziyaretci_email}", {}) == ""
