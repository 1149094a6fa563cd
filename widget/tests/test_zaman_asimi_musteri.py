"""The time-outs by each tenant's own settings (CONTRACT 15: `bekleme_zaman_asimi_dk`,
`sessiz_kapatma_dk`), set through the settings API, and two sweeps at once acting once."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from chat.models import Mesaj, Oturum
from chat.tasks import zaman_asimlari
from chat.tests.yardimci import baslat, ok, op_url, operator_istemcisi, widget_client
from supportdesk.testing.factories import MusteriFactory

pytestmark = pytest.mark.django_db


def _ayarla(musteri, **ayarlar):
    _, sahip = operator_istemcisi(musteri, rol="sahip")
    ok(sahip.put(f"/api/v1/operator/tenants/{musteri.pk}/ayarlar", ayarlar, format="json"))


def _eskit(oturum_id, *, dakika: int, alan: str = "baslangic"):
    Oturum.objects.filter(pk=oturum_id).update(**{alan: timezone.now() - timedelta(minutes=dakika)})
    Mesaj.objects.filter(oturum_id=oturum_id).update(zaman=timezone.now() - timedelta(minutes=dakika))


def _biri_cevrimici(*musteriler):
    """An operator of these tenants online while the chats start, so they wait (with nobody
    reachable a chat is offered a ticket at once, CONTRACT 15). Call the answer when it goes
    offline: what follows is the periodic offer's to do."""
    _, client = operator_istemcisi(*musteriler, durum="cevrimici")
    return lambda: ok(client.post("/api/v1/operator/status", {"durum": "cevrimdisi"}, format="json"))


def _sistem_sayisi(oturum_id):
    return Mesaj.objects.filter(oturum_id=oturum_id, gonderen="sistem").count()


def test_each_tenant_offers_after_its_own_wait(musteri):
    uzun = MusteriFactory()
    _ayarla(musteri, bekleme_zaman_asimi_dk=2)
    _ayarla(uzun, bekleme_zaman_asimi_dk=60)
    cevrimdisi = _biri_cevrimici(musteri, uzun)
    a = baslat(widget_client(musteri), mesaj="Selam")
    b = baslat(widget_client(uzun), mesaj="Selam")
    cevrimdisi()
    for o in (a, b):
        _eskit(o["id"], dakika=3)
    assert zaman_asimlari()["ticket_onerilen"] == 1
    assert Oturum.objects.get(pk=a["id"]).ticket_onerildi is not None
    assert Oturum.objects.get(pk=b["id"]).ticket_onerildi is None
    _eskit(b["id"], dakika=61)
    assert zaman_asimlari()["ticket_onerilen"] == 1


def test_the_wait_counts_from_the_chats_start_not_its_last_message(musteri):
    widget = widget_client(musteri)
    cevrimdisi = _biri_cevrimici(musteri)
    o = baslat(widget, mesaj="Selam")
    cevrimdisi()
    Oturum.objects.filter(pk=o["id"]).update(baslangic=timezone.now() - timedelta(minutes=11))
    # a message just now does not restart the wait
    ok(widget.post("/api/v1/widget/chat/message", {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "?"},
                   format="json"), 201)
    assert zaman_asimlari()["ticket_onerilen"] == 1


def test_silent_close_by_the_tenants_minutes_and_never_when_null(musteri):
    hic = MusteriFactory()
    _ayarla(musteri, sessiz_kapatma_dk=5)
    _ayarla(hic, sessiz_kapatma_dk=None)
    oturumlar = []
    for m in (musteri, hic):
        _, op = operator_istemcisi(m, durum="cevrimici")
        o = baslat(widget_client(m), mesaj="Selam")
        ok(op.post(op_url(o["id"], "accept")))
        oturumlar.append(o["id"])
    for i in oturumlar:
        _eskit(i, dakika=6, alan="kabul_zamani")
    assert zaman_asimlari()["sessiz_kapanan"] == 1
    assert Oturum.objects.get(pk=oturumlar[0]).durum == "kapandi"
    _eskit(oturumlar[1], dakika=60 * 24 * 30, alan="kabul_zamani")
    assert zaman_asimlari()["sessiz_kapanan"] == 0
    assert Oturum.objects.get(pk=oturumlar[1]).durum == "aktif"


def test_a_stored_value_out_of_range_reads_as_the_default(musteri):
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tenants_musteri SET bekleme_zaman_asimi_dk = 0, sessiz_kapatma_dk = 1 WHERE id = %s",
                       [musteri.pk])
    cevrimdisi = _biri_cevrimici(musteri)
    o = baslat(widget_client(musteri), mesaj="Selam")
    cevrimdisi()
    _eskit(o["id"], dakika=5)
    assert zaman_asimlari()["ticket_onerilen"] == 0  # the default 10, not 0
    _eskit(o["id"], dakika=11)
    assert zaman_asimlari()["ticket_onerilen"] == 1


def test_the_sweep_is_one_statement_per_rule_however_many_tenants(django_assert_num_queries):
    for _ in range(5):
        MusteriFactory()
    with django_assert_num_queries(2):
        assert zaman_asimlari() == {"ticket_onerilen": 0, "sessiz_kapanan": 0}


def _ikisi_birden(fn):
    """Run `fn` in two threads (two connections) released at once; their results."""
    engel = threading.Barrier(2)
    sonuclar, hatalar = [], []

    def calis():
        try:
            engel.wait()
            sonuclar.append(fn())
        except Exception as exc:  # noqa: BLE001 - reported by the test
            hatalar.append(exc)
        finally:
            connection.close()

    ipler = [threading.Thread(target=calis) for _ in range(2)]
    for ip in ipler:
        ip.start()
    for ip in ipler:
        ip.join()
    assert not hatalar, hatalar
    return sonuclar


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_offer_once_and_close_once(musteri):
    widget = widget_client(musteri)
    cevrimdisi = _biri_cevrimici(musteri)
    bekleyen = baslat(widget, "bekleyen", mesaj="Selam")
    cevrimdisi()
    _eskit(bekleyen["id"], dakika=11)
    sonuclar = _ikisi_birden(zaman_asimlari)
    assert sum(s["ticket_onerilen"] for s in sonuclar) == 1
    assert _sistem_sayisi(bekleyen["id"]) == 1

    _, op = operator_istemcisi(musteri, durum="cevrimici")
    sessiz = baslat(widget, "sessiz", mesaj="Selam")
    ok(op.post(op_url(sessiz["id"], "accept")))
    _eskit(sessiz["id"], dakika=31, alan="kabul_zamani")
    sonuclar = _ikisi_birden(zaman_asimlari)
    assert sum(s["sessiz_kapanan"] for s in sonuclar) == 1
    assert Oturum.objects.get(pk=sessiz["id"]).durum == "kapandi"
    # the accept's line and one closing line
    assert _sistem_sayisi(sessiz["id"]) == 2
