"""Service levels (CONTRACT 17) through the public interface: the policy endpoint (roles, other
tenants, partial writes, bad input), the ticket clocks as the operator reads them, the list's
filter and sort, and the sweep (warnings and breaches, each once). Time passes by moving the
ticket's stored instants back (`geri_al`), never by sleeping."""
from datetime import timedelta

import pytest
from celery import current_app
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from eposta.models import GidenEposta
from supportdesk.core.olaylar import dinle, dinlemeyi_birak
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.takvim import Takvim
from tickets import sla as sla_modulu
from tickets.models import SlaPolitikasi, Ticket
from tickets.services import ticket_olustur
from tickets.tasks import sla_tara
from webhooks.models import Olay

from .test_eszamanlilik import _hep_birlikte
from .test_tickets import OP, W, ac, ok, op_client

pytestmark = pytest.mark.django_db

SLA_ZAMANLARI = ["olusturulma", "ilk_operator_yaniti", "sla_ilk_vade", "sla_ilk_uyari", "sla_sonraki_vade",
                 "sla_sonraki_uyari", "sla_sonraki_baslangic", "sla_cozum_vade", "sla_cozum_uyari",
                 "sla_cozum_baslangic", "sla_vade", "sla_uyari"]


def geri_al(ticket_id: int, dakika: float) -> None:
    """As if `dakika` minutes had passed: every stored instant of the ticket moves back."""
    fark = timedelta(minutes=dakika)
    Ticket.objects.filter(pk=ticket_id).update(**{a: F(a) - fark for a in SLA_ZAMANLARI})


def hata(res, status, kod):
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == kod, body
    return body["hata"]


@pytest.fixture
def sahip(musteri):
    return operator_yap(musteri, rol="sahip")


@pytest.fixture
def sahip_client(sahip):
    return op_client(sahip)


def politika(client, musteri, **govde):
    return ok(client.put(f"{OP}/tenants/{musteri.id}/sla", govde, format="json"))["sla"]


def hedefli(client, musteri, ilk=30, sonraki=20, cozum=240, oncelik="normal", **ek):
    return politika(client, musteri, **{"aktif": True, "mesai_icinde": False, **ek, "hedefler": {
        oncelik: {"ilk_yanit_dk": ilk, "sonraki_yanit_dk": sonraki, "cozum_dk": cozum}}})


def op_ticket(client, ticket_id):
    return ok(client.get(f"{OP}/ticket/{ticket_id}"))["ticket"]


# --- the policy ---------------------------------------------------------------------------------
def test_policy_defaults_partial_writes_and_roles(musteri, operator_client, sahip_client, diger_musteri):
    varsayilan = ok(operator_client.get(f"{OP}/tenants/{musteri.id}/sla"))["sla"]
    assert varsayilan == {"aktif": False, "mesai_icinde": True, "uyari_dk": 15, "chat_ilk_yanit_sn": None,
                          "hedefler": {o: {"ilk_yanit_dk": None, "sonraki_yanit_dk": None, "cozum_dk": None}
                                       for o in ("acil", "yuksek", "normal", "dusuk")}}
    # One target of one priority: nothing else moves.
    sla = politika(sahip_client, musteri, hedefler={"acil": {"ilk_yanit_dk": 10}})
    assert sla["hedefler"]["acil"] == {"ilk_yanit_dk": 10, "sonraki_yanit_dk": None, "cozum_dk": None}
    sla = politika(sahip_client, musteri, hedefler={"acil": {"cozum_dk": 60}}, uyari_dk=5)
    assert sla["hedefler"]["acil"] == {"ilk_yanit_dk": 10, "sonraki_yanit_dk": None, "cozum_dk": 60}
    assert sla["uyari_dk"] == 5 and sla["aktif"] is False and sla["mesai_icinde"] is True
    assert ok(operator_client.get(f"{OP}/tenants/{musteri.id}/sla"))["sla"] == sla
    # Writing: sahip and yonetici; an operator 403; another tenant 404 (even for its owner).
    hata(operator_client.put(f"{OP}/tenants/{musteri.id}/sla", {"aktif": True}, format="json"), 403, "YETKISIZ")
    yonetici = op_client(operator_yap(musteri, rol="yonetici"))
    assert politika(yonetici, musteri, aktif=True)["aktif"] is True
    baska_sahip = op_client(operator_yap(diger_musteri, rol="sahip"))
    hata(baska_sahip.get(f"{OP}/tenants/{musteri.id}/sla"), 404, "BULUNAMADI")
    hata(baska_sahip.put(f"{OP}/tenants/{musteri.id}/sla", {"aktif": False}, format="json"), 404, "BULUNAMADI")
    hata(sahip_client.get(f"{OP}/tenants/999999999/sla"), 404, "BULUNAMADI")


