"""Teams (CONTRACT 22): the two services other apps call (`chat.services.chat_ekibe_aktar`,
`tickets.services.ticket_ekibe_ata`) and routing inside a team (CONTRACT 15 run among the team's
members, in the team's mode).

Transactional: the queue drains after the commit, as in production."""
import pytest
from django.utils import timezone

from chat import services
from chat.models import Mesaj, Oturum
from supportdesk.core.exceptions import DurumCakismasi, GecersizIstek
from supportdesk.testing.factories import MusteriFactory
from tenants import ekipler
from tickets import services as ticket_services
from tickets.models import Ticket
from webhooks.models import Olay

from .test_atama import cevrimici_operator, mod
from .yardimci import baslat, ok, op_url, widget_client

pytestmark = pytest.mark.django_db(transaction=True)


def ekip(musteri, ad="Satış", uyeler=(), **alanlar):
    return ekipler.ekip_olustur(musteri_id=musteri.id, ad=ad, uyeler=[u.id for u in uyeler], **alanlar)


def yeni_ticket(musteri, ziyaretci_id="z-t", ekip_id=None):
    return ticket_services.ticket_olustur(musteri=musteri, ziyaretci_id=ziyaretci_id, konu="Fatura", mesaj="Yardım",
                                          ekip_id=ekip_id)


# --- chat_ekibe_aktar -------------------------------------------------------------------------
def test_an_active_chat_given_to_a_team_goes_back_to_that_teams_routing_and_to_one_of_its_members(musteri):
    mod(musteri, "sirayla")
    (a, ac), (b, _) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis = ekip(musteri, uyeler=[b])
    o = baslat(widget_client(musteri), "z1")
    assert o["operator_id"] == a.id  # assigned longest ago (never): a first
    sonuc = services.chat_ekibe_aktar(oturum=Oturum.objects.get(pk=o["id"]), ekip_id=satis.id, aktor=a)
    assert sonuc.ekip_id == satis.id and sonuc.durum == "bekliyor"  # as the action left it, before the drain
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id, oturum.ekip_id) == ("aktif", b.id, satis.id)  # drained after commit
    olaylar = [(v.veri["operator_id"], v.veri["neden"]) for v in Olay.objects.filter(olay="chat_atandi").order_by("zaman")]
    assert olaylar[-2:] == [(None, "aktarma"), (b.id, "otomatik")]
    sistem = list(Mesaj.objects.filter(oturum_id=o["id"], gonderen="sistem").values_list("icerik", flat=True))
    assert any("Satış ekibine aktarıldı" in m for m in sistem)
    # The chat's console shape carries its team.
    liste = ok(ac.get("/api/v1/operator/chats", {"durum": "aktif"}))["oturumlar"]
    assert [x["ekip_id"] for x in liste if x["id"] == o["id"]] == [satis.id]


def test_a_team_in_a_manual_tenant_leaves_the_chat_waiting_in_its_queue_and_none_clears_the_team(musteri):
    (a, ac) = cevrimici_operator(musteri)
    destek = ekip(musteri, ad="Destek", uyeler=[a])
    o = baslat(widget_client(musteri), "z1")
    ok(ac.post(op_url(o["id"], "accept")))
    services.chat_ekibe_aktar(oturum=Oturum.objects.get(pk=o["id"]), ekip_id=destek.id)
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id, oturum.ekip_id) == ("bekliyor", None, destek.id)
    services.chat_ekibe_aktar(oturum=Oturum.objects.get(pk=o["id"]), ekip_id=None)
    assert Oturum.objects.get(pk=o["id"]).ekip_id is None


def test_another_tenants_team_is_a_validation_error_naming_ekip_id_and_changes_nothing(musteri):
    (a, ac) = cevrimici_operator(musteri)
    baska = ekip(MusteriFactory(), ad="Yabancı")
    o = baslat(widget_client(musteri), "z1")
    ok(ac.post(op_url(o["id"], "accept")))
    for yanlis in (baska.id, 10**9, "1", True):
        with pytest.raises(GecersizIstek) as hata:
            services.chat_ekibe_aktar(oturum=Oturum.objects.get(pk=o["id"]), ekip_id=yanlis)
        assert "ekip_id" in hata.value.alanlar
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id, oturum.ekip_id) == ("aktif", a.id, None)


def test_a_plain_operator_may_not_move_a_colleagues_active_chat_to_a_team(musteri):
    (_, ac), (b, _) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis = ekip(musteri, uyeler=[b])
    o = baslat(widget_client(musteri), "z1")
    ok(ac.post(op_url(o["id"], "accept")))
    with pytest.raises(DurumCakismasi):
        services.chat_ekibe_aktar(oturum=Oturum.objects.get(pk=o["id"]), ekip_id=satis.id, aktor=b)
    assert Oturum.objects.get(pk=o["id"]).ekip_id is None


# --- routing inside a team ----------------------------------------------------------------------
def test_a_chat_of_a_team_goes_only_to_its_members_and_a_teamless_chat_to_anyone(musteri):
    mod(musteri, "sirayla")
    (a, _), (b, _), (c, _) = (cevrimici_operator(musteri) for _ in range(3))
    satis = ekip(musteri, uyeler=[c])
    w = widget_client(musteri)
    o1 = baslat(w, "z1")  # no team: a (never assigned, lowest id)
    assert o1["operator_id"] == a.id
    oturum, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z2", ekip_id=satis.id)
    assert oturum.operator_id == c.id  # b would be next for the tenant; the team has only c
    oturum, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z3", ekip_id=satis.id)
    assert oturum.operator_id == c.id


