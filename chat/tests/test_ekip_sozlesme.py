"""CONTRACT 22, the lines test_ekip_http.py leaves unproved: a member in several teams (`benim` is
all of them), and `ekip_id` in every webhook `veri` of a chat or ticket (close, rating, solved), not
only at their start."""
import pytest

from tickets.models import Ticket
from webhooks.models import Olay

from .test_atama import cevrimici_operator
from .test_ekip_http import T_CREATE, ekip
from .yardimci import START, ok, op_url, widget_client

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_member_of_two_teams_sees_both_as_benim(musteri):
    (a, ac), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis, destek, diger = ekip(musteri, uyeler=[a]), ekip(musteri, ad="Destek", uyeler=[a, b]), ekip(musteri, ad="Diğer")
    w = widget_client(musteri)
    idler = {}
    for e in (satis, destek, diger):
        e.widgetta_secilir = True
        e.save(update_fields=["widgetta_secilir"])
        t = ok(w.post(T_CREATE, {"ziyaretci_id": f"z{e.id}", "konu": e.ad, "mesaj": "M", "ekip_id": e.id},
                      format="json"), 201)["ticket"]
        idler[e.ad] = t["id"]

    def benim(client):
        return sorted(t["id"] for t in ok(client.get("/api/v1/operator/tickets", {"ekip_id": "benim"}))["ticketlar"])

    assert benim(ac) == sorted([idler["Satış"], idler["Destek"]])
    assert benim(bc) == [idler["Destek"]]


def test_every_webhook_of_a_teams_chat_and_ticket_carries_its_team(musteri):
    (a, ac) = cevrimici_operator(musteri)
    satis = ekip(musteri, uyeler=[a], widgetta_secilir=True)
    w = widget_client(musteri)
    o = ok(w.post(START, {"ziyaretci_id": "z1", "ekip_id": satis.id}, format="json"), 201)["oturum"]
    if o["durum"] == "bekliyor":
        ok(ac.post(op_url(o["id"], "accept")))
    ok(ac.post(op_url(o["id"], "close")))
    ok(w.post("/api/v1/widget/chat/rate", {"ziyaretci_id": "z1", "oturum_id": o["id"], "puan": 5}, format="json"))
    t = ok(w.post(T_CREATE, {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M", "ekip_id": satis.id}, format="json"),
           201)["ticket"]
    ok(ac.put(f"/api/v1/operator/ticket/{t['id']}/status", {"durum": "cozuldu"}, format="json"))
    assert Ticket.objects.get(pk=t["id"]).durum == "cozuldu"
    olaylar = {o.olay: o.veri for o in Olay.objects.order_by("id")}
    for ad in ("yeni_chat", "chat_atandi", "chat_kapandi", "memnuniyet_puan", "yeni_ticket", "ticket_cozuldu"):
        assert olaylar[ad]["ekip_id"] == satis.id, (ad, olaylar[ad])
