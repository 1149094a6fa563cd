"""Routing (CONTRACT 15, issue 26): automatic assignment through the public interface.

Transactional tests: the places that free are filled by after-commit hooks, which run only
when the request's transaction really commits (as in production, in the request's process)."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from canli.varlik_tarama import erisilemeyenleri_cevrimdisi_yap
from chat import adimlar, services, tasks, uyeler
from chat.models import Mesaj, Oturum
from portal.tests.yardimci import giris_yapmis
from supportdesk.core import varlik
from supportdesk.testing.factories import MusteriFactory
from tenants.models import Uyelik
from tickets.models import Ticket
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Olay
from webhooks.teslimat import teslimatlari_simdi_gonder

from .yardimci import START, W_MESAJ, baslat, ok, op_url, operator_istemcisi, operator_yap, widget_client

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = "/api/v1/operator/status"


def mod(musteri, atama_modu, **alanlar):
    """The tenant's routing settings saved directly (no action: nothing drains; the settings API
    and the portal go through `chat.yonlendirme`). Set before chats wait."""
    musteri.atama_modu = atama_modu
    for ad, deger in alanlar.items():
        setattr(musteri, ad, deger)
    musteri.save(update_fields=["atama_modu", *alanlar])


def cevrimici_operator(*musteriler, durum="cevrimici", **kw):
    """A logged-in operator (reachable: it just made REST calls) with status `durum`."""
    user, client = operator_istemcisi(*musteriler, **kw)
    ok(client.post(STATUS, {"durum": durum}, format="json"))
    return user, client


def durum(client, yeni):
    ok(client.post(STATUS, {"durum": yeni}, format="json"))


def ulasilamaz_yap(user):
    """The operator's presence lapses (no socket, no REST call within the window)."""
    varlik._rest_son_yazim.pop(user.pk, None)  # its next call writes presence again
    istemci = varlik._redis()
    if istemci is None:
        varlik._bellek.rest.pop(user.pk, None)
    else:
        istemci.zrem(varlik.REST, user.pk)


def oturum(oturum_id) -> Oturum:
    return Oturum.objects.get(pk=oturum_id)


def atananlar(*oturum_idleri):
    return [Oturum.objects.get(pk=i).operator_id for i in oturum_idleri]


def atandi_olaylari(musteri):
    return [o.veri for o in Olay.objects.filter(musteri=musteri, olay="chat_atandi").order_by("zaman")]


def test_sirayla_assigns_in_turn_the_member_assigned_longest_ago_first(musteri):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    (a, _), (b, _), (c, _) = (cevrimici_operator(musteri) for _ in range(3))
    o1 = baslat(widget, "z1", mesaj="Merhaba")
    # The start's answer already says who took it: the accept's state, line and unread count.
    assert o1["durum"] == "aktif" and o1["operator_id"] == a.id
    satirlar = list(Mesaj.objects.filter(oturum_id=o1["id"]).order_by("id").values_list("gonderen", "icerik"))
    assert satirlar[0] == ("ziyaretci", "Merhaba") and satirlar[1][0] == "sistem" and "sohbete katıldı" in satirlar[1][1]
    assert len(satirlar) == 2 and oturum(o1["id"]).okunmamis >= 1 and oturum(o1["id"]).kabul_zamani
    ids = [o1["id"]] + [baslat(widget, f"z{i}")["id"] for i in range(2, 5)]
    assert atananlar(*ids) == [a.id, b.id, c.id, a.id]


def test_sirayla_counts_a_transfer_as_an_assignment(musteri):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    (a, _), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    o1, o2 = baslat(widget, "z1"), baslat(widget, "z2")
    assert atananlar(o1["id"], o2["id"]) == [a.id, b.id]
    ok(bc.post(op_url(o2["id"], "transfer"), {"operator_id": a.id}, format="json"))  # a: assigned last now
    assert atananlar(baslat(widget, "z3")["id"]) == [b.id]
    assert [v["neden"] for v in atandi_olaylari(musteri)] == ["otomatik", "otomatik", "aktarma", "otomatik"]


