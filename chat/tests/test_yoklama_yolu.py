"""The widget's hot path (poll and visitor message) runs hand-written SQL (docs/performance.md):
its answers must be exactly what the ORM-built objects give, on SQLite and on PostgreSQL."""
import base64
import json
import os
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.utils import timezone

from chat.api.serializers import widget_oturum_verisi
from chat.models import Mesaj, Oturum
from supportdesk.testing.factories import MusteriFactory
from tenants.tests.test_auth import hata

from .test_widget_chat import yukle
from .yardimci import W_MESAJ, W_MESAJLAR, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def yokla(widget, oturum_id, ziyaretci_id="z", **params) -> dict:
    return ok(widget.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id, **params}))


def _bekleyenler(musteri, *, once: int, sonra: int) -> None:
    """Chats of other visitors in the same queue: `once` started earlier, `sonra` later."""
    simdi = timezone.now()
    Oturum.objects.bulk_create(
        [Oturum(musteri=musteri, ziyaretci_id=f"once-{i}", baslangic=simdi - timedelta(minutes=10 - i)) for i in range(once)]
        + [Oturum(musteri=musteri, ziyaretci_id=f"sonra-{i}", baslangic=simdi + timedelta(minutes=1 + i))
           for i in range(sonra)]
    )


def _durum(client, durum: str) -> None:
    ok(client.post("/api/v1/operator/status", {"durum": durum}, format="json"))


def _beklenen(oturum_id: int, *, sira_no, cevrimici_operator: bool) -> dict:
    return widget_oturum_verisi(Oturum.objects.get(pk=oturum_id), sira_no=sira_no, cevrimici_operator=cevrimici_operator)


def test_bekleyen_sohbetin_yoklamasi_orm_ile_ayni(musteri):
    widget = widget_client(musteri)
    _bekleyenler(musteri, once=3, sonra=2)
    o = baslat(widget, "z", ad="Ayşe", email="ayse@example.com", mesaj="Merhaba")
    # An online operator of another tenant and an online but deactivated member do not count.
    _, baska = operator_istemcisi(MusteriFactory())
    _durum(baska, "cevrimici")
    pasif, pasif_client = operator_istemcisi(musteri)
    _durum(pasif_client, "mesgul")
    pasif.is_active = False
    pasif.save(update_fields=["is_active"])

    data = yokla(widget, o["id"])
    assert data["oturum"] == _beklenen(o["id"], sira_no=4, cevrimici_operator=False)
    assert data["sira_no"] == 4 and data["cevrimici_operator"] is False
    # Started with nobody of the tenant reachable: offered a ticket at once (CONTRACT 15).
    assert data["oturum"]["ticket_onerisi"] is True
    assert [m["gonderen"] for m in data["mesajlar"]] == ["ziyaretci", "sistem"] and data["sonraki"] is None

    _, client = operator_istemcisi(musteri)
    _durum(client, "mesgul")
    data = yokla(widget, o["id"])
    assert data["oturum"]["cevrimici_operator"] is True and data["cevrimici_operator"] is True
    # Same start time as the one before it: the lower id is served first.
    Oturum.objects.filter(ziyaretci_id="once-2").update(baslangic=Oturum.objects.get(pk=o["id"]).baslangic)
    assert yokla(widget, o["id"])["sira_no"] == 4


@pytest.mark.parametrize("son_durum", ["aktif", "kapandi"])
def test_aktif_ve_kapanan_sohbetin_yoklamasi_orm_ile_ayni(musteri, son_durum):
    widget = widget_client(musteri)
    _bekleyenler(musteri, once=2, sonra=0)
    o = baslat(widget, "z", mesaj="Merhaba")
    _, client = operator_istemcisi(musteri)
    _durum(client, "cevrimici")
    ok(client.post(op_url(o["id"], "accept")))
    ok(client.post(op_url(o["id"], "message"), {"icerik": "Buyrun"}, format="json"), 201)
    if son_durum == "kapandi":
        ok(client.post(op_url(o["id"], "close")))

    data = yokla(widget, o["id"])
    # Not waiting: no queue place; operators online is still told (docs/api.md "Chat").
    assert data["oturum"] == _beklenen(o["id"], sira_no=None, cevrimici_operator=True)
    assert data["sira_no"] is None and data["cevrimici_operator"] is True
    assert data["oturum"]["durum"] == son_durum and data["oturum"]["operator_id"] is not None
    assert data["oturum"]["kabul_zamani"] is not None


