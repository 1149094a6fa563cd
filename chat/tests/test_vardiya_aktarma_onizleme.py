"""Issue 39 over HTTP: the queue's preview (`son_mesaj`) is the last thing someone wrote, never a
`sistem` line; a transfer's `sistem` line names the new operator (its display name, in the chat's
language), for the visitor and the operators alike."""
import pytest

from .yardimci import CHATS, W_MESAJLAR, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def _satir(client, oturum_id):
    return next(o for o in ok(client.get(CHATS, {"durum": "aktif"}))["oturumlar"] if o["id"] == oturum_id)


def test_kuyruk_onizlemesi_ziyaretcinin_sorusudur_sistem_satiri_degil(musteri):
    bir, bir_client = operator_istemcisi(musteri, durum="cevrimici")
    iki, iki_client = operator_istemcisi(musteri, durum="cevrimici")
    widget = widget_client(musteri)
    o = baslat(widget, "z-soru", mesaj="Kargom nerede?")
    assert o["son_mesaj"] == "Kargom nerede?"
    ok(bir_client.post(op_url(o["id"], "accept")))  # "Temsilci sohbete katıldı."
    assert _satir(bir_client, o["id"])["son_mesaj"] == "Kargom nerede?"
    ok(bir_client.post(op_url(o["id"], "transfer"), {"operator_id": iki.id}, format="json"))
    assert _satir(iki_client, o["id"])["son_mesaj"] == "Kargom nerede?"
    ok(iki_client.post(op_url(o["id"], "message"), {"icerik": "Not: kargo firmasına sordum", "ozel": True},
                       format="json"), 201)
    ok(iki_client.post(op_url(o["id"], "message"), {"icerik": "Hemen bakıyorum."}, format="json"), 201)
    assert _satir(iki_client, o["id"])["son_mesaj"] == "Hemen bakıyorum."
    ok(iki_client.post(op_url(o["id"], "transfer"), {"operator_id": None}, format="json"))  # back to the queue
    bekleyen = next(x for x in ok(bir_client.get(CHATS))["oturumlar"] if x["id"] == o["id"])
    assert (bekleyen["durum"], bekleyen["son_mesaj"]) == ("bekliyor", "Hemen bakıyorum.")
    ok(bir_client.post(op_url(o["id"], "accept")))
    ok(bir_client.post(op_url(o["id"], "close")))
    kapanan = ok(bir_client.get(op_url(o["id"], "messages")))["oturum"]
    assert kapanan["son_mesaj"] == "Hemen bakıyorum."


def test_sessiz_baslayan_sohbetin_onizlemesi_bos_kalir(musteri):
    """A chat started without a message, outside hours: its only line is the ticket offer, which is
    no preview."""
    musteri.calisma_saatleri = {}
    musteri.save(update_fields=["calisma_saatleri"])
    o = baslat(widget_client(musteri), "z-sessiz")
    assert o["ticket_onerisi"] is True
    assert o["son_mesaj"] is None


@pytest.mark.parametrize(("dil", "beklenen"), [
    ("tr", "Sohbet Deniz Kaya adlı temsilciye aktarıldı."),
    ("en", "The chat was transferred to Deniz Kaya."),
])
def test_aktarma_satiri_kime_aktarildigini_sohbetin_dilinde_soyler(musteri, dil, beklenen):
    musteri.dil = dil
    musteri.save(update_fields=["dil"])
    bir, bir_client = operator_istemcisi(musteri, durum="cevrimici")
    iki, iki_client = operator_istemcisi(musteri, durum="cevrimici", email="deniz@ornek.com")
    iki.ad = "Deniz Kaya"
    iki.save(update_fields=["ad"])
    widget = widget_client(musteri)
    o = baslat(widget, "z-aktar", mesaj="Merhaba")
    ok(bir_client.post(op_url(o["id"], "accept")))
    # The caller's own language does not matter: the line is stored in the chat's.
    ok(bir_client.post(op_url(o["id"], "transfer"), {"operator_id": iki.id}, format="json",
                       HTTP_ACCEPT_LANGUAGE="tr" if dil == "en" else "en"))
    sistem = [m["icerik"] for m in ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-aktar", "oturum_id": o["id"]}))["mesajlar"]
              if m["gonderen"] == "sistem"]
    assert sistem[-1] == beklenen
    assert "deniz@ornek.com" not in " ".join(sistem)
    # A member without a display name is "another agent", never its e-mail.
    bir.ad = ""
    bir.save(update_fields=["ad"])
    ok(iki_client.post(op_url(o["id"], "transfer"), {"operator_id": bir.id}, format="json"))
    son = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-aktar", "oturum_id": o["id"]}))["mesajlar"][-1]
    assert son["icerik"] == {"tr": "Sohbet başka bir temsilciye aktarıldı.",
                             "en": "The chat was transferred to another agent."}[dil]
    assert bir.email not in son["icerik"]