def test_en_az_yuklu_takes_the_fewest_active_ties_by_assigned_longest_ago(musteri):
    mod(musteri, "en_az_yuklu")
    widget = widget_client(musteri)
    (a, ac), (b, bc), (c, cc) = (cevrimici_operator(musteri) for _ in range(3))
    o = [baslat(widget, f"z{i}")["id"] for i in range(3)]
    assert atananlar(*o) == [a.id, b.id, c.id]
    o.append(baslat(widget, "z3")["id"])  # all have 1: tie, a was assigned longest ago
    assert atananlar(o[3]) == [a.id]
    ok(bc.post(op_url(o[1], "close")))
    ok(cc.post(op_url(o[2], "close")))  # a 2, b 0, c 0: b and c tie, b assigned longer ago
    assert atananlar(baslat(widget, "z4")["id"], baslat(widget, "z5")["id"], baslat(widget, "z6")["id"]) == [b.id, c.id, b.id]


def test_muted_and_mesgul_members_get_nothing_until_they_unmute_or_come_online(musteri):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    (a, ac) = cevrimici_operator(musteri)
    (b, bc) = cevrimici_operator(musteri, durum="mesgul")
    ok(ac.put(f"/api/v1/operator/tenants/{musteri.id}/sessize", {"sessize": True}, format="json"))
    o1, o2 = baslat(widget, "z1"), baslat(widget, "z2")
    assert o1["durum"] == o2["durum"] == "bekliyor"
    durum(bc, "cevrimici")  # mesgul -> cevrimici counts as coming online
    assert atananlar(o1["id"], o2["id"]) == [b.id, b.id]
    ok(bc.post(op_url(o2["id"], "transfer"), {"operator_id": None}, format="json"))  # back to the queue...
    assert atananlar(o2["id"]) == [b.id]  # ...and b (the only eligible one) is given it again at once
    durum(bc, "mesgul")  # busy: keeps its chats, gets no new one
    o3 = baslat(widget, "z3")
    assert o3["durum"] == "bekliyor" and atananlar(o1["id"]) == [b.id]
    ok(ac.put(f"/api/v1/operator/tenants/{musteri.id}/sessize", {"sessize": False}, format="json"))
    assert atananlar(o3["id"]) == [a.id]


def test_the_cap_holds_and_a_close_or_a_cap_rise_assigns_the_oldest_waiting_at_once(musteri):
    mod(musteri, "en_az_yuklu")
    widget = widget_client(musteri)
    a, ac = cevrimici_operator(musteri, max_chat=2)
    o = [baslat(widget, f"z{i}")["id"] for i in range(4)]
    assert atananlar(*o) == [a.id, a.id, None, None]
    ok(ac.post(op_url(o[0], "close")))
    assert atananlar(o[2], o[3]) == [a.id, None]  # the oldest waiting one
    # The cap rises (the portal's team page): the place is used at once.
    sahip = giris_yapmis(operator_yap(musteri, rol="sahip"))
    uyelik = Uyelik.objects.get(kullanici=a, musteri=musteri)
    res = sahip.post(f"/portal/ekip/{uyelik.id}", {"islem": "guncelle", "rol": "operator", "max_chat_per_tenant": "3"})
    assert res.status_code == 302
    assert atananlar(o[3]) == [a.id]
    assert Oturum.objects.filter(operator=a, durum="aktif").count() == 3


def test_an_operator_coming_online_takes_the_waiting_chats_oldest_first(musteri):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    o = [baslat(widget, f"z{i}")["id"] for i in range(3)]
    a, ac = operator_istemcisi(musteri, max_chat=2)
    assert atananlar(*o) == [None, None, None]
    durum(ac, "cevrimici")
    assert atananlar(*o) == [a.id, a.id, None]


