"""Who owns a chat (CONTRACT 3a, issue 24): an operator's answer to a waiting chat claims it as an
accept does; a colleague stepping into an active chat leaves its operator; a transfer makes the
chat unread for its new operator; the visitor's read position is kept."""
import pytest

from chat.models import Mesaj, Oturum
from tenants.tests.test_auth import hata
from webhooks.models import Olay

from .yardimci import CHATS, W_MESAJLAR, baslat, ok, op_url, operator_istemcisi

pytestmark = pytest.mark.django_db


def _mesajlar(oturum_id) -> list[tuple[str, str]]:
    return list(Mesaj.objects.filter(oturum_id=oturum_id).order_by("id").values_list("gonderen", "icerik"))


def _kuyruk(client) -> list[int]:
    return [o["id"] for o in ok(client.get(CHATS))["oturumlar"]]


def test_bekleyen_sohbete_yanit_onu_kabul_eder_sistem_satiri_once(musteri, widget):
    ben, a = operator_istemcisi(musteri, durum="cevrimici")
    ben.ad = "Ayla"
    ben.save(update_fields=["ad"])
    _, b = operator_istemcisi(musteri)
    o = baslat(widget, "z-1", mesaj="Merhaba")
    arkadaki = baslat(widget, "z-2")
    assert arkadaki["sira_no"] == 2
    olaylar = Olay.objects.count()

    m = ok(a.post(op_url(o["id"], "message"), {"icerik": "Buyrun, dinliyorum."}, format="json"), 201)["mesaj"]

    assert (m["gonderen"], m["operator_id"]) == ("operator", ben.id)
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id) == ("aktif", ben.id) and oturum.kabul_zamani is not None
    # The accept's system line, once, before the reply.
    assert _mesajlar(o["id"]) == [("ziyaretci", "Merhaba"), ("sistem", "Ayla sohbete katıldı."),
                                  ("operator", "Buyrun, dinliyorum.")]
    # It left every queue: the colleague's list, and its accept is refused.
    assert o["id"] not in _kuyruk(b) and o["id"] in _kuyruk(a)
    hata(b.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")
    # The visitor is no longer waiting; the one behind moved up.
    w = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))
    assert w["oturum"]["durum"] == "aktif" and w["sira_no"] is None
    assert ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-2", "oturum_id": arkadaki["id"]}))["sira_no"] == 1
    # Webhooks as an accept has: `chat_atandi` (`kabul`, issue 26).
    assert Olay.objects.count() == olaylar + 1
    assert Olay.objects.filter(olay="chat_atandi").get().veri["neden"] == "kabul"
    # The next answer is an ordinary message: no second system line.
    ok(a.post(op_url(o["id"], "message"), {"icerik": "Bir şey daha"}, format="json"), 201)
    assert [g for g, _ in _mesajlar(o["id"])].count("sistem") == 1


def test_kabul_yarisini_kaybeden_ne_oldugunu_ogrenir(musteri, widget):
    """Issue 39 (the day suite's claim race): the loser's accept usually arrives after the winner's
    commit; it says a colleague took the chat, not only that the chat is not waiting."""
    kazanan, a = operator_istemcisi(musteri)
    _, b = operator_istemcisi(musteri)
    o = baslat(widget, "z-1")
    ok(a.post(op_url(o["id"], "accept")))
    assert hata(b.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")["hata"]["mesaj"] == (
        "Sohbet başka bir temsilci tarafından kabul edildi.")
    # Its own chat accepted again, or a closed one: not waiting, as before.
    assert hata(a.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")["hata"]["mesaj"] == (
        "Sohbet sırada beklemiyor; kabul edilemez.")
    assert Oturum.objects.get(pk=o["id"]).operator_id == kazanan.id


def test_sinirdaki_operatorun_bekleyen_sohbete_yaniti_409_hicbir_sey_yazilmaz(musteri, widget):
    _, a = operator_istemcisi(musteri, max_chat=1)
    ilk = baslat(widget, "z-1")
    ok(a.post(op_url(ilk["id"], "accept")))
    o = baslat(widget, "z-2", mesaj="Selam")
    once = Mesaj.objects.count()
    hata(a.post(op_url(o["id"], "message"), {"icerik": "Merhaba"}, format="json"), 409, "CHAT_LIMITI_DOLU")
    assert Mesaj.objects.count() == once
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id) == ("bekliyor", None)


