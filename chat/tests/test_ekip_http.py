"""Teams (CONTRACT 22) through HTTP, on chats and tickets: the widget's `ekipler` and its optional
`ekip_id` on chat/start and ticket/create, the transfer to a team, `PATCH /operator/ticket/{id}`
with `ekip_id`, the lists' `ekip_id` filter, `ekip_id` in webhook `veri`, bad inputs and another
tenant's teams."""
import pytest

from chat.models import Oturum
from supportdesk.testing.factories import MusteriFactory
from tenants import ekipler
from tickets.models import Ticket
from webhooks.models import Olay

from .test_atama import cevrimici_operator, mod
from .yardimci import START, baslat, ok, op_url, widget_client

pytestmark = pytest.mark.django_db(transaction=True)

INIT = "/api/v1/widget/init"
T_CREATE = "/api/v1/widget/ticket/create"


def hata(res, status, kod="GECERSIZ_ISTEK"):
    assert res.status_code == status, res.content
    assert res.json()["hata"]["kod"] == kod, res.content
    return res.json()["hata"]


def ekip(musteri, ad="Satış", uyeler=(), **alanlar):
    return ekipler.ekip_olustur(musteri_id=musteri.id, ad=ad, uyeler=[u.id for u in uyeler], **alanlar)


def test_widget_init_lists_the_selectable_teams_and_follows_their_changes(musteri):
    w = widget_client(musteri)
    assert ok(w.post(INIT, {"ziyaretci_id": "z1"}, format="json"))["ekipler"] == []
    satis = ekip(musteri, widgetta_secilir=True)
    ekip(musteri, ad="İç", widgetta_secilir=False)
    fatura = ekip(musteri, ad="Fatura", widgetta_secilir=True)
    ekip(MusteriFactory(), ad="Yabancı", widgetta_secilir=True)
    assert ok(w.post(INIT, {"ziyaretci_id": "z1"}, format="json"))["ekipler"] == [
        {"id": fatura.id, "ad": "Fatura"}, {"id": satis.id, "ad": "Satış"}]
    ekipler.ekip_guncelle(ekip=satis, ad="Satış Ekibi")  # the widget's cached tenant is renewed
    ekipler.ekip_sil(ekip=fatura)
    assert ok(w.post(INIT, {"ziyaretci_id": "z1"}, format="json"))["ekipler"] == [{"id": satis.id, "ad": "Satış Ekibi"}]


def test_a_visitor_starts_a_chat_in_a_team_which_routes_it_to_a_member_and_tells_the_webhook(musteri):
    mod(musteri, "sirayla")
    (_, _), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis = ekip(musteri, uyeler=[b], widgetta_secilir=True)
    w = widget_client(musteri)
    o = ok(w.post(START, {"ziyaretci_id": "z1", "ekip_id": satis.id}, format="json"), 201)["oturum"]
    assert o["operator_id"] == b.id and "ekip_id" not in o  # the widget's shape carries no team
    yeni = Olay.objects.get(olay="yeni_chat")
    assert yeni.veri["ekip_id"] == satis.id
    assert Olay.objects.filter(olay="chat_atandi").latest("zaman").veri["ekip_id"] == satis.id
    [satir] = ok(bc.get("/api/v1/operator/chats", {"durum": "aktif"}))["oturumlar"]
    assert satir["ekip_id"] == satis.id