def test_an_unreachable_operators_chats_go_back_to_routing_with_a_system_line(musteri):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    a, ac = cevrimici_operator(musteri)
    o1 = baslat(widget, "z1")
    b, bc = cevrimici_operator(musteri)
    assert atananlar(o1["id"]) == [a.id]
    ulasilamaz_yap(a)
    assert erisilemeyenleri_cevrimdisi_yap() == [a.id]  # the presence sweep
    assert atananlar(o1["id"]) == [b.id] and oturum(o1["id"]).durum == "aktif"
    son = Mesaj.objects.filter(oturum_id=o1["id"]).latest("id")
    assert son.gonderen == "sistem" and "bağlantısı koptu" in son.icerik
    # b goes offline itself, nobody else is eligible: the chat waits again, with its line, which
    # says it went offline, not that its connection dropped (issue 39: a deliberate "Çevrimdışı").
    durum(bc, "cevrimdisi")
    assert oturum(o1["id"]).durum == "bekliyor" and oturum(o1["id"]).operator_id is None
    son = Mesaj.objects.filter(oturum_id=o1["id"]).latest("id")
    assert son.gonderen == "sistem" and "yeniden sıraya alındı" in son.icerik
    assert son.icerik.startswith("Temsilci çevrimdışı oldu;") and "bağlantısı koptu" not in son.icerik
    assert Mesaj.objects.filter(oturum_id=o1["id"], gonderen="sistem").count() == 3  # one per move
    assert [(v["operator_id"], v["neden"]) for v in atandi_olaylari(musteri)] == [
        (a.id, "otomatik"), (b.id, "yeniden"), (None, "yeniden")]
    # The waiting chat stays ahead of one started later: a coming online gets it first.
    o2 = baslat(widget, "z2")
    durum(ac, "cevrimici")
    assert atananlar(o1["id"]) == [a.id] and oturum(o2["id"]).operator_id == a.id


def test_the_periodic_sweep_frees_chats_of_an_operator_offline_without_a_hook(musteri):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    a, _ = cevrimici_operator(musteri)
    o1 = baslat(widget, "z1")
    type(a).objects.filter(pk=a.pk).update(durum="cevrimdisi")  # no event: a killed process
    b, _ = cevrimici_operator(musteri, durum="mesgul")
    sonuc = tasks.atama_taramasi()
    assert sonuc["erisilemez"] == 1 and oturum(o1["id"]).durum == "bekliyor"
    type(b).objects.filter(pk=b.pk).update(durum="cevrimici")  # status written without its event
    assert tasks.atama_taramasi()["atanan"] == 1 and atananlar(o1["id"]) == [b.id]
    assert tasks.atama_taramasi() == {"erisilemez": 0, "yeniden": 0, "atanan": 0}  # idempotent


def _geri_al(oturum_id, dakika):
    """Age the chat's messages and assignment by `dakika` minutes (the rule's clock, no sleeping)."""
    gecmis = timezone.now() - timedelta(minutes=dakika)
    Mesaj.objects.filter(oturum_id=oturum_id).update(zaman=gecmis)
    Oturum.objects.filter(pk=oturum_id).update(kabul_zamani=gecmis)


def test_yeniden_atama_dk_moves_an_unanswered_chat_to_another_member(musteri):
    mod(musteri, "sirayla", yeniden_atama_dk=5)
    widget = widget_client(musteri)
    (a, _), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    o1, o2 = baslat(widget, "z1", mesaj="Yardım lütfen"), baslat(widget, "z2", mesaj="Soru")
    assert atananlar(o1["id"], o2["id"]) == [a.id, b.id]
    ok(bc.post(op_url(o2["id"], "message"), {"icerik": "Buyrun"}, format="json"), 201)  # b answered
    _geri_al(o1["id"], 4)
    _geri_al(o2["id"], 6)
    assert tasks.atama_taramasi()["yeniden"] == 0  # o1: 4 min only; o2: answered
    _geri_al(o1["id"], 6)
    assert tasks.atama_taramasi()["yeniden"] == 1
    assert atananlar(o1["id"]) == [b.id]
    son = Mesaj.objects.filter(oturum_id=o1["id"]).latest("id")
    assert son.gonderen == "sistem" and "yanıt bekliyordu" in son.icerik
    assert atandi_olaylari(musteri)[-1] == {"oturum_id": o1["id"], "musteri_id": musteri.id, "operator_id": b.id,
                                           "neden": "yeniden", "etiketler": [], "ekip_id": None}
    assert tasks.atama_taramasi()["yeniden"] == 0  # the new operator's time counts from now
    # An internal note is no answer; a visitor's new message after an answer starts the wait again.
    Mesaj.objects.create(musteri=musteri, oturum_id=o1["id"], gonderen="operator", operator=b, icerik="not", ozel=True)
    _geri_al(o1["id"], 6)
    assert tasks.atama_taramasi()["yeniden"] == 1 and atananlar(o1["id"]) == [a.id]