def test_yoklama_ekli_mesajlar_imlec_ve_sonra_birlikte(musteri, nobetci, django_assert_max_num_queries):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    dosya = yukle(widget, "z")
    for i in range(5):
        govde = {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": f"m{i}", **({"ek_id": dosya["id"]} if i % 2 else {})}
        ok(widget.post(W_MESAJ, govde, format="json"), 201)
    ids = list(Mesaj.objects.filter(oturum_id=o["id"]).order_by("id").values_list("id", flat=True))

    with django_assert_max_num_queries(3):  # tenant, chat, one page with its attachments
        ilk = yokla(widget, o["id"], sonra=ids[0], limit=2)
    assert [m["icerik"] for m in ilk["mesajlar"]] == ["m1", "m2"] and ilk["sonraki"]
    assert ilk["mesajlar"][0]["ek"] == dosya and ilk["mesajlar"][1]["ek"] is None
    assert ilk["mesajlar"][0] == {"id": ids[1], "oturum_id": o["id"], "gonderen": "ziyaretci", "operator_id": None,
                                  "operator_adi": None, "operator_avatar": None, "icerik": "m1", "ek": dosya,
                                  "zaman": Mesaj.objects.get(pk=ids[1]).zaman.isoformat(), "ozel": False}
    son = yokla(widget, o["id"], sonra=ids[0], limit=2, cursor=ilk["sonraki"])
    assert [m["icerik"] for m in son["mesajlar"]] == ["m3", "m4"] and son["sonraki"] is None
    # A `sonra` beyond the cursor wins, and the other way round.
    assert [m["icerik"] for m in yokla(widget, o["id"], sonra=ids[3], cursor=ilk["sonraki"])["mesajlar"]] == ["m4"]
    assert [m["icerik"] for m in yokla(widget, o["id"], sonra=0, cursor=ilk["sonraki"])["mesajlar"]] == ["m3", "m4"]


def _imlec(deger) -> str:
    return base64.urlsafe_b64encode(json.dumps([deger]).encode()).decode().rstrip("=")


def test_yoklama_sinir_disi_sonra_ve_imlec_bos_liste(musteri, nobetci):
    widget = widget_client(musteri)
    o = baslat(widget, "z", mesaj="Merhaba")
    for sonra in (2**63 - 1, 2**63, 10**30):
        data = yokla(widget, o["id"], sonra=sonra)
        assert data["mesajlar"] == [] and data["sonraki"] is None and data["sira_no"] == 1
    for deger in (2**63, 10**30):
        assert yokla(widget, o["id"], cursor=_imlec(deger))["mesajlar"] == []
    assert [m["icerik"] for m in yokla(widget, o["id"], cursor=_imlec(-5))["mesajlar"]] == ["Merhaba"]
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "cursor": "bozuk"}), 400, "GECERSIZ_ISTEK")


def test_baska_ziyaretcinin_ve_projenin_sohbeti_yoklanamaz(musteri):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "baskasi", "oturum_id": o["id"]}), 404, "BULUNAMADI")
    hata(widget_client(MusteriFactory()).get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"]}), 404, "BULUNAMADI")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": 2**63}), 404, "BULUNAMADI")


def test_ziyaretci_mesaji_onizleme_ve_okunmamis_gunceller(musteri):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    _, client = operator_istemcisi(musteri)
    for _ in range(2):
        ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "  çok   satırlı\nmesaj  "},
                       format="json"), 201)
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.son_mesaj, oturum.okunmamis) == ("çok satırlı mesaj", 2)
    ok(client.post(op_url(o["id"], "accept")))
    ok(client.post(op_url(o["id"], "message"), {"icerik": "x" * 200}, format="json"), 201)
    oturum.refresh_from_db()
    assert (oturum.son_mesaj, oturum.okunmamis) == ("x" * 119 + "…", 0)
    ok(client.post(op_url(o["id"], "close")))
    oturum.refresh_from_db()
    # The close's `sistem` line is no preview (issue 39): the last thing someone wrote stays.
    assert (oturum.son_mesaj, oturum.okunmamis) == ("x" * 119 + "…", 0)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="gerçek Redis ister (REDIS_URL)")
def test_widget_limiti_redis_uzerinde(musteri, settings):
    # The limit lives in Redis, shared by every process: clearing the store lifts it.
    settings.WIDGET_RATE_LIMIT = "3/min"
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    for _ in range(2):
        yokla(widget, o["id"])
    res = widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"]})
    hata(res, 429, "LIMIT_ASILDI")
    assert int(res["Retry-After"]) >= 1
    caches["default"].clear()
    yokla(widget, o["id"])
