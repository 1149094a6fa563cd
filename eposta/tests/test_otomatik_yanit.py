"""Mail sent by a machine (an out-of-office reply, a bounce, bulk mail) neither reopens a solved
ticket, nor becomes the visitor's reply, nor opens a ticket; the endpoint takes it (200, so the
mail server neither retries nor bounces) and says it was ignored."""
import io
import sys

import pytest
from django.core.management import call_command

from eposta import tokenlar
from eposta.models import GelenEposta
from tickets.models import Ticket, TicketYanit
from tickets.tests.test_tickets import ac, ok

from .test_gelen import GIZLI, eml, gonder

pytestmark = pytest.mark.django_db
OTOMATIK = [
    ("Auto-Submitted", "auto-replied"),  # RFC 3834: anything but "no"
    ("Auto-Submitted", "auto-generated"),
    ("Auto-Submitted", "auto-notified; owner-email=\"ayse@ornek.com\""),
    ("Precedence", "bulk"),
    ("Precedence", "junk"),
    ("Precedence", "list"),
    ("Precedence", "auto_reply"),
    ("X-Precedence", "bulk"),
    ("X-Autoreply", "yes"),
    ("X-Autorespond", "Out of office"),
    ("X-Auto-Response-Suppress", "All"),  # Exchange's out-of-office replies
    ("X-Loop", "yes"),
]


@pytest.fixture(autouse=True)
def _gizli(settings):
    settings.INBOUND_EMAIL_SECRET = GIZLI


@pytest.fixture
def cozulmus(widget, operator_client):
    t = ac(widget, email="ayse.yilmaz@gmail.com")
    ok(operator_client.put(f"/api/v1/operator/ticket/{t['id']}/status", {"durum": "cozuldu"}, format="json"))
    return Ticket.objects.get(pk=t["id"])


def isaretli(ad: str, adres: str, baslik: str, deger: str) -> bytes:
    return f"{baslik}: {deger}\n".encode() + eml(ad, adres)


def _durum():
    return (GelenEposta.objects.count(), TicketYanit.objects.count(), Ticket.objects.count(),
            sorted(Ticket.objects.values_list("durum", flat=True)))


@pytest.mark.parametrize(("baslik", "deger"), OTOMATIK, ids=[f"{b}:{d.split(';')[0]}" for b, d in OTOMATIK])
def test_an_automatic_reply_neither_reopens_nor_opens_a_ticket(cozulmus, musteri, baslik, deger):
    once = _durum()
    res = gonder(isaretli("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(cozulmus.id), baslik, deger))
    assert ok(res, 200)["gelen"] == {"id": None, "sonuc": "yok_sayildi", "ticket_id": None, "yinelenen": False}
    res = gonder(isaretli("turkce_konu.eml", tokenlar.musteri_gelen_adresi(musteri.id), baslik, deger))
    assert ok(res, 200)["gelen"]["sonuc"] == "yok_sayildi"
    assert _durum() == once
    cozulmus.refresh_from_db()
    assert cozulmus.durum == "cozuldu"


def test_a_bounce_or_read_receipt_is_ignored(cozulmus):
    ham = (f"From: Mail Delivery System <MAILER-DAEMON@ornek.com>\r\nTo: {tokenlar.ticket_yanit_adresi(cozulmus.id)}\r\n"
           "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <iade-0001@ornek.com>\r\n"
           "Content-Type: multipart/report; report-type=delivery-status; boundary=s\r\n\r\n"
           "--s\r\nContent-Type: text/plain\r\n\r\nThis is the mail system.\r\n--s--\r\n").encode()
    assert ok(gonder(ham), 200)["gelen"]["sonuc"] == "yok_sayildi"
    cozulmus.refresh_from_db()
    assert cozulmus.durum == "cozuldu" and not GelenEposta.objects.exists()


def test_auto_submitted_no_is_a_person(cozulmus):
    res = gonder(isaretli("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(cozulmus.id), "Auto-Submitted", "no"))
    assert ok(res, 201)["gelen"]["sonuc"] == "yanit"
    cozulmus.refresh_from_db()
    assert cozulmus.durum == "acik"


def test_eposta_al_takes_an_automatic_reply_and_stores_nothing(musteri, monkeypatch):
    ham = isaretli("turkce_konu.eml", tokenlar.musteri_gelen_adresi(musteri.id), "Auto-Submitted", "auto-replied")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ham)))
    cikti = io.StringIO()
    call_command("eposta_al", stdout=cikti)  # exit 0: the MTA neither retries nor bounces it
    assert "yok sayıldı" in cikti.getvalue()
    assert not Ticket.objects.exists() and not GelenEposta.objects.exists()