def test_yeniden_atama_leaves_the_chat_when_nobody_else_is_eligible_and_never_in_manuel(musteri):
    mod(musteri, "sirayla", yeniden_atama_dk=1)
    widget = widget_client(musteri)
    a, _ = cevrimici_operator(musteri)
    o1 = baslat(widget, "z1", mesaj="Merhaba")
    _geri_al(o1["id"], 3)
    assert tasks.atama_taramasi()["yeniden"] == 0 and atananlar(o1["id"]) == [a.id]
    cevrimici_operator(musteri)
    mod(musteri, "manuel")
    assert tasks.atama_taramasi()["yeniden"] == 0 and atananlar(o1["id"]) == [a.id]


def test_manuel_keeps_todays_behaviour_and_chat_atandi_follows_every_operator_change(musteri, webhook_alici):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hepsi"))  # olaylar empty: all events
    widget = widget_client(musteri)
    (a, ac), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)
    o1, o2 = baslat(widget, "z1"), baslat(widget, "z2")
    assert o1["durum"] == o2["durum"] == "bekliyor"  # manuel: nobody is assigned
    ok(ac.post(op_url(o1["id"], "accept")))
    ok(ac.post(op_url(o1["id"], "transfer"), {"operator_id": b.id}, format="json"))
    ok(bc.post(op_url(o1["id"], "transfer"), {"operator_id": None}, format="json"))
    ok(bc.post(op_url(o2["id"], "message"), {"icerik": "Merhaba"}, format="json"), 201)  # a claiming answer
    assert oturum(o1["id"]).durum == "bekliyor"  # manuel: the queue is not drained
    beklenen = [(o1["id"], a.id, "kabul"), (o1["id"], b.id, "aktarma"), (o1["id"], None, "aktarma"),
                (o2["id"], b.id, "kabul")]
    assert [(v["oturum_id"], v["operator_id"], v["neden"]) for v in atandi_olaylari(musteri)] == beklenen
    teslimatlari_simdi_gonder(musteri=musteri)
    gelen = [i.json() for i in webhook_alici.bekle(2 + len(beklenen))]
    atandi = [i for i in gelen if i["olay"] == "chat_atandi"]
    assert [(v["veri"]["oturum_id"], v["veri"]["operator_id"], v["veri"]["neden"]) for v in atandi] == beklenen
    assert all(v["veri"]["musteri_id"] == musteri.id and set(v["veri"]) == {"oturum_id", "musteri_id", "operator_id",
                                                                           "neden", "etiketler", "ekip_id"} for v in atandi)


def test_switching_to_an_automatic_mode_drains_the_queue(musteri):
    widget = widget_client(musteri)
    a, _ = cevrimici_operator(musteri)
    _, sc = operator_istemcisi(musteri, rol="sahip")
    o1 = baslat(widget, "z1")
    assert o1["durum"] == "bekliyor"
    ok(sc.put(f"/api/v1/operator/tenants/{musteri.id}/ayarlar", {"atama_modu": "en_az_yuklu"}, format="json"))
    assert atananlar(o1["id"]) == [a.id]


def test_a_mode_saved_around_the_actions_is_drained_by_the_periodic_sweep(musteri):
    # A shell's or a management command's save calls no action (issue 40): the sweep catches it.
    widget = widget_client(musteri)
    a, _ = cevrimici_operator(musteri)
    o1 = baslat(widget, "z1")
    mod(musteri, "en_az_yuklu")
    assert atananlar(o1["id"]) == [None]
    assert tasks.atama_taramasi()["atanan"] == 1 and atananlar(o1["id"]) == [a.id]


