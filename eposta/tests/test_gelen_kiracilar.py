"""One message to the addresses of two tenants (To: one, Cc: the other): the MTA delivers a copy
per address, and each copy belongs to the tenant its delivery address names (CONTRACT 14)."""
import io
import sys
from email.message import EmailMessage

import pytest
from django.core.management import call_command

from eposta import tokenlar
from eposta.models import GelenEposta
from tickets.models import Ticket
from tickets.tests.test_tickets import ac, ok

from .test_gelen import GIZLI, gonder

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _gizli(settings):
    settings.INBOUND_EMAIL_SECRET = GIZLI


def ileti(*, to: str, cc: str, message_id: str = "<iki-firma-0001@ornek.com>") -> bytes:
    mesaj = EmailMessage()
    mesaj["From"], mesaj["To"], mesaj["Cc"] = "Ayşe <ayse@ornek.com>", to, cc
    mesaj["Subject"], mesaj["Message-ID"] = "İki firmaya birden", message_id
    mesaj.set_content("Merhaba, ikinize de yazıyorum.")
    return mesaj.as_bytes()


def kopya(ham: bytes, baslik: str, adres: str) -> bytes:
    # What the receiving MTA does for each recipient: the delivery address on top.
    return f"{baslik}: {adres}\r\n".encode() + ham


def test_one_message_to_two_tenants_opens_a_ticket_in_each(musteri, diger_musteri):
    bir, iki = tokenlar.musteri_gelen_adresi(musteri.id), tokenlar.musteri_gelen_adresi(diger_musteri.id)
    ham = ileti(to=bir, cc=iki)
    ilk = ok(gonder(kopya(ham, "Delivered-To", bir)), 201)["gelen"]
    ikinci = ok(gonder(kopya(ham, "Delivered-To", iki)), 201)["gelen"]
    assert ikinci["yinelenen"] is False and ikinci["sonuc"] == "yeni_ticket"
    assert Ticket.objects.get(pk=ilk["ticket_id"]).musteri_id == musteri.id
    assert Ticket.objects.get(pk=ikinci["ticket_id"]).musteri_id == diger_musteri.id
    # The same copy again is the only duplicate, in its own tenant.
    tekrar = ok(gonder(kopya(ham, "Delivered-To", iki)), 200)["gelen"]
    assert (tekrar["yinelenen"], tekrar["id"]) == (True, ikinci["id"])
    assert sorted(Ticket.objects.values_list("musteri_id", flat=True)) == sorted([musteri.id, diger_musteri.id])
    assert GelenEposta.objects.filter(musteri=diger_musteri).count() == 1


def test_eposta_al_routes_by_x_original_to(musteri, diger_musteri, monkeypatch):
    # Postfix's pipe(8) with flag O adds X-Original-To: the address the copy was sent to.
    bir, iki = tokenlar.musteri_gelen_adresi(musteri.id), tokenlar.musteri_gelen_adresi(diger_musteri.id)
    ham = ileti(to=bir, cc=iki)
    for adres in (iki, bir):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(kopya(ham, "X-Original-To", adres))))
        cikti = io.StringIO()
        call_command("eposta_al", stdout=cikti)
        assert "kaydedildi" in cikti.getvalue()
    assert sorted(Ticket.objects.values_list("musteri_id", flat=True)) == sorted([musteri.id, diger_musteri.id])


def test_a_reply_that_copies_another_tenant_is_a_reply_here_and_a_ticket_there(diger_musteri, widget):
    ticket = Ticket.objects.get(pk=ac(widget, email="ayse@ornek.com")["id"])
    yanit_adresi, iki = tokenlar.ticket_yanit_adresi(ticket.id), tokenlar.musteri_gelen_adresi(diger_musteri.id)
    ham = ileti(to=yanit_adresi, cc=iki, message_id="<yanit-ve-cc-0001@ornek.com>")
    assert ok(gonder(kopya(ham, "Delivered-To", iki)), 201)["gelen"]["sonuc"] == "yeni_ticket"
    veri = ok(gonder(kopya(ham, "Delivered-To", yanit_adresi)), 201)["gelen"]
    assert (veri["sonuc"], veri["ticket_id"]) == ("yanit", ticket.id)
    assert ticket.yanitlar.order_by("-id").first().icerik == "Merhaba, ikinize de yazıyorum."
    assert Ticket.objects.filter(musteri=diger_musteri).count() == 1


def test_without_one_of_our_addresses_on_top_the_first_of_ours_in_to_and_cc_decides(musteri, diger_musteri):
    # A forwarding hop's own Delivered-To (not ours) and a forged one of ours are passed over.
    bir, iki = tokenlar.musteri_gelen_adresi(musteri.id), tokenlar.musteri_gelen_adresi(diger_musteri.id)
    sahte = iki.replace(f"+m{diger_musteri.id}-", f"+m{diger_musteri.id + 1000}-")
    ham = kopya(kopya(ileti(to=bir, cc=iki), "Delivered-To", "destek@ornek.com"), "Delivered-To", sahte)
    veri = ok(gonder(ham), 201)["gelen"]
    assert Ticket.objects.get(pk=veri["ticket_id"]).musteri_id == musteri.id
