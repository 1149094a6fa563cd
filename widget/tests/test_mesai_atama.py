"""CONTRACT 15 as amended in wave 4 (issue 39): no automatic assignment while the tenant is closed.
A chat started outside hours waits with the ticket offer, whoever is online; an operator may still
take it by hand; the queue is not drained while closed; and one "open now" decision per request
feeds routing and the answer alike.

Transactional: routing's later moves (a queue drained after a close) are after-commit hooks."""
import datetime as dt
from unittest import mock

import pytest

from chat import tasks
from chat.models import Mesaj, Oturum
from chat.tests.test_atama import cevrimici_operator, mod
from chat.tests.yardimci import W_MESAJLAR, ok, op_url, widget_client
from supportdesk.testing.factories import MusteriFactory
from tenants.ayarlar import TICKET_TEKLIFI
from tenants.takvim import Takvim

from .test_mesai import HER_GUN, bugun_tatil

pytestmark = pytest.mark.django_db(transaction=True)
START = "/api/v1/widget/chat/start"


def _baslat(widget, ziyaretci_id, status=201):
    return ok(widget.post(START, {"ziyaretci_id": ziyaretci_id, "mesaj": "Merhaba"}, format="json"), status)


def _satirlar(oturum_id):
    return list(Mesaj.objects.filter(oturum_id=oturum_id).order_by("id").values_list("gonderen", "icerik"))


@pytest.mark.parametrize("atama_modu", ["sirayla", "en_az_yuklu"])
def test_closed_automatic_tenant_leaves_a_new_chat_waiting_with_the_offer(atama_modu):
    musteri = MusteriFactory()
    mod(musteri, atama_modu)
    operator, op = cevrimici_operator(musteri)  # reachable, `cevrimici`, below its cap: eligible
    bugun_tatil(musteri, mesaj="Bugün tatildeyiz.")
    widget = widget_client(musteri)

    data = _baslat(widget, "z-1")
    oturum = data["oturum"]
    assert (oturum["durum"], oturum["operator_id"], oturum["ticket_onerisi"]) == ("bekliyor", None, True), data
    assert data["mesai"]["acik"] is False and data["mesai"]["mesaj"] == "Bugün tatildeyiz."
    # one sistem line: the closed text and the offer; never "… sohbete katıldı."
    assert _satirlar(oturum["id"]) == [("ziyaretci", "Merhaba"), ("sistem", f"Bugün tatildeyiz. {TICKET_TEKLIFI}")]

    # a poll, and the periodic sweep, keep it waiting: nothing is assigned while closed
    tasks.atama_taramasi()
    polled = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": oturum["id"]}))
    assert polled["oturum"]["durum"] == "bekliyor" and polled["oturum"]["operator_id"] is None
    assert polled["mesai"]["acik"] is False

    # the operator may still take it by hand; from then on the chat is served as any accepted one
    ok(op.post(op_url(oturum["id"], "accept"), format="json"))
    polled = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": oturum["id"]}))
    assert polled["oturum"]["durum"] == "aktif" and polled["oturum"]["operator_id"] == operator.pk
    assert polled["oturum"]["ticket_onerisi"] is False


def test_closed_queue_is_not_drained_and_opening_hours_drain_it():
    musteri = MusteriFactory()
    mod(musteri, "sirayla")
    operator, op = cevrimici_operator(musteri, max_chat=1)
    widget = widget_client(musteri)
    # inside hours: the first chat is assigned and fills the operator's cap
    ilk = _baslat(widget, "z-1")["oturum"]
    assert ilk["durum"] == "aktif" and ilk["operator_id"] == operator.pk
    # then the tenant closes (a holiday today); a second chat waits with the offer
    bugun_tatil(musteri)
    ikinci = _baslat(widget, "z-2")["oturum"]
    assert ikinci["durum"] == "bekliyor" and ikinci["ticket_onerisi"] is True
    # a place frees while closed: the waiting chat is not handed to the operator
    ok(op.post(op_url(ilk["id"], "close"), format="json"))
    tasks.atama_taramasi()
    assert Oturum.objects.get(pk=ikinci["id"]).durum == "bekliyor"
    # the tenant opens again: the sweep (every few seconds) assigns the oldest waiting chat
    musteri.tatiller = []
    musteri.save(update_fields=["tatiller"])
    tasks.atama_taramasi()
    o = Oturum.objects.get(pk=ikinci["id"])
    assert (o.durum, o.operator_id) == ("aktif", operator.pk)


def test_closed_an_unreachable_operators_chat_goes_back_to_the_queue_not_to_a_colleague():
    musteri = MusteriFactory()
    mod(musteri, "sirayla")
    ilk_op, op1 = cevrimici_operator(musteri)
    widget = widget_client(musteri)
    oturum = _baslat(widget, "z-1")["oturum"]
    assert oturum["operator_id"] == ilk_op.pk
    ikinci_op, _ = cevrimici_operator(musteri)  # a colleague online: eligible if the tenant were open
    bugun_tatil(musteri)
    ok(op1.post("/api/v1/operator/status", {"durum": "cevrimdisi"}, format="json"))
    o = Oturum.objects.get(pk=oturum["id"])
    assert (o.durum, o.operator_id) == ("bekliyor", None), ikinci_op


def test_one_open_now_decision_feeds_routing_and_the_answer():
    """The tenant opens while the start is being served (a clock crossing the start of a slot between
    two readings): the first instant asked is closed, any later one open. Routing and the answer's
    `mesai` agree whatever happens: never an operator assigned under a "closed" answer."""
    musteri = MusteriFactory()
    mod(musteri, "sirayla", calisma_saatleri=HER_GUN)
    cevrimici_operator(musteri)
    widget = widget_client(musteri)
    asil = Takvim.acik_mi
    ilk_an: list[dt.datetime] = []

    def acilirken(self, an):
        if not ilk_an:
            ilk_an.append(an)
        return an > ilk_an[0] and asil(self, an)

    with mock.patch.object(Takvim, "acik_mi", acilirken):
        data = _baslat(widget, "z-1")
    oturum = data["oturum"]
    # decided closed once: it waits with the offer, and the answer says closed
    assert (oturum["durum"], oturum["operator_id"], data["mesai"]["acik"]) == ("bekliyor", None, False), data
    assert oturum["ticket_onerisi"] is True
    assert [g for g, _ in _satirlar(oturum["id"])] == ["ziyaretci", "sistem"]