@pytest.mark.parametrize("govde, alan", [
    ({"aktif": "evet"}, "aktif"),
    ({"mesai_icinde": 1}, "mesai_icinde"),
    ({"uyari_dk": -1}, "uyari_dk"),
    ({"uyari_dk": 1.5}, "uyari_dk"),
    ({"chat_ilk_yanit_sn": 0}, "chat_ilk_yanit_sn"),
    ({"hedefler": []}, "hedefler"),
    ({"hedefler": {"cok_acil": {"ilk_yanit_dk": 5}}}, "hedefler.cok_acil"),
    ({"hedefler": {"acil": {"ilk_yanit_dk": 0}}}, "hedefler.acil.ilk_yanit_dk"),
    ({"hedefler": {"acil": {"ilk_yanit_dk": "5"}}}, "hedefler.acil.ilk_yanit_dk"),
    ({"hedefler": {"acil": {"ilk_yanit_dk": True}}}, "hedefler.acil.ilk_yanit_dk"),
    ({"hedefler": {"acil": {"bilinmeyen": 5}}}, "hedefler.acil.bilinmeyen"),
    ({"aktif": True, "fazla": 1}, "fazla"),
])
def test_bad_values_are_400_with_alanlar_and_change_nothing(musteri, sahip_client, govde, alan):
    once = politika(sahip_client, musteri, uyari_dk=7)
    h = hata(sahip_client.put(f"{OP}/tenants/{musteri.id}/sla", govde, format="json"), 400, "GECERSIZ_ISTEK")
    assert alan in h["alanlar"]
    assert ok(sahip_client.get(f"{OP}/tenants/{musteri.id}/sla"))["sla"] == once


def test_a_body_that_is_not_an_object_is_400(musteri, sahip_client):
    res = sahip_client.put(f"{OP}/tenants/{musteri.id}/sla", [1, 2], format="json")
    assert res.status_code == 400
    assert not SlaPolitikasi.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_change_is_announced_as_sla_degisti(musteri, sahip, sahip_client):
    gelen = []

    def dinleyici(olay):
        gelen.append(olay)

    dinle("sla_degisti")(dinleyici)
    try:
        politika(sahip_client, musteri, uyari_dk=9, aktif=True)
    finally:
        dinlemeyi_birak(dinleyici)
    assert len(gelen) == 1 and gelen[0].musteri_id == musteri.id
    assert gelen[0].veri == {"musteri_id": musteri.id, "aktor_id": sahip.id, "ip": "127.0.0.1",
                             "alanlar": ["aktif", "uyari_dk"], "degerler": {"aktif": [False, True], "uyari_dk": [15, 9]}}


# --- the clocks ----------------------------------------------------------------------------------
def test_no_policy_no_sla_and_the_widget_shape_never_carries_it(widget, musteri, operator_client):
    t = ac(widget)
    assert "sla" not in t
    assert op_ticket(operator_client, t["id"])["sla"] == {"ilk_yanit": None, "sonraki_yanit": None, "cozum": None}
    liste = ok(operator_client.get(f"{OP}/tickets"))["ticketlar"]
    assert liste[0]["sla"] == {"ilk_yanit": None, "sonraki_yanit": None, "cozum": None}
    assert "sla" not in ok(widget.get(f"{W}/list", {"ziyaretci_id": "z1"}))["ticketlar"][0]


