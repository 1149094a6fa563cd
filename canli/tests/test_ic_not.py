"""CONTRACT 16 over real sockets: a note reaches operators' sockets as a message does and the
visitor's never; a mention reaches the mentioned member's sockets (`bahsedilme`); a change of a
chat's or ticket's labels reaches the operators' consoles, not the visitor's."""
import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]
NOT = "GİZLİ-NOT"


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


def test_not_operatorlere_gider_ziyaretciye_asla(ortam):
    oturum = ortam.widget.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, 201)["oturum"]
    ticket = ortam.widget.post("widget/ticket/create", {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M"}, 201)["ticket"]
    a1, _ = operator_soketi(ortam.sunucu, ortam.token["a1"])
    a2, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    zw = widget_soketi(ortam.sunucu, ortam.musteri, "z1")

    mesaj = ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/message",
                                  {"icerik": NOT, "ozel": True, "bahsedilenler": [ortam.op["a2"].id]}, 201)["mesaj"]
    # The waiting chat's followers (every member) get the note as a message, marked.
    cerceve = a2.bekle("mesaj", kosul=lambda d: d["mesaj"]["id"] == mesaj["id"])
    assert cerceve == {"mesaj": mesaj, "musteri_id": ortam.musteri.id, "onceki_id": cerceve["onceki_id"]}
    assert cerceve["onceki_id"] < mesaj["id"]
    assert mesaj["ozel"] is True
    # The mentioned member: `bahsedilme`, with where it is.
    assert a2.bekle("bahsedilme") == {"mesaj": mesaj, "musteri_id": ortam.musteri.id, "oturum_id": oturum["id"]}

    yanit = ortam.rest["a1"].post(f"operator/ticket/{ticket['id']}/reply",
                                  {"icerik": NOT, "ozel": True, "bahsedilenler": [ortam.op["a2"].id]}, 201)["yanit"]
    assert a2.bekle("ticket_guncellendi")["ticket"]["id"] == ticket["id"]
    assert a2.bekle("bahsedilme") == {"yanit": yanit, "musteri_id": ortam.musteri.id, "ticket_id": ticket["id"]}

    # Labels: the operators' consoles get the chat and the ticket again, with their labels.
    etiket = ortam.rest["a1"].post(f"operator/tenants/{ortam.musteri.id}/etiketler", {"ad": "VIP"}, 201)["etiket"]
    ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/etiketler", {"etiket_idleri": [etiket["id"]]}, 200,
                          yontem="PUT")
    guncel = a2.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == oturum["id"])["oturum"]
    assert [e["ad"] for e in guncel["etiketler"]] == ["VIP"]
    ortam.rest["a1"].post(f"operator/ticket/{ticket['id']}/etiketler", {"etiket_idleri": [etiket["id"]]}, 200,
                          yontem="PUT")
    t = a2.bekle("ticket_guncellendi", kosul=lambda d: d["ticket"]["etiketler"])["ticket"]
    assert [e["ad"] for e in t["etiketler"]] == ["VIP"] and "operator_adi" in t

    # Meanwhile the visitor's socket heard nothing at all.
    assert zw.sessiz(1.0) == [] and zw.alinan == []
    # The one who was not mentioned got no `bahsedilme`.
    assert all(c["tip"] != "bahsedilme" for c in a1.sessiz(0.5) + a1.alinan + a1.bekleyen)
    for s in (a1, a2, zw):
        s.kapat()