def test_meslektasin_aktif_sohbetine_yazmak_serbest_sohbet_onda_kalir(musteri, widget):
    sahibi, a = operator_istemcisi(musteri, durum="cevrimici")
    amir, b = operator_istemcisi(musteri, rol="yonetici")
    o = baslat(widget, "z-1")
    ok(a.post(op_url(o["id"], "accept")))
    m = ok(b.post(op_url(o["id"], "message"), {"icerik": "Ben de buradayım."}, format="json"), 201)["mesaj"]
    assert m["operator_id"] == amir.id
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id) == ("aktif", sahibi.id)
    assert [g for g, _ in _mesajlar(o["id"])] == ["sistem", "operator"]  # the accept's line only


def test_yaniti_yazan_ek_bulunamazsa_sohbet_sahiplenilmez(musteri, widget):
    _, a = operator_istemcisi(musteri, durum="cevrimici")
    o = baslat(widget, "z-1")
    hata(a.post(op_url(o["id"], "message"), {"icerik": "Dosya ekte", "ek_id": 10**6}, format="json"), 404, "BULUNAMADI")
    assert Oturum.objects.get(pk=o["id"]).durum == "bekliyor" and Mesaj.objects.count() == 0


def test_aktarilan_sohbet_yeni_operatorunde_okunmamis_sayilir(musteri, widget):
    _, a = operator_istemcisi(musteri)
    hedef, b = operator_istemcisi(musteri)
    o = baslat(widget, "z-1", mesaj="Merhaba")
    ok(a.post(op_url(o["id"], "accept")))
    ok(a.get(op_url(o["id"], "messages")))  # a has read everything
    ok(a.post(op_url(o["id"], "message"), {"icerik": "Sizi meslektaşıma aktarıyorum."}, format="json"), 201)
    aktarilan = ok(a.post(op_url(o["id"], "transfer"), {"operator_id": hedef.id}, format="json"))["oturum"]
    assert aktarilan["okunmamis"] >= 1
    [satir] = ok(b.get(CHATS))["oturumlar"]
    assert satir["id"] == o["id"] and satir["okunmamis"] >= 1
    ok(b.get(op_url(o["id"], "messages")))  # reading it clears it
    assert ok(b.get(CHATS))["oturumlar"][0]["okunmamis"] == 0
    # Back to the queue is not a hand-over to anyone: the count is left as it was.
    assert ok(b.post(op_url(o["id"], "transfer"), {"operator_id": None}, format="json"))["oturum"]["okunmamis"] == 0


def test_sade_operator_meslektasin_aktif_sohbetine_giremez_hicbir_sey_degismez(musteri, widget):
    # CONTRACT 3a (wave 4): stepping in (message, close, transfer) is for `yonetici` and `sahip`.
    sahibi, a = operator_istemcisi(musteri, durum="cevrimici")
    _, b = operator_istemcisi(musteri)
    ucuncu, _c = operator_istemcisi(musteri)
    o = baslat(widget, "z-1", mesaj="Merhaba")
    ok(a.post(op_url(o["id"], "accept")))
    once = _mesajlar(o["id"])
    hata(b.post(op_url(o["id"], "message"), {"icerik": "Ben de buradayım."}, format="json"), 409, "DURUM_CAKISMASI")
    hata(b.post(op_url(o["id"], "close")), 409, "DURUM_CAKISMASI")
    hata(b.post(op_url(o["id"], "transfer"), {"operator_id": ucuncu.id}, format="json"), 409, "DURUM_CAKISMASI")
    hata(b.post(op_url(o["id"], "transfer"), {"operator_id": None}, format="json"), 409, "DURUM_CAKISMASI")
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id) == ("aktif", sahibi.id)
    assert _mesajlar(o["id"]) == once
    # A note is no stepping in: allowed (CONTRACT 16).
    ok(b.post(op_url(o["id"], "message"), {"icerik": "Not: müşteri VIP.", "ozel": True}, format="json"), 201)
    # The chat's own operator still moves it.
    ok(a.post(op_url(o["id"], "message"), {"icerik": "Buyrun."}, format="json"), 201)
    ok(a.post(op_url(o["id"], "close")))


@pytest.mark.parametrize("rol", ["yonetici", "sahip"])
def test_yonetici_ve_sahip_araya_girer_kapatir_aktarir(musteri, widget, rol):
    sahibi, a = operator_istemcisi(musteri, durum="cevrimici")
    _, amir = operator_istemcisi(musteri, rol=rol)
    hedef, _h = operator_istemcisi(musteri)
    o = baslat(widget, "z-1")
    ok(a.post(op_url(o["id"], "accept")))
    ok(amir.post(op_url(o["id"], "message"), {"icerik": "Ben de buradayım."}, format="json"), 201)
    aktarilan = ok(amir.post(op_url(o["id"], "transfer"), {"operator_id": hedef.id}, format="json"))["oturum"]
    assert aktarilan["operator_id"] == hedef.id
    assert ok(amir.post(op_url(o["id"], "close")))["oturum"]["durum"] == "kapandi"