def test_first_and_next_response_clocks(widget, musteri, operator_client, sahip_client):
    hedefli(sahip_client, musteri, ilk=30, sonraki=20, cozum=None)
    t = ac(widget)
    sla = op_ticket(operator_client, t["id"])["sla"]
    assert sla["sonraki_yanit"] is None and sla["cozum"] is None
    ilk = sla["ilk_yanit"]
    assert ilk["durum"] == "bekliyor" and 30 * 60 - 5 <= ilk["kalan_sn"] <= 30 * 60
    tk = Ticket.objects.get(pk=t["id"])
    assert ilk["hedef"] == (tk.olusturulma + timedelta(minutes=30)).isoformat()

    # A visitor reply before any operator reply starts no `sonraki_yanit` cycle.
    ok(widget.post(f"{W}/{t['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Orada mısınız?"}, format="json"), 201)
    assert op_ticket(operator_client, t["id"])["sla"]["sonraki_yanit"] is None

    geri_al(t["id"], 10)
    cevap = ok(operator_client.post(f"{OP}/ticket/{t['id']}/reply", {"icerik": "Bakıyoruz."}, format="json"), 201)
    assert cevap["ticket"]["sla"]["ilk_yanit"]["durum"] == "karsilandi"
    assert cevap["ticket"]["sla"]["ilk_yanit"]["kalan_sn"] is None

    ok(widget.post(f"{W}/{t['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Teşekkürler, bir şey daha."},
                   format="json"), 201)
    sonraki = op_ticket(operator_client, t["id"])["sla"]["sonraki_yanit"]
    assert sonraki["durum"] == "bekliyor" and 20 * 60 - 5 <= sonraki["kalan_sn"] <= 20 * 60
    # A second visitor reply in the same cycle does not restart it.
    geri_al(t["id"], 5)
    ok(widget.post(f"{W}/{t['id']}/reply", {"ziyaretci_id": "z1", "icerik": "?"}, format="json"), 201)
    assert op_ticket(operator_client, t["id"])["sla"]["sonraki_yanit"]["kalan_sn"] <= 15 * 60

    geri_al(t["id"], 30)  # past the cycle's due time: late
    cevap = ok(operator_client.post(f"{OP}/ticket/{t['id']}/reply", {"icerik": "Geç kaldık."}, format="json"), 201)
    assert cevap["ticket"]["sla"]["sonraki_yanit"]["durum"] == "ihlal"
    # Late, and the sweep had not seen it yet: announced by the reply, once.
    assert list(Olay.objects.filter(olay="sla_ihlal").values_list("veri__hedef", flat=True)) == ["sonraki_yanit"]
    sla_tara()
    assert Olay.objects.filter(olay="sla_ihlal").count() == 1
    # The next cycle starts fresh.
    ok(widget.post(f"{W}/{t['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Yeni soru."}, format="json"), 201)
    assert op_ticket(operator_client, t["id"])["sla"]["sonraki_yanit"]["durum"] == "bekliyor"


def test_resolution_pauses_while_beklemede_and_resumes_where_it_stopped(widget, musteri, operator_client,
                                                                           sahip_client):
    hedefli(sahip_client, musteri, ilk=None, sonraki=None, cozum=60)
    t = ac(widget)
    geri_al(t["id"], 10)
    durum = ok(operator_client.put(f"{OP}/ticket/{t['id']}/status", {"durum": "beklemede"}, format="json"))
    # A paused clock keeps the time it had left (CONTRACT 17, wave 4), in the answer and when read.
    duraklatildi = durum["ticket"]["sla"]["cozum"]
    assert duraklatildi["hedef"] is None and duraklatildi["durum"] == "duraklatildi"
    assert 50 * 60 - 10 <= duraklatildi["kalan_sn"] <= 50 * 60, duraklatildi
    geri_al(t["id"], 500)  # paused for a long time: counts nothing
    sla_tara()
    assert not Olay.objects.filter(olay__in=["sla_uyari", "sla_ihlal"]).exists()
    assert op_ticket(operator_client, t["id"])["sla"]["cozum"] == duraklatildi
    # The visitor's reply reopens it: 50 minutes left.
    ok(widget.post(f"{W}/{t['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Hâlâ bekliyorum."}, format="json"), 201)
    cozum = op_ticket(operator_client, t["id"])["sla"]["cozum"]
    assert cozum["durum"] == "bekliyor" and 50 * 60 - 10 <= cozum["kalan_sn"] <= 50 * 60
    geri_al(t["id"], 20)
    cozuldu = ok(operator_client.put(f"{OP}/ticket/{t['id']}/status", {"durum": "cozuldu"}, format="json"))
    assert cozuldu["ticket"]["sla"]["cozum"]["durum"] == "karsilandi"
    assert Ticket.objects.get(pk=t["id"]).sla_cozum_gecen_sn == pytest.approx(30 * 60, abs=10)


