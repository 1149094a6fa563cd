"""CONTRACT 24's frames through real sockets: a snoozed item that wakes (the visitor wrote, or its
time came in the periodic sweep, run here as a Celery worker would run it) sends
`ertelemeden_dondu` to its operator's sockets only, or to every member when it has none (back in
the queue); every member's console gets the item again as `chat_guncellendi` / `ticket_guncellendi`
on a snooze and a wake; the visitor hears nothing of a snooze; never another tenant."""
from datetime import UTC, datetime, timedelta

import pytest

from chat import services as chat_services
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap, ulasilabilir_yap
from tickets import services as ticket_services

from .yardimci import Rest, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


def _kadar(dakika: int) -> str:
    return (datetime.now(UTC) + timedelta(minutes=dakika)).isoformat()


def test_wake_frames_reach_the_operator_or_the_queue(canli_sunucu):
    a, b = MusteriFactory(), MusteriFactory()
    a1, a2, b1 = operator_yap(a), operator_yap(a), operator_yap(b)
    ulasilabilir_yap(a1)
    tok = {k: giris(canli_sunucu, u) for k, u in (("a1", a1), ("a2", a2), ("b1", b1))}
    rest = {k: Rest(canli_sunucu, token=t) for k, t in tok.items()}
    widget = Rest(canli_sunucu, api_key=a.api_key)
    aktif = widget.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, 201)["oturum"]
    rest["a1"].post(f"operator/chat/{aktif['id']}/accept", beklenen=200)
    bekleyen = widget.post("widget/chat/start", {"ziyaretci_id": "z2", "mesaj": "Selam"}, 201)["oturum"]
    ticket = widget.post("widget/ticket/create", {"ziyaretci_id": "z3", "konu": "K", "mesaj": "M"}, 201)["ticket"]
    rest["a1"].post(f"operator/ticket/{ticket['id']}", {"operator_id": a1.id}, 200, yontem="PATCH")
    s = {k: operator_soketi(canli_sunucu, t)[0] for k, t in tok.items()}
    zw = widget_soketi(canli_sunucu, a, "z1")

    # A snooze: every member's console gets the chat again, with its snooze; the visitor nothing.
    rest["a1"].post(f"operator/chat/{aktif['id']}/ertele", {"kadar": None}, 200)
    for k in ("a1", "a2"):
        d = s[k].bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["ertelendi_kadar"] == "ziyaretci")
        assert d["oturum"]["id"] == aktif["id"]

    # The visitor writes: back to its operator (`ertelemeden_dondu` to a1 only).
    widget.post("widget/chat/message", {"ziyaretci_id": "z1", "oturum_id": aktif["id"], "icerik": "Orada mısınız?"}, 201)
    d = s["a1"].bekle("ertelemeden_dondu")
    assert d["tur"] == "chat" and d["oturum"]["id"] == aktif["id"] and d["oturum"]["ertelendi_kadar"] is None
    s["a2"].bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == aktif["id"]
                  and d["oturum"]["ertelendi_kadar"] is None)
    assert [c for c in s["a2"].sessiz(0.5) if c["tip"] == "ertelemeden_dondu"] == []

    # The time comes (the sweep): a waiting chat with no operator is back in every member's queue.
    rest["a2"].post(f"operator/chat/{bekleyen['id']}/ertele", {"kadar": _kadar(5)}, 200)
    rest["a1"].post(f"operator/ticket/{ticket['id']}/ertele", {"kadar": _kadar(5)}, 200)
    sonra = datetime.now(UTC) + timedelta(minutes=6)
    assert chat_services.ertelenen_oturumlari_uyandir(simdi=sonra) == 1
    for k in ("a1", "a2"):
        d = s[k].bekle("ertelemeden_dondu", kosul=lambda d: d["tur"] == "chat" and d["oturum"]["id"] == bekleyen["id"])
        assert d["oturum"]["durum"] == "bekliyor" and d["oturum"]["operator_id"] is None
    # A ticket goes back to its owner.
    assert ticket_services.ertelenen_ticketlari_uyandir(simdi=sonra) == 1
    d = s["a1"].bekle("ertelemeden_dondu", kosul=lambda d: d["tur"] == "ticket")
    assert d["ticket"]["id"] == ticket["id"] and d["ticket"]["ertelendi_kadar"] is None
    assert [c for c in s["a2"].sessiz(0.5) if c["tip"] == "ertelemeden_dondu" and c["data"]["tur"] == "ticket"] == []

    # Never another tenant; the visitor heard nothing of the snooze (only its own message).
    assert s["b1"].sessiz(0.3) == [] and [c for c in s["b1"].alinan if c["tip"] != "hazir"] == []
    assert {c["tip"] for c in zw.sessiz(0.3) + zw.alinan} <= {"mesaj", "hata"}
    for soket in (*s.values(), zw):
        soket.kapat()