def test_the_teams_own_mode_routes_inside_a_manual_tenant_and_a_manual_team_waits_in_an_automatic_one(musteri):
    (a, _), (b, _) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    otomatik = ekip(musteri, ad="Otomatik", uyeler=[b], atama_modu="en_az_yuklu")
    oturum, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z1", ekip_id=otomatik.id)
    assert (oturum.durum, oturum.operator_id) == ("aktif", b.id)
    assert baslat(widget_client(musteri), "z2")["durum"] == "bekliyor"  # the tenant is manuel
    mod(musteri, "sirayla")
    elle = ekip(musteri, ad="Elle", uyeler=[a, b], atama_modu="manuel")
    oturum, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z3", ekip_id=elle.id)
    assert oturum.durum == "bekliyor"


def test_a_team_with_nobody_reachable_offers_the_ticket_at_once(musteri):
    mod(musteri, "sirayla")
    (a, _) = cevrimici_operator(musteri)
    bos = ekip(musteri, ad="Gece")  # no members
    oturum, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z1", ekip_id=bos.id)
    assert oturum.durum == "bekliyor" and oturum.ticket_onerildi is not None
    assert Mesaj.objects.filter(oturum=oturum, gonderen="sistem").count() == 1


def test_caps_stay_per_member_a_full_team_member_leaves_its_chats_waiting_while_others_route(musteri):
    mod(musteri, "sirayla")
    (a, _) = cevrimici_operator(musteri)
    (b, bc) = cevrimici_operator(musteri, max_chat=1)
    satis = ekip(musteri, uyeler=[b])
    o1, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z1", ekip_id=satis.id)
    o2, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z2", ekip_id=satis.id)
    assert (o1.operator_id, o2.durum) == (b.id, "bekliyor")  # b at its cap; a is not in the team
    o3 = baslat(widget_client(musteri), "z3")
    assert o3["operator_id"] == a.id  # the team-less queue is not held up by the team's
    ok(bc.post(op_url(o1.id, "close")))  # a place frees in the team: its waiting chat goes to b
    assert Oturum.objects.get(pk=o2.id).operator_id == b.id


def test_deleting_a_team_leaves_its_chats_and_tickets_without_a_team(musteri):
    satis = ekip(musteri)
    oturum, _ = services.chat_baslat(musteri=musteri, ziyaretci_id="z1", ekip_id=satis.id)
    ticket = yeni_ticket(musteri, ekip_id=satis.id)
    ekipler.ekip_sil(ekip=satis)
    assert Oturum.objects.get(pk=oturum.pk).ekip_id is None and Ticket.objects.get(pk=ticket.pk).ekip_id is None


# --- ticket_ekibe_ata ---------------------------------------------------------------------------
def test_a_ticket_given_to_a_team_gets_an_owner_among_its_members(musteri):
    mod(musteri, "sirayla")
    (a, _), (b, _) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    satis = ekip(musteri, uyeler=[b])
    ticket = yeni_ticket(musteri)
    assert ticket.operator_id == a.id
    sonuc = ticket_services.ticket_ekibe_ata(ticket=ticket, ekip_id=satis.id, aktor=a)
    assert (sonuc.ekip_id, sonuc.operator_id) == (satis.id, b.id)
    assert Ticket.objects.filter(pk=ticket.pk, ekip=satis, operator=b).exists()
    ikinci = yeni_ticket(musteri, "z-2", ekip_id=satis.id)
    assert ikinci.operator_id == b.id  # created in the team: its member
    ticket_services.ticket_ekibe_ata(ticket=ticket, ekip_id=None)
    assert Ticket.objects.get(pk=ticket.pk).ekip_id is None


def test_a_ticket_in_a_manual_team_loses_its_owner_and_waits(musteri):
    (a, _) = cevrimici_operator(musteri)
    elle = ekip(musteri, ad="Elle", uyeler=[a])
    ticket = yeni_ticket(musteri)
    Ticket.objects.filter(pk=ticket.pk).update(operator=a)
    sonuc = ticket_services.ticket_ekibe_ata(ticket=Ticket.objects.get(pk=ticket.pk), ekip_id=elle.id)
    assert (sonuc.ekip_id, sonuc.operator_id) == (elle.id, None)


def test_a_ticket_refuses_another_tenants_team_and_a_closed_ticket_is_terminal(musteri):
    baska = ekip(MusteriFactory(), ad="Yabancı")
    ticket = yeni_ticket(musteri)
    with pytest.raises(GecersizIstek) as hata:
        ticket_services.ticket_ekibe_ata(ticket=ticket, ekip_id=baska.id)
    assert "ekip_id" in hata.value.alanlar
    assert Ticket.objects.get(pk=ticket.pk).ekip_id is None
    Ticket.objects.filter(pk=ticket.pk).update(durum="kapandi", guncellenme=timezone.now())
    with pytest.raises(DurumCakismasi):
        ticket_services.ticket_ekibe_ata(ticket=Ticket.objects.get(pk=ticket.pk), ekip_id=ekip(musteri).id)