def test_an_operator_of_three_tenants_gets_work_from_all_three():
    musteriler = [MusteriFactory() for _ in range(3)]
    for m in musteriler:
        mod(m, "sirayla")
    for m in musteriler:
        for i in range(3):
            baslat(widget_client(m), f"z{i}")
    a, ac = operator_istemcisi(*musteriler, max_chat=2)  # the cap is per tenant
    durum(ac, "cevrimici")
    for m in musteriler:
        assert Oturum.objects.filter(musteri=m, operator=a, durum="aktif").count() == 2
        assert Oturum.objects.filter(musteri=m, durum="bekliyor").count() == 1


def test_tickets_are_assigned_by_the_mode_counting_open_tickets(musteri):
    mod(musteri, "en_az_yuklu")
    widget = widget_client(musteri)
    (a, ac), (b, bc) = cevrimici_operator(musteri), cevrimici_operator(musteri)

    def ticket_ac(i):
        res = widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": f"t{i}", "konu": "Fatura", "mesaj": "Yardım"},
                          format="json")
        assert res.status_code == 201, res.content
        return Ticket.objects.get(pk=res.json()["data"]["ticket"]["id"])

    t = [ticket_ac(i) for i in range(3)]
    assert [x.operator_id for x in t] == [a.id, b.id, a.id]
    ok(ac.put(f"/api/v1/operator/ticket/{t[0].id}/status", {"durum": "cozuldu"}, format="json"))
    ok(ac.put(f"/api/v1/operator/ticket/{t[2].id}/status", {"durum": "kapandi"}, format="json"))
    assert ticket_ac(3).operator_id == a.id  # a has no open ticket now, b has one
    # The chats' line is apart: a chat goes to the member assigned a chat longest ago.
    assert baslat(widget, "z1")["operator_id"] == a.id
    durum(bc, "mesgul")
    durum(ac, "cevrimdisi")
    assert ticket_ac(4).operator_id is None  # nobody eligible: no owner
    mod(musteri, "manuel")
    durum(ac, "cevrimici")
    assert ticket_ac(5).operator_id is None


# chat/start's statements, the transaction's BEGIN/COMMIT and the socket frames' reads after it
# included. `manuel`: 9 before routing, and the routing hook adds one (the tenant's mode; nothing
# locked). Automatic adds the tenant's lock, the candidates, the membership's lock, the cap's count
# under it, the accept's writes (state and re-read, line, preview, `sirayla` mark, the outbox row
# of `chat_atandi` with its endpoints), the answer's re-read and the accept frame's read.
# The frames' reads prefetch the chat's labels for the operators' shape (CONTRACT 16): one more
# query per frame read (one for a manual start, two for an automatic one), and `chat_atandi` reads
# the chat's label names for its `veri` (one more for an automatic start). The accept line's
# `mesaj` frame reads the chat's previous message ids (`onceki_id`, issue 38): one more for an
# automatic start. A new visitor's first chat makes its contact (CONTRACT 25, kisiler): the
# visitor id's link looked up, the contact and the link inserted (three more); its first-response
# clock reads the tenant's SLA policy (CONTRACT 24: one more). A tenant without active rules
# (`Musteri.kurallar_var`) pays nothing for them.
BASLAT_MANUEL = 15
BASLAT_OTOMATIK = 30


@pytest.mark.parametrize(("atama_modu", "sinir"), [("manuel", BASLAT_MANUEL), ("sirayla", BASLAT_OTOMATIK),
                                                   ("en_az_yuklu", BASLAT_OTOMATIK)])
