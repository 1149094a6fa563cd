"""CONTRACT 24, snooze: `POST`/`DELETE .../ertele` on chats and tickets, its bad inputs, and the
three ways back: the visitor writes, the time comes (the periodic sweep, called with its `simdi`),
or an operator wakes it."""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat import services as chat_services
from chat.models import Oturum
from chat.tests.yardimci import CHATS, W_MESAJ, baslat, ok, op_url, operator_istemcisi
from supportdesk.core.fields import utc_iso
from supportdesk.testing.fixtures import widget_client
from tickets import services as ticket_services
from tickets.models import Ticket

from .test_gorunumler import GORUNUMLER, TICKETS, hata

pytestmark = pytest.mark.django_db


def t_url(ticket_id, islem: str = "ertele") -> str:
    return f"/api/v1/operator/ticket/{ticket_id}/{islem}"


def t_detay(ticket_id) -> str:
    return f"/api/v1/operator/ticket/{ticket_id}"


def _sonra(**kac):
    return utc_iso(timezone.now() + timedelta(**kac))


@pytest.fixture
def ortam(musteri):
    ben, client = operator_istemcisi(musteri, durum="cevrimici")
    widget = widget_client(musteri)
    oturum = baslat(widget, "z1", mesaj="Merhaba")
    ok(client.post(op_url(oturum["id"], "accept")))
    ticket = ok(widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M"},
                            format="json"), 201)["ticket"]
    return ben, client, widget, oturum, ticket


def _sayilar(client) -> dict:
    return ok(client.get(GORUNUMLER))["gorunumler"]


def test_a_snoozed_chat_keeps_its_state_and_operator_and_leaves_every_view_but_snoozed(ortam):
    ben, client, _, oturum, _ = ortam
    kadar = _sonra(hours=2)
    veri = ok(client.post(op_url(oturum["id"], "ertele"), {"kadar": kadar}, format="json"))["oturum"]
    assert (veri["durum"], veri["operator_id"], veri["ertelendi_kadar"]) == ("aktif", ben.id, kadar)
    assert _sayilar(client)["chat"] == {"acik": 0, "atanmamis": 0, "benim": 0, "ertelenen": 1}
    assert [o["id"] for o in ok(client.get(CHATS, {"gorunum": "ertelenen"}))["oturumlar"]] == [oturum["id"]]
    # Until the visitor writes: the shape says so.
    veri = ok(client.post(op_url(oturum["id"], "ertele"), {"kadar": None}, format="json"))["oturum"]
    assert veri["ertelendi_kadar"] == "ziyaretci"
    # DELETE wakes it at once; a second DELETE changes nothing.
    for _ in range(2):
        veri = ok(client.delete(op_url(oturum["id"], "ertele")))["oturum"]
        assert (veri["ertelendi_kadar"], veri["durum"], veri["operator_id"]) == (None, "aktif", ben.id)
    assert _sayilar(client)["chat"] == {"acik": 1, "atanmamis": 0, "benim": 1, "ertelenen": 0}


def test_a_snoozed_ticket_keeps_its_state_and_owner(ortam):
    ben, client, _, _, ticket = ortam
    ok(client.patch(t_detay(ticket["id"]), {"operator_id": ben.id}, format="json"))
    kadar = _sonra(days=3)
    veri = ok(client.post(t_url(ticket["id"]), {"kadar": kadar}, format="json"))["ticket"]
    assert (veri["durum"], veri["operator_id"], veri["ertelendi_kadar"]) == ("acik", ben.id, kadar)
    assert _sayilar(client)["ticket"] == {"acik": 0, "atanmamis": 0, "benim": 0, "ertelenen": 1}
    assert ok(client.get(TICKETS, {"gorunum": "benim"}))["ticketlar"] == []
    veri = ok(client.delete(t_url(ticket["id"])))["ticket"]
    assert veri["ertelendi_kadar"] is None
    assert _sayilar(client)["ticket"]["benim"] == 1


@pytest.mark.parametrize("govde", [
    {}, {"kadar": "yarın"}, {"kadar": 1234567890}, {"kadar": "2030-01-01T10:00:00"},  # no offset
    {"kadar": "2020-01-01T10:00:00+00:00"},  # past
    {"kadar": "2099-01-01T10:00:00+00:00"},  # too far
    {"kadar": "2030-13-01T10:00:00+00:00"}, {"kadar": "2030-01-01T10:00:00+99:00"},  # well-formed, impossible (a 500)
])
def test_a_bad_time_is_a_400_naming_kadar_and_changes_nothing(ortam, govde):
    _, client, _, oturum, ticket = ortam
    for yol in (op_url(oturum["id"], "ertele"), t_url(ticket["id"])):
        assert "kadar" in hata(client.post(yol, govde, format="json"), 400, "GECERSIZ_ISTEK")["alanlar"]
    assert not Oturum.objects.filter(ertelendi_ziyaretci=True).exists()
    assert not Ticket.objects.filter(ertelendi_ziyaretci=True).exists()


def test_a_body_that_is_not_an_object_is_a_400(ortam):
    _, client, _, oturum, _ = ortam
    hata(client.post(op_url(oturum["id"], "ertele"), [1], format="json"), 400, "GECERSIZ_ISTEK")


