"""After a reload the widget gets the chat that just ended (issue 13): `widget/init` answers
`son_oturum`, the visitor's newest chat closed within 24 hours, in the same one query."""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Oturum
from chat.tests.yardimci import W_BITIR, baslat, ok, widget_client

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"


def test_init_son_kapanan_sohbeti_verir_acik_olan_once_gelir(musteri, django_assert_max_num_queries):
    widget = widget_client(musteri)
    assert ok(widget.post(INIT, {"ziyaretci_id": "z-1"}, format="json"))["son_oturum"] is None
    o = baslat(widget, mesaj="Selam")
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    with django_assert_max_num_queries(2):  # tenant by key + the chat with operators online
        data = ok(widget.post(INIT, {"ziyaretci_id": "z-1"}, format="json"))
    assert data["oturum"] is None
    assert (data["son_oturum"]["id"], data["son_oturum"]["durum"], data["son_oturum"]["puan"]) == (o["id"], "kapandi", None)
    # another visitor does not see it
    assert ok(widget.post(INIT, {"ziyaretci_id": "z-2"}, format="json"))["son_oturum"] is None
    # a new open chat wins over the closed one
    yeni = baslat(widget, mesaj="Yine ben")
    data = ok(widget.post(INIT, {"ziyaretci_id": "z-1"}, format="json"))
    assert data["oturum"]["id"] == yeni["id"] and data["son_oturum"] is None


def test_bir_gunden_eski_sohbet_geri_gelmez(musteri):
    widget = widget_client(musteri)
    o = baslat(widget, mesaj="Selam")
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    Oturum.objects.filter(pk=o["id"]).update(bitis_zamani=timezone.now() - timedelta(hours=25))
    assert ok(widget.post(INIT, {"ziyaretci_id": "z-1"}, format="json"))["son_oturum"] is None
