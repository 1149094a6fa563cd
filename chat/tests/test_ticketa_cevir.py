"""An operator turns a chat into a ticket (CONTRACT 24, issue 43): `POST /operator/chat/{id}/ticket`
answers 201 with the ticket, its first reply the transcript as the visitor saw it (no notes), linked
both ways; the chat stays as it is; a second conversion is 409 `ZATEN_TICKETA_DONUSTU`."""
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from chat.models import Oturum
from tickets.models import Ticket

from .yardimci import CHATS, W_MESAJ, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def _hata(res, status: int, kod: str) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == kod, body
    return body["hata"]


@pytest.fixture
def sohbet(musteri):
    """An active chat of `musteri` with a visitor message, an operator reply and an internal note."""
    user, op = operator_istemcisi(musteri)
    w = widget_client(musteri)
    o = baslat(w, ad="Ayşe", email="ayse@ornek.com", mesaj="Faturam iki kez kesildi")
    ok(op.post(op_url(o["id"], "message"), {"icerik": "Hemen bakıyorum."}, format="json"), 201)
    ok(op.post(op_url(o["id"], "message"), {"icerik": "GİZLİ NOT: müşteri sinirli", "ozel": True}, format="json"), 201)
    ok(w.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "Teşekkürler"}, format="json"), 201)
    return user, op, o


def test_the_ticket_holds_the_transcript_without_notes_and_links_both_ways(musteri, sohbet):
    _, op, o = sohbet
    onceki = Oturum.objects.get(pk=o["id"])
    data = ok(op.post(op_url(o["id"], "ticket"), {"konu": "Çift fatura", "oncelik": "yuksek"}, format="json"), 201)
    t = data["ticket"]
    assert (t["konu"], t["oncelik"], t["durum"], t["musteri_id"], t["ziyaretci_id"]) == (
        "Çift fatura", "yuksek", "acik", musteri.id, "z-1")
    assert t["oturum_id"] == o["id"] and (t["ad"], t["email"]) == ("Ayşe", "ayse@ornek.com")
    ilk = t["yanitlar"][0]
    assert "Faturam iki kez kesildi" in ilk["icerik"] and "Hemen bakıyorum." in ilk["icerik"]
    assert "Teşekkürler" in ilk["icerik"] and "GİZLİ NOT" not in ilk["icerik"]
    assert len(t["yanitlar"]) == 1 and "sla" in t
    # The chat stays as it is (state, operator, messages), and its operator shape names the ticket.
    sonra = Oturum.objects.get(pk=o["id"])
    assert (sonra.durum, sonra.operator_id, sonra.bitis_zamani) == (onceki.durum, onceki.operator_id, None)
    assert sonra.mesajlar.count() == onceki.mesajlar.count()
    liste = ok(op.get(CHATS))["oturumlar"]
    assert [x["ticket_id"] for x in liste if x["id"] == o["id"]] == [t["id"]]
    mesajlar = ok(op.get(op_url(o["id"], "messages")))
    assert mesajlar["oturum"]["ticket_id"] == t["id"]
    # The ticket's own shapes carry its chat.
    detay = ok(op.get(f"/api/v1/operator/ticket/{t['id']}"))["ticket"]
    assert detay["oturum_id"] == o["id"]
    widget = ok(widget_client(musteri).get(f"/api/v1/widget/ticket/{t['id']}", {"ziyaretci_id": "z-1"}))["ticket"]
    assert widget["oturum_id"] == o["id"]


def test_a_second_conversion_is_a_clear_409_and_makes_nothing(sohbet):
    _, op, o = sohbet
    ok(op.post(op_url(o["id"], "ticket"), {"konu": "Bir"}, format="json"), 201)
    _hata(op.post(op_url(o["id"], "ticket"), {"konu": "İki"}, format="json"), 409, "ZATEN_TICKETA_DONUSTU")
    assert Ticket.objects.filter(oturum_id=o["id"]).count() == 1


def test_a_closed_chat_may_be_converted_and_stays_closed(musteri, sohbet):
    _, op, o = sohbet
    ok(op.post(op_url(o["id"], "close")))
    t = ok(op.post(op_url(o["id"], "ticket"), {"konu": "Sonradan"}, format="json"), 201)["ticket"]
    assert t["oncelik"] == "normal" and Oturum.objects.get(pk=o["id"]).durum == "kapandi"


def test_a_plain_colleague_may_convert_another_operator_s_chat(musteri, sohbet):
    # CONTRACT 3a restricts messages, closes and transfers of a colleague's chat; the conversion
    # writes nothing to the chat, so any member of its tenant may make it.
    _, baska = operator_istemcisi(musteri)
    _, _, o = sohbet
    t = ok(baska.post(op_url(o["id"], "ticket"), {"konu": "Meslektaştan"}, format="json"), 201)["ticket"]
    assert t["oturum_id"] == o["id"]


def test_another_tenant_s_operator_gets_404_and_nothing_is_made(diger_musteri, sohbet):
    _, yabanci = operator_istemcisi(diger_musteri)
    _, _, o = sohbet
    _hata(yabanci.post(op_url(o["id"], "ticket"), {"konu": "Sızma"}, format="json"), 404, "BULUNAMADI")
    _hata(yabanci.post(op_url(987654321, "ticket"), {"konu": "Yok"}, format="json"), 404, "BULUNAMADI")
    assert not Ticket.objects.exists()


@pytest.mark.parametrize("govde, alan", [
    ({}, "konu"), ({"konu": ""}, "konu"), ({"konu": "x" * 201}, "konu"), ({"konu": 5}, "konu"),
    ({"konu": "Tamam", "oncelik": "cok_acil"}, "oncelik"),
])
def test_bad_bodies_are_400_with_the_field(sohbet, govde, alan):
    _, op, o = sohbet
    hata = _hata(op.post(op_url(o["id"], "ticket"), govde, format="json"), 400, "GECERSIZ_ISTEK")
    assert alan in hata["alanlar"]
    assert not Ticket.objects.exists()


def test_malformed_json_and_no_token(sohbet):
    _, op, o = sohbet
    _hata(op.post(op_url(o["id"], "ticket"), "{", content_type="application/json"), 400, "GECERSIZ_ISTEK")
    _hata(APIClient().post(op_url(o["id"], "ticket"), {"konu": "x"}, format="json"), 401, "KIMLIK_GEREKLI")


@pytest.mark.django_db(transaction=True)
def test_two_conversions_at_once_make_one_ticket(musteri):
    _, op1 = operator_istemcisi(musteri)
    _, op2 = operator_istemcisi(musteri)
    o = baslat(widget_client(musteri), mesaj="Merhaba")
    engel = threading.Barrier(2)
    sonuclar = []

    def donustur(op):
        try:
            engel.wait()
            sonuclar.append(op.post(op_url(o["id"], "ticket"), {"konu": "Yarış"}, format="json").status_code)
        finally:
            connection.close()

    isler = [threading.Thread(target=donustur, args=(c,)) for c in (op1, op2)]
    for i in isler:
        i.start()
    for i in isler:
        i.join()
    assert sorted(sonuclar) == [201, 409]
    assert Ticket.objects.filter(oturum_id=o["id"]).count() == 1
