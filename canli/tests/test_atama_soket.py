"""CONTRACT 3a/11/15 through real sockets against a live server process: a chat assigned to an
operator by the service (automatic assignment, a place freeing) reaches that operator's console
at once, as a new chat does, counted unread; colleagues see it leave their queue."""
import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, giris, operator_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_an_automatically_assigned_chat_reaches_its_operator_at_once(canli_sunucu):
    musteri = MusteriFactory(firma_adi="A")
    musteri.atama_modu = "sirayla"
    musteri.save(update_fields=["atama_modu"])
    a1, a2 = operator_yap(musteri, max_chat=1), operator_yap(musteri)
    t1, t2 = giris(canli_sunucu, a1), giris(canli_sunucu, a2)
    s1, _ = operator_soketi(canli_sunucu, t1)
    s2, _ = operator_soketi(canli_sunucu, t2)
    rest1 = Rest(canli_sunucu, token=t1)
    rest1.post("operator/status", {"durum": "cevrimici"}, beklenen=200)
    widget = Rest(canli_sunucu, api_key=musteri.api_key)

    # A new chat: assigned in its start; its operator's console gets it as a new chat, unread.
    o1 = widget.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, beklenen=201)["oturum"]
    yeni = s1.bekle("chat_yeni", kosul=lambda d: d["oturum"]["id"] == o1["id"])["oturum"]
    assert yeni["durum"] == "aktif" and yeni["operator_id"] == a1.id and yeni["okunmamis"] >= 1
    # A colleague (offline: not eligible) sees it taken: it leaves its queue.
    alindi = s2.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == o1["id"])["oturum"]
    assert alindi["operator_id"] == a1.id

    # A chat waiting (a1 is at its cap) is handed over when the place frees: it reaches a1 at once.
    o2 = widget.post("widget/chat/start", {"ziyaretci_id": "z2", "mesaj": "Orada mısınız?"}, beklenen=201)["oturum"]
    assert o2["durum"] == "bekliyor"
    s1.bekle("chat_yeni", kosul=lambda d: d["oturum"]["id"] == o2["id"])
    rest1.post(f"operator/chat/{o1['id']}/close", beklenen=200)
    devir = s1.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == o2["id"]
                     and d["oturum"]["durum"] == "aktif")["oturum"]
    assert devir["operator_id"] == a1.id and devir["okunmamis"] >= 1
    s1.kapat()
    s2.kapat()