def test_solving_late_is_a_breach(widget, musteri, operator_client, sahip_client):
    hedefli(sahip_client, musteri, ilk=None, sonraki=None, cozum=60)
    t = ac(widget)
    geri_al(t["id"], 61)
    assert op_ticket(operator_client, t["id"])["sla"]["cozum"]["durum"] == "ihlal"
    cozuldu = ok(operator_client.put(f"{OP}/ticket/{t['id']}/status", {"durum": "cozuldu"}, format="json"))
    assert cozuldu["ticket"]["sla"]["cozum"]["durum"] == "ihlal"
    assert cozuldu["ticket"]["sla"]["cozum"]["kalan_sn"] is None


def test_a_priority_change_moves_the_due_times(widget, musteri, operator_client, sahip_client):
    politika(sahip_client, musteri, aktif=True, mesai_icinde=False, hedefler={
        "normal": {"ilk_yanit_dk": 60, "cozum_dk": 600}, "acil": {"ilk_yanit_dk": 15, "cozum_dk": 120}})
    t = ac(widget)
    geri_al(t["id"], 10)
    tk = Ticket.objects.get(pk=t["id"])
    # The priority's one writer (`ticket_duzenle`: this PATCH, the admin's form) moves the clocks in
    # the same write (issue 40: a direct call, no listener and no second UPDATE).
    sla = ok(operator_client.patch(f"{OP}/ticket/{t['id']}", {"oncelik": "acil"}, format="json"))["ticket"]["sla"]
    assert sla["ilk_yanit"]["hedef"] == (tk.olusturulma + timedelta(minutes=15)).isoformat()
    assert sla["cozum"]["hedef"] == (tk.olusturulma + timedelta(minutes=120)).isoformat()
    okunan = op_ticket(operator_client, t["id"])["sla"]
    assert okunan["ilk_yanit"]["hedef"] == sla["ilk_yanit"]["hedef"] and okunan["cozum"]["hedef"] == sla["cozum"]["hedef"]


