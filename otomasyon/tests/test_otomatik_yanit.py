"""CONTRACT 23: a rule's `hazir_yanit` is sent from `sistem`'s name "Otomatik yanıt" and never claims
a chat: on chats (the operator's and the widget's messages, the transcript mail, the chat made a
ticket) and on tickets (the reply's shape), with no `chat_atandi` webhook. The socket frame:
test_otomatik_yanit_soket.py."""
import pytest

from chat.models import HazirYanit
from eposta.models import GidenEposta
from webhooks.models import Olay

from .yardimci import START, W_MESAJ, W_TICKET, istemci, kural_yaz, ok, operator_yap

pytestmark = pytest.mark.django_db
W_MESAJLAR = "/api/v1/widget/chat/messages"


@pytest.fixture
def yc(musteri):
    return istemci(operator_yap(musteri, rol="yonetici"))


@pytest.fixture
def hazir(musteri):
    return HazirYanit.objects.create(musteri=musteri, kisayol="/kargo", baslik="Kargo",
                                     icerik="Merhaba {ziyaretci_adi}, {operator_adi} burada: kargonuz yolda.")


def _kural(yc, musteri, hazir, olay="ziyaretci_mesaji"):
    return kural_yaz(yc, musteri.id, olay=olay, kosullar=[{"alan": "metin", "islem": "icerir", "deger": "kargo"}],
                     eylemler=[{"tur": "hazir_yanit", "hazir_yanit_id": hazir.id}])


BEKLENEN = "Merhaba Ayşe, Otomatik yanıt burada: kargonuz yolda."


def test_a_chat_auto_reply_is_from_otomatik_yanit_in_every_view_and_claims_nothing(musteri, widget, yc, hazir, nobetci):
    _kural(yc, musteri, hazir)
    o = ok(widget.post(START, {"ziyaretci_id": "z1", "ad": "Ayşe", "email": "ayse@ornek.com"}, format="json"),
           201)["oturum"]
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z1", "oturum_id": o["id"], "icerik": "Kargom nerede?"}, format="json"), 201)

    gorulen = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z1", "oturum_id": o["id"]}))["mesajlar"]
    oto = gorulen[-1]
    assert (oto["gonderen"], oto["operator_id"], oto["operator_adi"], oto["icerik"]) == (
        "sistem", None, "Otomatik yanıt", BEKLENEN)
    op = ok(yc.get(f"/api/v1/operator/chat/{o['id']}/messages"))
    assert op["mesajlar"][-1] == oto
    assert (op["oturum"]["durum"], op["oturum"]["operator_id"]) == ("bekliyor", None)  # never claimed
    assert not Olay.objects.filter(olay="chat_atandi").exists()

    # Other `sistem` lines keep no name: the accept's "… sohbete katıldı." line.
    ok(yc.post(f"/api/v1/operator/chat/{o['id']}/accept"))
    katildi = ok(yc.get(f"/api/v1/operator/chat/{o['id']}/messages"))["mesajlar"][-1]
    assert katildi["gonderen"] == "sistem" and katildi["operator_adi"] is None

    # The chat made a ticket: its transcript names the reply as the visitor saw it.
    ticket = ok(yc.post(f"/api/v1/operator/chat/{o['id']}/ticket", {"konu": "Kargo"}, format="json"), 201)["ticket"]
    ilk = ok(yc.get(f"/api/v1/operator/ticket/{ticket['id']}"))["ticket"]["yanitlar"][0]["icerik"]
    assert f"Otomatik yanıt: {BEKLENEN}" in ilk
    assert "sohbete katıldı" not in ilk  # other `sistem` lines stay out

    # The transcript mail, likewise.
    ok(widget.post("/api/v1/widget/chat/end", {"ziyaretci_id": "z1", "oturum_id": o["id"]}, format="json"))
    ok(widget.post("/api/v1/widget/chat/transcript", {"ziyaretci_id": "z1", "oturum_id": o["id"]}, format="json"), 201)
    dokum = GidenEposta.objects.get(tur=GidenEposta.Tur.SOHBET_DOKUMU)
    assert f"] Otomatik yanıt: {BEKLENEN}" in dokum.metin
    assert "] Sistem: " in dokum.metin  # the accept's and the close's lines: still "Sistem"


def test_an_english_console_reads_the_name_in_english(musteri, widget, hazir, nobetci):
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    _kural(yc, musteri, hazir)
    o = ok(widget.post(START, {"ziyaretci_id": "z1", "ad": "Ayşe"}, format="json"), 201)["oturum"]
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z1", "oturum_id": o["id"], "icerik": "kargo?"}, format="json"), 201)
    son = ok(yc.get(f"/api/v1/operator/chat/{o['id']}/messages", HTTP_ACCEPT_LANGUAGE="en"))["mesajlar"][-1]
    assert son["operator_adi"] == "Automatic reply"


def test_a_ticket_auto_reply_is_from_otomatik_yanit(musteri, widget, yc, hazir):
    _kural(yc, musteri, hazir, olay="ticket_olusturuldu")
    t = ok(widget.post(W_TICKET, {"ziyaretci_id": "z1", "konu": "Kargo", "mesaj": "Nerede?", "ad": "Ayşe",
                                  "email": "ayse@ornek.com"}, format="json"), 201)["ticket"]
    detay = ok(yc.get(f"/api/v1/operator/ticket/{t['id']}"))["ticket"]
    oto = detay["yanitlar"][-1]
    assert (oto["gonderen"], oto["operator_id"], oto["operator_adi"], oto["icerik"]) == (
        "operator", None, "Otomatik yanıt", BEKLENEN)
    assert detay["operator_id"] is None and detay["durum"] == "acik"  # claimed by nobody, status as it was
    gorulen = ok(widget.get(f"/api/v1/widget/ticket/{t['id']}", {"ziyaretci_id": "z1"}))["ticket"]["yanitlar"][-1]
    assert (gorulen["operator_adi"], gorulen["icerik"]) == ("Otomatik yanıt", BEKLENEN)
