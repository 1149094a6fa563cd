"""Races on PostgreSQL with real connections (CONTRACT 25): a new visitor's first chat and tickets at
the same moment make one contact, never two and never an orphan; two merges of one pair, one wins."""
from functools import partial

import pytest
from django.db import connection

from chat.tests.test_yarislar import ayni_anda, kopya
from chat.tests.yardimci import START, operator_istemcisi, widget_client
from kisiler.models import Kisi, KisiZiyaretci

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="yarış testleri PostgreSQL ister"),
]
TICKET = "/api/v1/widget/ticket/create"


def test_ilk_sohbet_ve_talepler_ayni_anda_tek_kisi(musteri):
    widget = widget_client(musteri)
    istemciler = [kopya(widget) for _ in range(6)]
    isler = [partial(istemciler[0].post, START, {"ziyaretci_id": "z-yaris", "ad": "Ayşe"}, format="json")]
    isler += [partial(c.post, TICKET, {"ziyaretci_id": "z-yaris", "konu": "k", "mesaj": "m"}, format="json")
              for c in istemciler[1:]]
    sonuclar = ayni_anda(isler)
    assert [getattr(r, "status_code", r) for r in sonuclar] == [201] * 6, sonuclar
    assert Kisi.objects.filter(musteri=musteri).count() == 1
    assert list(KisiZiyaretci.objects.filter(musteri=musteri).values_list("ziyaretci_id", flat=True)) == ["z-yaris"]


def test_ayni_ciftin_iki_birlestirmesi(musteri):
    widget = widget_client(musteri)
    for z in ("z-1", "z-2"):
        assert widget.post(START, {"ziyaretci_id": z}, format="json").status_code == 201
    bir, iki = Kisi.objects.filter(musteri=musteri).order_by("id")
    _, yonetici = operator_istemcisi(musteri, rol="yonetici")
    url = f"/api/v1/operator/kisiler/{bir.pk}/birlestir"
    istemciler = [kopya(yonetici) for _ in range(3)]
    sonuclar = ayni_anda([partial(c.post, url, {"kisi_id": iki.pk}, format="json") for c in istemciler])
    durumlar = sorted(r.status_code for r in sonuclar)
    assert durumlar[0] == 200 and all(d == 404 for d in durumlar[1:]), [r.content for r in sonuclar]
    assert list(Kisi.objects.filter(musteri=musteri).values_list("pk", flat=True)) == [bir.pk]
    assert sorted(KisiZiyaretci.objects.filter(kisi=bir).values_list("ziyaretci_id", flat=True)) == ["z-1", "z-2"]