def test_working_hours_only_count_with_mesai_icinde(widget, musteri, operator_client, sahip_client):
    # One hour a day open: a 90-minute target runs over two days' openings.
    musteri.saat_dilimi = "UTC"
    musteri.calisma_saatleri = {g: [["09:00", "10:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}
    musteri.save()
    hedefli(sahip_client, musteri, ilk=90, sonraki=None, cozum=None, mesai_icinde=True)
    t = ac(widget)
    tk = Ticket.objects.get(pk=t["id"])
    beklenen = Takvim("UTC", musteri.calisma_saatleri, []).vade(tk.olusturulma, timedelta(minutes=90))
    assert beklenen - tk.olusturulma > timedelta(hours=24)
    assert op_ticket(operator_client, t["id"])["sla"]["ilk_yanit"]["hedef"] == beklenen.isoformat()


# --- the list -------------------------------------------------------------------------------------
def test_list_filters_and_sort_in_one_query(widget, musteri, operator_client, sahip_client,
                                            django_assert_max_num_queries):
    hedefli(sahip_client, musteri, ilk=30, sonraki=None, cozum=None, uyari_dk=15)
    gec, yakin, uzak = ac(widget), ac(widget), ac(widget)
    hedefsiz = ac(widget, oncelik="dusuk")
    geri_al(gec["id"], 40)
    geri_al(yakin["id"], 20)

    def ids(**params):
        return [t["id"] for t in ok(operator_client.get(f"{OP}/tickets", params))["ticketlar"]]

    assert ids(sla="ihlal") == [gec["id"]]
    assert ids(sla="yaklasan") == [yakin["id"]]
    # A sort never filters (CONTRACT 17, wave 4): the ticket without a running clock follows.
    assert ids(siralama="sla") == [gec["id"], yakin["id"], uzak["id"], hedefsiz["id"]]
    assert hedefsiz["id"] in ids()
    # Keyset pages in the sla order, across the step from the running clocks to the rest.
    sayfa = ok(operator_client.get(f"{OP}/tickets", {"siralama": "sla", "limit": 2}))
    assert [t["id"] for t in sayfa["ticketlar"]] == [gec["id"], yakin["id"]]
    devam = ok(operator_client.get(f"{OP}/tickets", {"siralama": "sla", "limit": 2, "cursor": sayfa["sonraki"]}))
    assert [t["id"] for t in devam["ticketlar"]] == [uzak["id"], hedefsiz["id"]] and devam["sonraki"] is None
    # The met target leaves the clocked part; the ticket follows with the others, newest change first.
    ok(operator_client.post(f"{OP}/ticket/{gec['id']}/reply", {"icerik": "Geç ama geldik."}, format="json"), 201)
    assert ids(siralama="sla") == [yakin["id"], uzak["id"], gec["id"], hedefsiz["id"]]
    assert ids(sla="ihlal") == [gec["id"]]
    hata(operator_client.get(f"{OP}/tickets", {"sla": "bilmem"}), 400, "GECERSIZ_ISTEK")
    hata(operator_client.get(f"{OP}/tickets", {"siralama": "rastgele"}), 400, "GECERSIZ_ISTEK")

    for _ in range(5):
        ac(widget)
    # Same number of queries for 3 or 8 tickets with targets, whichever filter or sort.
    # As many queries as the plain list (tests/test_tickets: 4), for 8 tickets with targets.
    # `siralama=sla` reads its two parts (the clocked tickets by `ticket_sla_vade_idx`, then the
    # rest) in one query each when the first does not fill the page: one more, still flat.
    for params, en_cok in (({"sla": "ihlal"}, 5), ({"sla": "yaklasan"}, 5), ({"siralama": "sla"}, 6), ({}, 5)):
        with django_assert_max_num_queries(en_cok):
            ok(operator_client.get(f"{OP}/tickets", params))


def test_the_sla_sort_pages_through_the_tickets_without_a_clock_newest_change_first(widget, musteri, operator_client,
                                                                                    sahip_client):
    hedefli(sahip_client, musteri, ilk=30, sonraki=None, cozum=None)
    saatli = [ac(widget), ac(widget)]
    geri_al(saatli[0]["id"], 5)
    saatsiz = [ac(widget, oncelik="dusuk") for _ in range(3)]
    # The one changed last comes first among those without a clock.
    ok(operator_client.put(f"{OP}/ticket/{saatsiz[0]['id']}/status", {"durum": "beklemede"}, format="json"))
    beklenen = [saatli[0]["id"], saatli[1]["id"], saatsiz[0]["id"], saatsiz[2]["id"], saatsiz[1]["id"]]
    for limit in (1, 2, 3, 5, 50):
        gorulen, imlec = [], None
        for _ in range(10):
            params = {"siralama": "sla", "limit": limit, **({"cursor": imlec} if imlec else {})}
            sayfa = ok(operator_client.get(f"{OP}/tickets", params))
            gorulen += [t["id"] for t in sayfa["ticketlar"]]
            imlec = sayfa["sonraki"]
            if imlec is None:
                break
        assert gorulen == beklenen, (limit, gorulen)
    # Filters still filter under the sort; a forged cursor is still a 400.
    assert [t["id"] for t in ok(operator_client.get(f"{OP}/tickets", {"siralama": "sla", "oncelik": "dusuk"}))[
        "ticketlar"]] == beklenen[2:]
    hata(operator_client.get(f"{OP}/tickets", {"siralama": "sla", "cursor": "bozuk!"}), 400, "GECERSIZ_ISTEK")


def test_a_policy_switched_on_or_changed_starts_the_open_tickets_clocks_from_their_creation(
        widget, musteri, operator_client, sahip_client):
    acik, bekleyen, cozulen = ac(widget), ac(widget), ac(widget)
    for t in (acik, bekleyen, cozulen):
        geri_al(t["id"], 10)
    ok(operator_client.put(f"{OP}/ticket/{bekleyen['id']}/status", {"durum": "beklemede"}, format="json"))
    ok(operator_client.put(f"{OP}/ticket/{cozulen['id']}/status", {"durum": "cozuldu"}, format="json"))
    assert op_ticket(operator_client, acik["id"])["sla"] == {"ilk_yanit": None, "sonraki_yanit": None, "cozum": None}

    hedefli(sahip_client, musteri, ilk=30, sonraki=None, cozum=60)
    olusturulma = Ticket.objects.get(pk=acik["id"]).olusturulma
    sla = op_ticket(operator_client, acik["id"])["sla"]
    assert sla["ilk_yanit"]["hedef"] == (olusturulma + timedelta(minutes=30)).isoformat()
    assert sla["cozum"]["hedef"] == (olusturulma + timedelta(minutes=60)).isoformat()
    assert sla["ilk_yanit"]["durum"] == "bekliyor" and 20 * 60 - 10 <= sla["ilk_yanit"]["kalan_sn"] <= 20 * 60
    # `beklemede`: the first response runs, the resolution is paused with the time it had left.
    sla = op_ticket(operator_client, bekleyen["id"])["sla"]
    assert sla["ilk_yanit"]["durum"] == "bekliyor"
    assert sla["cozum"]["durum"] == "duraklatildi" and 50 * 60 - 10 <= sla["cozum"]["kalan_sn"] <= 50 * 60
    # A solved ticket is not open: no clock starts for it.
    assert op_ticket(operator_client, cozulen["id"])["sla"] == {"ilk_yanit": None, "sonraki_yanit": None, "cozum": None}
    # The open tickets are in the sort and due, as a new ticket would be.
    assert [t["id"] for t in ok(operator_client.get(f"{OP}/tickets", {"siralama": "sla"}))["ticketlar"]][:2] == [
        acik["id"], bekleyen["id"]]

    # Changed: the due times move to the new targets, still counted from creation.
    hedefli(sahip_client, musteri, ilk=30, sonraki=None, cozum=120)
    assert op_ticket(operator_client, acik["id"])["sla"]["cozum"]["hedef"] == (
        olusturulma + timedelta(minutes=120)).isoformat()
    assert 110 * 60 - 10 <= op_ticket(operator_client, bekleyen["id"])["sla"]["cozum"]["kalan_sn"] <= 110 * 60
    # Switched off: nothing runs any more.
    politika(sahip_client, musteri, aktif=False)
    assert op_ticket(operator_client, acik["id"])["sla"] == {"ilk_yanit": None, "sonraki_yanit": None, "cozum": None}
    assert ok(operator_client.get(f"{OP}/tickets", {"sla": "yaklasan"}))["ticketlar"] == []


def test_other_tenants_tickets_never_appear_in_sla_lists(widget, musteri, operator_client, sahip_client):
    baska = MusteriFactory()
    baska_sahip = op_client(operator_yap(baska, rol="sahip"))
    hedefli(baska_sahip, baska, ilk=1, sonraki=None, cozum=None)
    t = ac(widget_client(baska))
    geri_al(t["id"], 5)
    assert ok(operator_client.get(f"{OP}/tickets", {"sla": "ihlal"}))["ticketlar"] == []
    hata(operator_client.get(f"{OP}/ticket/{t['id']}"), 404, "BULUNAMADI")


# --- the sweep ------------------------------------------------------------------------------------
def test_warning_then_breach_each_once_with_webhook_and_mail(widget, musteri, operator, operator_client,
                                                             sahip, sahip_client, django_capture_on_commit_callbacks):
    hedefli(sahip_client, musteri, ilk=30, sonraki=None, cozum=None, uyari_dk=10)
    t = ac(widget)
    sla_tara()
    assert not Olay.objects.filter(olay__in=["sla_uyari", "sla_ihlal"]).exists()
    geri_al(t["id"], 21)
    sla_tara()
    sla_tara()
    tk = Ticket.objects.get(pk=t["id"])
    uyari = Olay.objects.get(olay="sla_uyari")
    assert uyari.musteri_id == musteri.id
    assert uyari.veri == {"ticket_id": t["id"], "musteri_id": musteri.id, "hedef": "ilk_yanit",
                          "son_zaman": tk.sla_ilk_vade.isoformat(), "operator_id": None, "etiketler": [],
                          "ekip_id": None}
    assert not Olay.objects.filter(olay="sla_ihlal").exists()
    geri_al(t["id"], 10)
    with django_capture_on_commit_callbacks(execute=True):
        sla_tara()
    sla_tara()
    ihlal = Olay.objects.get(olay="sla_ihlal")
    assert ihlal.veri["hedef"] == "ilk_yanit" and ihlal.veri["ticket_id"] == t["id"]
    assert Olay.objects.filter(olay="sla_uyari").count() == 1
    # The mail: members with e-mail alerts on (the owner by default; not the plain operator).
    alicilar = set(GidenEposta.objects.filter(tur="sla_ihlal").values_list("alici", flat=True))
    assert alicilar == {sahip.email}
    assert op_ticket(operator_client, t["id"])["sla"]["ilk_yanit"]["durum"] == "ihlal"


def test_the_owner_id_travels_in_the_webhook(widget, musteri, operator, sahip_client):
    hedefli(sahip_client, musteri, ilk=5, sonraki=None, cozum=None, uyari_dk=1)
    t = ac(widget)
    Ticket.objects.filter(pk=t["id"]).update(operator=operator)
    geri_al(t["id"], 6)
    sla_tara()
    # Already past the due time: the warning is not sent late, only the breach.
    assert list(Olay.objects.filter(olay__startswith="sla").values_list("olay", "veri__operator_id")) == [
        ("sla_ihlal", operator.id)]


def test_uyari_dk_change_moves_pending_warnings(widget, musteri, sahip_client):
    hedefli(sahip_client, musteri, ilk=60, sonraki=None, cozum=None, uyari_dk=10)
    t = ac(widget)
    geri_al(t["id"], 40)
    sla_tara()
    assert not Olay.objects.filter(olay="sla_uyari").exists()
    politika(sahip_client, musteri, uyari_dk=30)
    sla_tara()
    assert Olay.objects.filter(olay="sla_uyari").count() == 1


def test_sweep_query_count_does_not_grow_with_tickets_not_due(widget, musteri, sahip_client):
    hedefli(sahip_client, musteri, ilk=60, sonraki=60, cozum=600)
    for _ in range(3):
        ac(widget)
    with CaptureQueriesContext(connection) as once:
        sla_tara()
    for _ in range(5):
        ac(widget)
    with CaptureQueriesContext(connection) as sonra:
        sla_tara()
    assert len(once) == len(sonra)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_concurrent_sweeps_announce_each_warning_and_breach_exactly_once():
    musteri = MusteriFactory()
    operator_yap(musteri, rol="sahip")
    SlaPolitikasi.objects.create(musteri=musteri, aktif=True, mesai_icinde=False, uyari_dk=10,
                                 hedefler={"normal": {"ilk_yanit_dk": 30, "cozum_dk": 60}})
    idler = [ticket_olustur(musteri=musteri, ziyaretci_id=f"z{i}", konu="k", mesaj="m").id for i in range(30)]
    for i in idler:
        geri_al(i, 25)  # `ilk_yanit` warnings due
    simdi = timezone.now()
    _hep_birlikte(*[lambda: sla_modulu.tara(simdi=simdi, parti=7) for _ in range(2)])
    assert Olay.objects.filter(olay="sla_uyari").count() == 30
    for i in idler:
        geri_al(i, 27)  # `ilk_yanit` breached, `cozum` warnings due
    simdi = timezone.now()
    _hep_birlikte(*[lambda: sla_modulu.tara(simdi=simdi, parti=7) for _ in range(2)])
    assert Olay.objects.filter(olay="sla_ihlal").count() == 30
    assert Olay.objects.filter(olay="sla_uyari").count() == 60
    anahtarlar = list(Olay.objects.filter(olay__startswith="sla_").values_list("olay", "veri__ticket_id", "veri__hedef"))
    assert len(anahtarlar) == len(set(anahtarlar)) == 90


def test_a_solved_ticket_reopened_by_the_visitor_runs_its_resolution_clock_again(widget, musteri, operator_client,
                                                                                   sahip_client):
    hedefli(sahip_client, musteri, ilk=None, sonraki=None, cozum=60)
    t = ac(widget)
    geri_al(t["id"], 20)
    ok(operator_client.put(f"{OP}/ticket/{t['id']}/status", {"durum": "cozuldu"}, format="json"))
    geri_al(t["id"], 300)
    ok(widget.post(f"{W}/{t['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Sorun geri geldi."}, format="json"), 201)
    cozum = op_ticket(operator_client, t["id"])["sla"]["cozum"]
    assert cozum["durum"] == "bekliyor" and 40 * 60 - 10 <= cozum["kalan_sn"] <= 40 * 60


def test_the_sweep_is_on_the_beat_timetable_and_known_by_name(settings):
    tanim = settings.CELERY_BEAT_SCHEDULE["sla-tarama"]
    assert tanim["task"] == "tickets.sla_tara" and tanim["schedule"] <= 60
    current_app.loader.import_default_modules()
    assert current_app.tasks["tickets.sla_tara"].name == "tickets.sla_tara"
