"""A ticket's language (CONTRACT 19): the widget's when a visitor opens it (the tenant's `dil`,
`otomatik` following the browser), the tenant's for the e-mail channel; its visitor mails are
written in it (eposta). Operators' errors follow the request's language."""
from email.message import EmailMessage

import pytest
from rest_framework.test import APIClient

from eposta import tokenlar
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client
from tenants.tests.test_auth import hata
from tickets.models import Ticket

pytestmark = pytest.mark.django_db
OP = "/api/v1/operator"


def _proje(musteri, dil: str):
    musteri.dil = dil
    musteri.save(update_fields=["dil"])


def _ac(widget, ziyaretci_id="z1") -> dict:
    res = widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": ziyaretci_id, "konu": "Fatura",
                                                       "mesaj": "Faturam görünmüyor."}, format="json")
    assert res.status_code == 201, res.content
    return res.json()["data"]["ticket"]


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), [
    ("otomatik", "en-US,en;q=0.9", "en"),
    ("en", "tr-TR,tr;q=0.9", "en"),
    ("tr", "en-US,en;q=0.9", "tr"),
    ("otomatik", "de-DE", "tr"),
    ("otomatik", None, "tr"),
])
def test_a_ticket_from_the_widget_speaks_the_widgets_language(musteri, proje_dili, tarayici, dil):
    _proje(musteri, proje_dili)
    widget = widget_client(musteri, **({"HTTP_ACCEPT_LANGUAGE": tarayici} if tarayici else {}))
    ticket = _ac(widget)
    assert Ticket.objects.get(pk=ticket["id"]).dil == dil
    # Fixed: a later change of the tenant's language leaves the ticket's as it was.
    _proje(musteri, "tr" if dil == "en" else "en")
    assert Ticket.objects.get(pk=ticket["id"]).dil == dil


@pytest.mark.parametrize(("proje_dili", "dil"), [("en", "en"), ("tr", "tr"), ("otomatik", "tr")])
def test_a_ticket_by_e_mail_speaks_the_tenants_language(musteri, settings, proje_dili, dil):
    settings.INBOUND_EMAIL_SECRET = "gizli"
    _proje(musteri, proje_dili)
    ileti = EmailMessage()
    ileti["From"], ileti["To"], ileti["Subject"] = "ayse@ornek.com", tokenlar.musteri_gelen_adresi(musteri.id), "Fatura"
    ileti["Message-ID"] = f"<dil-{proje_dili}@ornek.com>"
    ileti.set_content("Faturam görünmüyor.")
    res = APIClient().post("/api/v1/inbound/email", data=ileti.as_bytes(), content_type="message/rfc822",
                           HTTP_X_INBOUND_SECRET="gizli", HTTP_ACCEPT_LANGUAGE="en-US" if dil == "tr" else "tr")
    assert res.status_code == 201, res.content
    ticket = Ticket.objects.get(pk=res.json()["data"]["gelen"]["ticket_id"])
    assert (ticket.kanal, ticket.dil) == ("eposta", dil)


@pytest.mark.parametrize(("baslik", "kapali"), [
    ("en-US,en;q=0.9", "A closed ticket cannot be changed."),
    ("tr", "Kapanmış bir talep değiştirilemez."),
])
def test_operator_errors_follow_the_requests_language(musteri, baslik, kapali):
    _proje(musteri, "tr" if baslik.startswith("en") else "en")  # the ticket's language is not the reader's
    ticket = _ac(widget_client(musteri))
    client = APIClient()
    token = giris_yap(client, operator_yap(musteri, rol="yonetici"))
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_ACCEPT_LANGUAGE=baslik)
    res = client.put(f"{OP}/ticket/{ticket['id']}/status", {"durum": "kapandi"}, format="json")
    assert res.status_code == 200, res.content
    yanit = hata(client.post(f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "?"}, format="json"), 409, "DURUM_CAKISMASI")
    assert yanit["hata"]["mesaj"] == kapali
    # The SLA policy's own checks (tickets.sla), field by field.
    yanit = hata(client.put(f"{OP}/tenants/{musteri.id}/sla", {"hedefler": {"cok_acil": {}}, "uyari_dk": -1},
                            format="json"), 400, "GECERSIZ_ISTEK")
    alanlar = yanit["hata"]["alanlar"]
    if baslik.startswith("en"):
        assert alanlar["hedefler.cok_acil"] == "Unknown priority; valid ones: acil, yuksek, normal, dusuk."
        assert alanlar["uyari_dk"].startswith("Must be a whole number from 0 to ")
    else:
        assert alanlar["hedefler.cok_acil"] == "Bilinmeyen öncelik; geçerli olanlar: acil, yuksek, normal, dusuk."
        assert alanlar["uyari_dk"].startswith("0 ile ")