@pytest.mark.parametrize("yanlis", ["gizli", "yabanci", "yok", "metin", "sifir"])
def test_the_widget_refuses_a_team_it_does_not_offer_with_400_alanlar(musteri, yanlis):
    gizli = ekip(musteri, ad="İç")  # not widgetta_secilir
    yabanci = ekip(MusteriFactory(), ad="Yabancı", widgetta_secilir=True)
    deger = {"gizli": gizli.id, "yabanci": yabanci.id, "yok": 10**9, "metin": "1", "sifir": 0}[yanlis]
    w = widget_client(musteri)
    assert "ekip_id" in hata(w.post(START, {"ziyaretci_id": "z1", "ekip_id": deger}, format="json"), 400)["alanlar"]
    assert "ekip_id" in hata(w.post(T_CREATE, {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M", "ekip_id": deger},
                                    format="json"), 400)["alanlar"]
    assert not Oturum.objects.exists() and not Ticket.objects.exists()


def test_a_visitor_opens_a_ticket_in_a_team_and_its_owner_is_a_member(musteri):
    mod(musteri, "sirayla")
    (_, ac), (b, _) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    fatura = ekip(musteri, ad="Fatura", uyeler=[b], widgetta_secilir=True)
    t = ok(widget_client(musteri).post(T_CREATE, {"ziyaretci_id": "z1", "konu": "Fatura", "mesaj": "Gelmedi",
                                                  "ekip_id": fatura.id}, format="json"), 201)["ticket"]
    ticket = Ticket.objects.get(pk=t["id"])
    assert (ticket.ekip_id, ticket.operator_id) == (fatura.id, b.id)
    assert Olay.objects.get(olay="yeni_ticket").veri["ekip_id"] == fatura.id
    detay = ok(ac.get(f"/api/v1/operator/ticket/{t['id']}"))["ticket"]
    assert detay["ekip_id"] == fatura.id


def test_transfer_to_a_team_and_its_bad_inputs(musteri):
    (a, ac), (b, _) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis = ekip(musteri, uyeler=[b])
    yabanci = ekip(MusteriFactory(), ad="Yabancı")
    o = baslat(widget_client(musteri), "z1")
    ok(ac.post(op_url(o["id"], "accept")))
    url = op_url(o["id"], "transfer")
    assert "ekip_id" in hata(ac.post(url, {"ekip_id": yabanci.id}, format="json"), 400)["alanlar"]
    assert "ekip_id" in hata(ac.post(url, {"ekip_id": "x"}, format="json"), 400)["alanlar"]
    assert "operator_id" in hata(ac.post(url, {"ekip_id": satis.id, "operator_id": b.id}, format="json"), 400)["alanlar"]
    hata(ac.post(url, {}, format="json"), 400)
    assert Oturum.objects.get(pk=o["id"]).operator_id == a.id  # nothing changed
    yanit = ok(ac.post(url, {"ekip_id": satis.id}, format="json"))["oturum"]
    assert (yanit["durum"], yanit["operator_id"], yanit["ekip_id"]) == ("bekliyor", None, satis.id)  # manuel tenant
    ok(ac.post(op_url(o["id"], "close")))
    hata(ac.post(url, {"ekip_id": satis.id}, format="json"), 409, "DURUM_CAKISMASI")
    # another tenant's chat: 404, never its state
    (_, yc) = cevrimici_operator(MusteriFactory())
    hata(yc.post(url, {"ekip_id": None}, format="json"), 404, "BULUNAMADI")


def test_patch_ticket_takes_ekip_id_and_the_lists_filter_by_team(musteri):
    (a, ac), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis, destek = ekip(musteri, uyeler=[a]), ekip(musteri, ad="Destek", uyeler=[b])
    yabanci = ekip(MusteriFactory(), ad="Yabancı")
    w = widget_client(musteri)
    t1 = ok(w.post(T_CREATE, {"ziyaretci_id": "z1", "konu": "Bir", "mesaj": "M"}, format="json"), 201)["ticket"]
    t2 = ok(w.post(T_CREATE, {"ziyaretci_id": "z2", "konu": "İki", "mesaj": "M"}, format="json"), 201)["ticket"]
    url = f"/api/v1/operator/ticket/{t1['id']}"
    assert "ekip_id" in hata(ac.patch(url, {"ekip_id": yabanci.id}, format="json"), 400)["alanlar"]
    assert "ekip_id" in hata(ac.patch(url, {"ekip_id": "x"}, format="json"), 400)["alanlar"]
    assert ok(ac.patch(url, {"ekip_id": satis.id}, format="json"))["ticket"]["ekip_id"] == satis.id
    ok(ac.patch(f"/api/v1/operator/ticket/{t2['id']}", {"ekip_id": destek.id, "operator_id": b.id}, format="json"))
    assert Ticket.objects.get(pk=t2["id"]).operator_id == b.id  # the owner given wins over the team's routing

    def ticketlar(client, ekip_id):
        return [t["id"] for t in ok(client.get("/api/v1/operator/tickets", {"ekip_id": ekip_id}))["ticketlar"]]

    assert ticketlar(ac, satis.id) == [t1["id"]]
    assert ticketlar(ac, "benim") == [t1["id"]] and ticketlar(bc, "benim") == [t2["id"]]
    t3 = ok(w.post(T_CREATE, {"ziyaretci_id": "z3", "konu": "Üç", "mesaj": "M"}, format="json"), 201)["ticket"]
    assert ticketlar(ac, "yok") == [t3["id"]]
    hata(ac.get("/api/v1/operator/tickets", {"ekip_id": yabanci.id}), 404, "BULUNAMADI")
    assert "ekip_id" in hata(ac.get("/api/v1/operator/tickets", {"ekip_id": "hepsi"}), 400)["alanlar"]

    o1, o2 = baslat(w, "c1"), baslat(w, "c2")
    ok(ac.post(op_url(o1["id"], "transfer"), {"ekip_id": satis.id}, format="json"))

    def sohbetler(client, ekip_id):
        return [o["id"] for o in ok(client.get("/api/v1/operator/chats", {"ekip_id": ekip_id}))["oturumlar"]]

    assert sohbetler(ac, satis.id) == [o1["id"]] and sohbetler(ac, "benim") == [o1["id"]]
    assert sohbetler(bc, "benim") == [] and sohbetler(ac, "yok") == [o2["id"]]
    hata(ac.get("/api/v1/operator/chats", {"ekip_id": yabanci.id}), 404, "BULUNAMADI")
    assert "ekip_id" in hata(ac.get("/api/v1/operator/chats", {"ekip_id": "-1"}), 400)["alanlar"]


def test_deleting_a_team_over_http_leaves_its_items_without_a_team(musteri):
    (a, _) = cevrimici_operator(musteri)
    sahip, sc = cevrimici_operator(musteri, rol="sahip")
    satis = ekip(musteri, uyeler=[a], widgetta_secilir=True)
    w = widget_client(musteri)
    o = ok(w.post(START, {"ziyaretci_id": "z1", "ekip_id": satis.id}, format="json"), 201)["oturum"]
    t = ok(w.post(T_CREATE, {"ziyaretci_id": "z2", "konu": "K", "mesaj": "M", "ekip_id": satis.id}, format="json"),
           201)["ticket"]
    ok(sc.delete(f"/api/v1/operator/ekipler/{satis.id}"))
    assert Oturum.objects.get(pk=o["id"]).ekip_id is None and Ticket.objects.get(pk=t["id"]).ekip_id is None
    assert ok(w.post(INIT, {"ziyaretci_id": "z3"}, format="json"))["ekipler"] == []