def test_chat_start_query_count(musteri, atama_modu, sinir):
    mod(musteri, atama_modu)
    widget = widget_client(musteri)
    for _ in range(3):
        cevrimici_operator(musteri, max_chat=5)
    baslat(widget, "isit")  # warms the key cache
    for i in range(3):
        with CaptureQueriesContext(connection) as sorgular:
            o = baslat(widget, f"z{i}")
        ifadeler = [q["sql"] for q in sorgular.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        assert len(ifadeler) == sinir, "\n".join(ifadeler)
        assert (o["durum"] == "aktif") is (atama_modu != "manuel")


def test_bad_inputs_change_nothing(musteri):
    mod(musteri, "sirayla")
    cevrimici_operator(musteri)
    widget = widget_client(musteri)
    res = widget.post(START, {"ziyaretci_id": "z1", "email": "yok"}, format="json")
    assert res.status_code == 400 and not Oturum.objects.exists() and not Olay.objects.exists()
    o = baslat(widget, "z1")
    res = widget.post(W_MESAJ, {"ziyaretci_id": "z1", "oturum_id": o["id"], "icerik": ""}, format="json")
    assert res.status_code == 400
    # Another tenant's operator is never a candidate.
    diger = MusteriFactory()
    mod(diger, "sirayla")
    yabanci, _ = cevrimici_operator(diger)
    assert baslat(widget, "z2")["operator_id"] != yabanci.id
    assert APIClient().post(START, {"ziyaretci_id": "z3"}, format="json").status_code in (401, 403)



def test_every_way_back_to_the_queue_is_the_one_step(musteri, monkeypatch):
    # Issue 40: a transfer to nobody, re-routing that finds nobody else and a member's removal put a
    # chat back in the queue by one function (`chat.adimlar.siraya_al`): the same state, one `sistem`
    # line and the same events (`chat_aktarildi` for the consoles, `chat_atandi` with no operator).
    cagrilar = []
    asil = adimlar.siraya_al
    for modul in (adimlar, services):  # chat.services holds it by name
        monkeypatch.setattr(modul, "siraya_al", lambda oturum, **kw: cagrilar.append(kw["neden"]) or asil(oturum, **kw))
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    a, ac = cevrimici_operator(musteri)
    o1, o2, o3 = (baslat(widget, f"z{i}") for i in range(3))
    assert atananlar(o1["id"], o2["id"], o3["id"]) == [a.id] * 3
    ok(ac.post(op_url(o1["id"], "transfer"), {"operator_id": None}, format="json"))  # to nobody...
    assert cagrilar == ["aktarma"] and atananlar(o1["id"]) == [a.id]  # ...and routed to a again at once
    durum(ac, "cevrimdisi")  # nobody else: its three chats wait again
    assert cagrilar == ["aktarma", "yeniden", "yeniden", "yeniden"]
    durum(ac, "cevrimici")  # takes the three back, oldest first
    assert atananlar(o1["id"], o2["id"], o3["id"]) == [a.id] * 3
    uyeler.uyeyi_cikar(uyelik=Uyelik.objects.get(kullanici=a, musteri=musteri))  # it leaves the project
    assert cagrilar == ["aktarma", *["yeniden"] * 6]
    for o in (o1, o2, o3):
        assert (oturum(o["id"]).durum, oturum(o["id"]).operator_id) == ("bekliyor", None)
        son = Mesaj.objects.filter(oturum_id=o["id"]).latest("id")
        assert son.gonderen == "sistem" and "yeniden sıraya alındı" in son.icerik
    assert [v["operator_id"] for v in atandi_olaylari(musteri)].count(None) == 7


def test_routing_passes_a_snoozed_waiting_chat_by_until_it_wakes(musteri):
    # CONTRACT 24: a snoozed item keeps its state until it wakes; then it is routed as any other.
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    a, ac = cevrimici_operator(musteri, max_chat=1)
    o1, o2 = baslat(widget, "z1"), baslat(widget, "z2")
    assert atananlar(o1["id"], o2["id"]) == [a.id, None]  # a is full: o2 waits
    ok(ac.post(op_url(o2["id"], "ertele"), {"kadar": None}, format="json"))
    ok(ac.post(op_url(o1["id"], "close"), format="json"))  # room again, but o2 is snoozed
    assert oturum(o2["id"]).durum == "bekliyor" and oturum(o2["id"]).operator_id is None
    ok(ac.delete(op_url(o2["id"], "ertele")))  # woken: routed after the wake's commit
    assert atananlar(o2["id"]) == [a.id]
