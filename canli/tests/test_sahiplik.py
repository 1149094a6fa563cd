"""CONTRACT 3a over real sockets (issue 24): an operator's answer to a waiting chat claims it with
an accept's frames; the visitor's `okundu` is kept for the operator's messages answer."""
import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ortam(canli_sunucu):
    a = MusteriFactory(firma_adi="A")
    a1, a2 = operator_yap(a), operator_yap(a)
    t = {"a1": giris(canli_sunucu, a1), "a2": giris(canli_sunucu, a2)}

    class Ortam:
        sunucu, musteri = canli_sunucu, a
        op = {"a1": a1, "a2": a2}
        token = t
        rest = {k: Rest(canli_sunucu, token=v) for k, v in t.items()}
        widget = Rest(canli_sunucu, api_key=a.api_key)

    return Ortam


def test_bekleyen_sohbete_yanit_kabulun_cercevelerini_gonderir(ortam):
    a1, _ = operator_soketi(ortam.sunucu, ortam.token["a1"])
    a2, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    oturum = ortam.widget.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, 201)["oturum"]
    ikinci = ortam.widget.post("widget/chat/start", {"ziyaretci_id": "z2"}, 201)["oturum"]
    assert ikinci["sira_no"] == 2
    zw = widget_soketi(ortam.sunucu, ortam.musteri, "z1")
    z2 = widget_soketi(ortam.sunucu, ortam.musteri, "z2")

    cevap = ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/message", {"icerik": "Buyrun"}, 201)["mesaj"]

    # The colleague's queue loses it at once; the visitor is no longer waiting, the one behind moves up.
    guncel = a2.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == oturum["id"])["oturum"]
    assert (guncel["durum"], guncel["operator_id"]) == ("aktif", ortam.op["a1"].id)
    w = zw.bekle("oturum")["oturum"]
    assert (w["durum"], w["sira_no"], w["operator_id"]) == ("aktif", None, ortam.op["a1"].id)
    assert z2.bekle("oturum")["oturum"]["sira_no"] == 1
    # The visitor reads the accept's line first, then the answer.
    katildi = zw.bekle("mesaj")["mesaj"]
    assert katildi["gonderen"] == "sistem" and "sohbete katıldı" in katildi["icerik"]
    assert zw.bekle("mesaj") == {"mesaj": cevap, "onceki_id": katildi["id"]}
    # The claimer's socket heard it too (its other tabs).
    assert a1.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == oturum["id"])["oturum"]["durum"] == "aktif"
    for s in (a1, a2, zw, z2):
        s.kapat()


def test_ziyaretcinin_okundusu_mesajlar_yanitinda_kalir(ortam):
    a1, _ = operator_soketi(ortam.sunucu, ortam.token["a1"])
    oturum = ortam.widget.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, 201)["oturum"]
    ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/accept", beklenen=200)
    yol = f"operator/chat/{oturum['id']}/messages"
    assert ortam.rest["a1"].get(yol)["ziyaretci_son_okunan"] is None
    ilk = ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/message", {"icerik": "Bir"}, 201)["mesaj"]
    ikinci = ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/message", {"icerik": "İki"}, 201)["mesaj"]
    baska = ortam.widget.post("widget/chat/start", {"ziyaretci_id": "z2", "mesaj": "Başka"}, 201)["oturum"]
    zw = widget_soketi(ortam.sunucu, ortam.musteri, "z1")

    zw.gonder("okundu", {"oturum_id": oturum["id"], "mesaj_id": ikinci["id"]})
    assert a1.bekle("okundu") == {"oturum_id": oturum["id"], "mesaj_id": ikinci["id"]}
    assert ortam.rest["a1"].get(yol)["ziyaretci_son_okunan"] == ikinci["id"]
    # Only forward; and only a message of this chat (another chat's id, or one that does not exist).
    zw.gonder("okundu", {"oturum_id": oturum["id"], "mesaj_id": ilk["id"]})
    a1.bekle("okundu", kosul=lambda d: d["mesaj_id"] == ilk["id"])
    ilk_mesaj_baska = ortam.rest["a1"].get(f"operator/chat/{baska['id']}/messages")["mesajlar"][0]["id"]
    for yabanci in (ilk_mesaj_baska, 10**12, 2**70):
        zw.gonder("okundu", {"oturum_id": oturum["id"], "mesaj_id": yabanci})
    zw.gonder("ping")  # frames are handled in order: its answer says the ones before are done
    assert zw.bekle("hata")["kod"] == "GECERSIZ_ISTEK"
    assert ortam.rest["a1"].get(yol)["ziyaretci_son_okunan"] == ikinci["id"]
    for s in (a1, zw):
        s.kapat()
