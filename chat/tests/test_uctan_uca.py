"""Issue 4, must show: a whole conversation, with its webhook events received by a real receiver."""
import pytest

from supportdesk.testing.fixtures import operator_yap
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.teslimat import teslimatlari_simdi_gonder

from .yardimci import CHATS, START, W_MESAJ, W_MESAJLAR, W_PUAN, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def test_butun_sohbet_baslat_kuyruk_kabul_mesaj_aktar_kapat_puan(musteri, diger_musteri, webhook_alici):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
    widget = widget_client(musteri)
    a_user, a = operator_istemcisi(musteri, durum="cevrimici")  # online: the visitor waits for someone
    b_user, b = operator_istemcisi(musteri)
    _, yabanci = operator_istemcisi(diger_musteri)
    operator_yap(musteri, diger_musteri)  # a member of both, idle

    # start -> in the queue of the tenant's operators (with musteri_id), not of another tenant's
    data = ok(widget.post(START, {"ziyaretci_id": "v-42", "ad": "Ayşe Yılmaz", "email": "ayse@example.com",
                                  "mesaj": "Faturamı bulamıyorum."}, format="json"), 201)
    oturum_id = data["oturum"]["id"]
    assert data["sira_no"] == 1
    [kuyrukta] = ok(a.get(CHATS))["oturumlar"]
    assert (kuyrukta["id"], kuyrukta["musteri_id"], kuyrukta["durum"]) == (oturum_id, musteri.id, "bekliyor")
    assert ok(yabanci.get(CHATS))["oturumlar"] == []

    # accept -> messages both ways, polled with `sonra`
    assert ok(a.post(op_url(oturum_id, "accept")))["oturum"]["operator_id"] == a_user.id
    ilk = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "v-42", "oturum_id": oturum_id}))
    assert ilk["oturum"]["durum"] == "aktif" and ilk["sira_no"] is None
    son = ilk["mesajlar"][-1]["id"]
    ok(a.post(op_url(oturum_id, "message"), {"icerik": "Merhaba Ayşe Hanım, hemen bakıyorum."}, format="json"), 201)
    yeni = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "v-42", "oturum_id": oturum_id, "sonra": son}))["mesajlar"]
    assert [(m["gonderen"], m["operator_id"], m["icerik"]) for m in yeni] == [
        ("operator", a_user.id, "Merhaba Ayşe Hanım, hemen bakıyorum.")]
    son = yeni[-1]["id"]
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "v-42", "oturum_id": oturum_id, "icerik": "Teşekkürler."}, format="json"), 201)
    yeni = ok(a.get(op_url(oturum_id, "messages"), {"sonra": son}))["mesajlar"]
    assert [(m["gonderen"], m["icerik"]) for m in yeni] == [("ziyaretci", "Teşekkürler.")]

    # transfer -> the new operator answers -> close -> rate
    assert ok(a.post(op_url(oturum_id, "transfer"), {"operator_id": b_user.id}, format="json"))["oturum"]["operator_id"] \
        == b_user.id
    assert [o["id"] for o in ok(b.get(CHATS))["oturumlar"]] == [oturum_id]
    assert ok(a.get(CHATS))["oturumlar"] == []
    ok(b.post(op_url(oturum_id, "message"), {"icerik": "Faturanız e-postanızda."}, format="json"), 201)
    kapandi = ok(b.post(op_url(oturum_id, "close")))["oturum"]
    assert (kapandi["durum"], kapandi["kapatan"]) == ("kapandi", "operator")
    puan = ok(widget.post(W_PUAN, {"ziyaretci_id": "v-42", "oturum_id": oturum_id, "puan": 5, "yorum": "Harika"},
                          format="json"))["oturum"]
    assert (puan["puan"], puan["puan_yorumu"]) == (5, "Harika")
    gecmis = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "v-42", "oturum_id": oturum_id}))["mesajlar"]
    assert [m["gonderen"] for m in gecmis] == ["ziyaretci", "sistem", "operator", "ziyaretci", "sistem", "operator",
                                               "sistem"]

    # the three events reach a real HTTP receiver with the right `veri`
    teslimatlari_simdi_gonder()
    istekler = webhook_alici.bekle(5, timeout=15)  # and `chat_atandi` for the accept and the transfer
    olaylar = {i.headers["x-webhook-olay"]: i.json() for i in istekler}
    assert olaylar["yeni_chat"]["veri"] == {"oturum_id": oturum_id, "musteri_id": musteri.id,
                                            "ziyaretci_adi": "Ayşe Yılmaz", "kanal": "widget", "etiketler": [],
                                            "ekip_id": None}
    kapanis = olaylar["chat_kapandi"]["veri"]
    assert {k: kapanis[k] for k in ("oturum_id", "musteri_id", "kapatan")} == {
        "oturum_id": oturum_id, "musteri_id": musteri.id, "kapatan": "operator"}
    assert isinstance(kapanis["sure_saniye"], int) and kapanis["sure_saniye"] >= 0
    assert olaylar["memnuniyet_puan"]["veri"] == {"oturum_id": oturum_id, "musteri_id": musteri.id, "puan": 5,
                                                  "yorum": "Harika", "etiketler": [], "ekip_id": None}
    assert all(o["olay"] in olaylar and o["zaman"] for o in olaylar.values())
    assert webhook_alici.sessiz_mi(0.3)