def test_closed_items_cannot_be_snoozed(ortam):
    _, client, _, oturum, ticket = ortam
    ok(client.post(op_url(oturum["id"], "close")))
    hata(client.post(op_url(oturum["id"], "ertele"), {"kadar": None}, format="json"), 409, "DURUM_CAKISMASI")
    ok(client.put(t_url(ticket["id"], "status"), {"durum": "cozuldu"}, format="json"))
    hata(client.post(t_url(ticket["id"]), {"kadar": None}, format="json"), 409, "DURUM_CAKISMASI")


def test_another_tenants_items_are_404(ortam, diger_musteri):
    _, client, _, oturum, ticket = ortam
    _, yabanci = operator_istemcisi(diger_musteri)
    for yol in (op_url(oturum["id"], "ertele"), t_url(ticket["id"])):
        hata(yabanci.post(yol, {"kadar": None}, format="json"), 404, "BULUNAMADI")
        hata(yabanci.delete(yol), 404, "BULUNAMADI")
    hata(client.post(op_url(10**9, "ertele"), {"kadar": None}, format="json"), 404, "BULUNAMADI")


def test_a_plain_operator_cannot_snooze_a_colleagues_active_chat(ortam, musteri):
    # CONTRACT 3a (wave 4): that is stepping in, for `yonetici` and `sahip` only.
    _, _, _, oturum, _ = ortam
    _, meslektas = operator_istemcisi(musteri)
    hata(meslektas.post(op_url(oturum["id"], "ertele"), {"kadar": None}, format="json"), 409, "DURUM_CAKISMASI")
    _, yonetici = operator_istemcisi(musteri, rol="yonetici")
    ok(yonetici.post(op_url(oturum["id"], "ertele"), {"kadar": None}, format="json"))


def test_the_visitors_message_wakes_the_chat_and_its_reply_the_ticket(ortam):
    _, client, widget, oturum, ticket = ortam
    ok(client.post(op_url(oturum["id"], "ertele"), {"kadar": _sonra(days=1)}, format="json"))
    ok(client.post(t_url(ticket["id"]), {"kadar": None}, format="json"))
    assert _sayilar(client)["chat"]["ertelenen"] == _sayilar(client)["ticket"]["ertelenen"] == 1
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z1", "oturum_id": oturum["id"], "icerik": "Hâlâ bekliyorum"},
                   format="json"), 201)
    ok(widget.post(f"/api/v1/widget/ticket/{ticket['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Ek bilgi"},
                   format="json"), 201)
    sayilar = _sayilar(client)
    assert sayilar["chat"] == {"acik": 1, "atanmamis": 0, "benim": 1, "ertelenen": 0}
    assert sayilar["ticket"]["ertelenen"] == 0 and sayilar["ticket"]["acik"] == 1


def test_a_first_message_sent_again_through_chat_start_wakes_the_chat_too(ortam):
    _, client, widget, oturum, _ = ortam
    ok(client.post(op_url(oturum["id"], "ertele"), {"kadar": None}, format="json"))
    assert baslat(widget, "z1", status=200, mesaj="Yine ben")["id"] == oturum["id"]
    assert Oturum.objects.get(pk=oturum["id"]).ertelendi_ziyaretci is False


def test_the_periodic_sweep_wakes_what_is_due_and_nothing_else(ortam, musteri):
    _, client, widget, oturum, ticket = ortam
    ikinci = baslat(widget, "z2")  # waiting, no operator: back in the queue when it wakes
    ok(client.post(op_url(oturum["id"], "ertele"), {"kadar": _sonra(minutes=10)}, format="json"))
    ok(client.post(op_url(ikinci["id"], "ertele"), {"kadar": _sonra(hours=5)}, format="json"))
    ok(client.post(t_url(ticket["id"]), {"kadar": _sonra(minutes=10)}, format="json"))
    simdi = timezone.now() + timedelta(minutes=11)
    assert chat_services.ertelenen_oturumlari_uyandir(simdi=simdi) == 1
    assert ticket_services.ertelenen_ticketlari_uyandir(simdi=simdi) == 1
    assert chat_services.ertelenen_oturumlari_uyandir(simdi=simdi) == 0  # a second run does nothing
    assert Oturum.objects.get(pk=oturum["id"]).ertelendi_kadar is None
    assert Oturum.objects.get(pk=ikinci["id"]).ertelendi_kadar is not None
    assert Ticket.objects.get(pk=ticket["id"]).ertelendi_kadar is None
    assert chat_services.ertelenen_oturumlari_uyandir(simdi=simdi + timedelta(hours=5)) == 1
    assert _sayilar(client)["chat"] == {"acik": 2, "atanmamis": 1, "benim": 1, "ertelenen": 0}


def test_the_sweep_is_in_the_beat_timetable_and_runs_within_a_minute(settings):
    gorevler = {t["task"]: t["schedule"] for t in settings.CELERY_BEAT_SCHEDULE.values()}
    for gorev in ("chat.ertelenenleri_uyandir", "tickets.ertelenenleri_uyandir"):
        assert gorevler[gorev] <= 60, gorev


def test_the_widget_shape_never_carries_the_snooze(ortam):
    _, client, widget, oturum, _ = ortam
    ok(client.post(op_url(oturum["id"], "ertele"), {"kadar": None}, format="json"))
    veri = ok(widget.get("/api/v1/widget/chat/messages", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}))
    assert "ertelendi_kadar" not in veri["oturum"]


def test_the_ticket_detail_carries_the_snooze(ortam):
    _, client, _, _, ticket = ortam
    ok(client.post(t_url(ticket["id"]), {"kadar": None}, format="json"))
    detay = ok(client.get(t_detay(ticket["id"])))["ticket"]
    assert detay["ertelendi_kadar"] == "ziyaretci"
