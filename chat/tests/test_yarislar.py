"""Races on PostgreSQL with real connections: threads, each with its own connection and client.

SQLite serialises every writer on one file lock, so there is no race to show there (skipped).
"""
import threading
from functools import partial

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from chat.models import Mesaj, Oturum
from webhooks.models import Olay

from .yardimci import START, W_MESAJ, W_PUAN, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="yarış testleri PostgreSQL ister"),
]


def ayni_anda(isler: list) -> list:
    """Run the callables at the same moment, one thread each; return their results in order."""
    engel = threading.Barrier(len(isler))
    sonuclar: list = [None] * len(isler)

    def calis(i, is_):
        try:
            engel.wait(timeout=10)
            sonuclar[i] = is_()
        except Exception as exc:  # noqa: BLE001  (reported by the assertions below)
            sonuclar[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=calis, args=(i, is_)) for i, is_ in enumerate(isler)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return sonuclar


def kopya(client) -> APIClient:
    """A client of its own for each thread, with the same credentials (clients are not thread-safe)."""
    yeni = APIClient()
    yeni.credentials(**client._credentials)
    return yeni


def test_es_zamanli_kabullerde_tek_kazanan(musteri):
    widget = widget_client(musteri)
    o = baslat(widget)
    operatorler = [operator_istemcisi(musteri) for _ in range(8)]
    sonuclar = ayni_anda([lambda c=c: c.post(op_url(o["id"], "accept")) for _, c in operatorler])
    durumlar = sorted(r.status_code for r in sonuclar)
    assert durumlar == [200] + [409] * 7, [r.content for r in sonuclar]
    assert all(r.json()["hata"]["kod"] == "DURUM_CAKISMASI" for r in sonuclar if r.status_code == 409)
    kazanan = next(r for r in sonuclar if r.status_code == 200).json()["data"]["oturum"]["operator_id"]
    assert Oturum.objects.filter(durum="aktif").count() == 1
    assert Oturum.objects.get().operator_id == kazanan


def test_limitli_operator_es_zamanli_kabullerde_siniri_asamaz(musteri):
    widget = widget_client(musteri)
    oturumlar = [baslat(widget, f"z{i}") for i in range(6)]
    user, client = operator_istemcisi(musteri, max_chat=2)
    sonuclar = ayni_anda([partial(kopya(client).post, op_url(o["id"], "accept")) for o in oturumlar])
    assert sorted(r.status_code for r in sonuclar) == [200, 200, 409, 409, 409, 409]
    assert Oturum.objects.filter(operator=user, durum="aktif").count() == 2


def test_kapatma_ve_mesaj_yarisi_kapanistan_sonra_mesaj_yok(musteri):
    widget = widget_client(musteri)
    _, client = operator_istemcisi(musteri)
    for tur in range(5):
        o = baslat(widget, f"z{tur}")
        ok(client.post(op_url(o["id"], "accept")))
        isler = [lambda o=o: client.post(op_url(o["id"], "close"))]
        govde = {"ziyaretci_id": f"z{tur}", "oturum_id": o["id"]}
        isler += [partial(kopya(widget).post, W_MESAJ, {**govde, "icerik": f"m{i}"}, format="json") for i in range(4)]
        sonuclar = ayni_anda(isler)
        assert sonuclar[0].status_code == 200, sonuclar[0].content
        assert all(r.status_code in (201, 409) for r in sonuclar[1:]), [r.content for r in sonuclar]
        # the close's system line is the last one (the accept's "... sohbete katıldı." came first)
        kapanis = Mesaj.objects.filter(oturum_id=o["id"], gonderen="sistem").latest("id")
        # Every accepted message came before the close; every refused one after it.
        kabul = [r.json()["data"]["mesaj"]["id"] for r in sonuclar[1:] if r.status_code == 201]
        assert all(mid < kapanis.id for mid in kabul)
        assert Mesaj.objects.filter(oturum_id=o["id"], id__gt=kapanis.id).count() == 0
        assert Mesaj.objects.filter(oturum_id=o["id"], gonderen="ziyaretci").count() == len(kabul)


def test_iki_kez_puan_yarisi_tek_puan(musteri):
    widget = widget_client(musteri)
    _, client = operator_istemcisi(musteri)
    o = baslat(widget)
    ok(client.post(op_url(o["id"], "accept")))
    sonuclar = ayni_anda([
        partial(kopya(widget).post, W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "puan": p}, format="json")
        for p in (1, 2, 3, 4, 5)
    ])
    assert sorted(r.status_code for r in sonuclar) == [200, 409, 409, 409, 409], [r.content for r in sonuclar]
    assert Olay.objects.filter(olay="memnuniyet_puan").count() == 1
    assert Olay.objects.filter(olay="chat_kapandi").count() == 1


def test_es_zamanli_baslat_tek_sohbet(musteri):
    widget = widget_client(musteri)
    sonuclar = ayni_anda([partial(kopya(widget).post, START, {"ziyaretci_id": "ayni"}, format="json") for _ in range(6)])
    assert sorted(r.status_code for r in sonuclar) == [200] * 5 + [201], [r.content for r in sonuclar]
    assert len({r.json()["data"]["oturum"]["id"] for r in sonuclar}) == 1
    assert Oturum.objects.count() == 1 and Olay.objects.filter(olay="yeni_chat").count() == 1


def test_bekleyen_sohbete_es_zamanli_yanitlarda_tek_sahip(musteri, nobetci):
    # CONTRACT 3a (wave 4): an answer to a waiting chat claims it. Of plain operators answering (and
    # one accepting) at once exactly one wins; every other gets 409 and stores nothing, whether it
    # saw the chat waiting (lost the claim) or taken already (a plain operator may not step in).
    widget = widget_client(musteri)
    for tur in range(3):
        o = baslat(widget, f"z{tur}", mesaj="Merhaba")
        operatorler = [operator_istemcisi(musteri) for _ in range(5)]
        isler = [partial(c.post, op_url(o["id"], "message"), {"icerik": f"Buyrun {i}"}, format="json")
                 for i, (_, c) in enumerate(operatorler)]
        isler.append(partial(operator_istemcisi(musteri)[1].post, op_url(o["id"], "accept")))
        sonuclar = ayni_anda(isler)
        assert all(not isinstance(r, Exception) for r in sonuclar), sonuclar
        assert sorted(r.status_code for r in sonuclar) in ([200] + [409] * 5, [201] + [409] * 5), \
            [r.content for r in sonuclar]
        assert all(r.json()["hata"]["kod"] == "DURUM_CAKISMASI" for r in sonuclar if r.status_code == 409)
        oturum = Oturum.objects.get(pk=o["id"])
        assert oturum.durum == "aktif"
        mesajlar = list(Mesaj.objects.filter(oturum_id=o["id"]).order_by("id"))
        sistem = [m for m in mesajlar if m.gonderen == "sistem"]
        assert len(sistem) == 1 and "sohbete katıldı" in sistem[0].icerik
        yanitlar = [m for m in mesajlar if m.gonderen == "operator"]
        if sonuclar[-1].status_code == 200:
            assert yanitlar == [] and oturum.operator_id == sonuclar[-1].json()["data"]["oturum"]["operator_id"]
        else:
            # One answer, the owner's, after the claim's line.
            assert len(yanitlar) == 1 and yanitlar[0].operator_id == oturum.operator_id
            assert yanitlar[0].id > sistem[0].id
