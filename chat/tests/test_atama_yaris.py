"""Routing races on PostgreSQL (CONTRACT 15): concurrent starts, closes and status changes, each
request on its own thread and database connection, never put an operator over its cap and never
assign a chat twice; the queue drains oldest first. SQLite serialises every writer (skipped)."""
from collections import Counter
from functools import partial

import pytest
from django.db import connection

from chat.models import Mesaj, Oturum
from webhooks.models import Olay

from .test_atama import cevrimici_operator, mod
from .test_yarislar import ayni_anda, kopya
from .yardimci import START, op_url, widget_client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="yarış testleri PostgreSQL ister"),
]


def _baslat(musteri, ziyaretci_id):
    return widget_client(musteri).post(START, {"ziyaretci_id": ziyaretci_id}, format="json")


def _degismezler(musteri, operatorler, sinir):
    aktif = Counter(Oturum.objects.filter(musteri=musteri, durum="aktif").values_list("operator_id", flat=True))
    assert set(aktif) <= {u.id for u in operatorler} and max(aktif.values()) <= sinir, aktif
    # One "... sohbete katıldı." line per `chat_atandi` to an operator, and a chat is taken from the
    # queue (`otomatik`, `kabul`) only while nobody holds it: no chat was assigned twice.
    olaylar = [v for v in Olay.objects.filter(olay="chat_atandi").order_by("zaman").values_list("veri", flat=True)]
    atandi = Counter(v["oturum_id"] for v in olaylar if v["operator_id"] is not None)
    katildi = Counter(Mesaj.objects.filter(gonderen="sistem", icerik__endswith="sohbete katıldı.")
                      .values_list("oturum_id", flat=True))
    assert atandi == katildi, (atandi, katildi)
    tutan: dict[int, int | None] = {}
    for v in olaylar:
        if v["neden"] in ("otomatik", "kabul"):
            assert tutan.get(v["oturum_id"]) is None, ("iki kez atandı", v, olaylar)
        tutan[v["oturum_id"]] = v["operator_id"]
    return aktif


@pytest.mark.parametrize("atama_modu", ["sirayla", "en_az_yuklu"])
def test_30_concurrent_starts_3_operators_cap_4_then_closes_drain_oldest_first(musteri, atama_modu):
    mod(musteri, atama_modu)
    operatorler = [cevrimici_operator(musteri, max_chat=4) for _ in range(3)]
    sonuclar = ayni_anda([partial(_baslat, musteri, f"z{i}") for i in range(30)])
    assert [r.status_code for r in sonuclar] == [201] * 30, [getattr(r, "content", r) for r in sonuclar]
    aktif = _degismezler(musteri, [u for u, _ in operatorler], 4)
    assert sorted(aktif.values()) == [4, 4, 4]
    assert Oturum.objects.filter(musteri=musteri, durum="bekliyor").count() == 18
    # Every answer said what happened to its chat.
    assert Counter(r.json()["data"]["oturum"]["durum"] for r in sonuclar) == {"aktif": 12, "bekliyor": 18}

    # All 12 close at once: the 12 oldest waiting chats are assigned, and no more.
    bekleyenler = list(Oturum.objects.filter(musteri=musteri, durum="bekliyor").order_by("baslangic", "id")
                       .values_list("id", flat=True))
    isler = []
    for user, client in operatorler:
        for o in Oturum.objects.filter(operator=user, durum="aktif"):
            isler.append(partial(kopya(client).post, op_url(o.id, "close")))
    assert [r.status_code for r in ayni_anda(isler)] == [200] * 12
    aktif = _degismezler(musteri, [u for u, _ in operatorler], 4)
    assert sorted(aktif.values()) == [4, 4, 4]
    assert set(Oturum.objects.filter(musteri=musteri, durum="aktif").values_list("id", flat=True)) == set(bekleyenler[:12])

    # One close at a time: each frees one place, taken by the oldest chat still waiting.
    for sira in range(12, 18):
        user, client = operatorler[sira % 3]
        o = Oturum.objects.filter(operator=user, durum="aktif").first()
        assert client.post(op_url(o.id, "close")).status_code == 200
        assert Oturum.objects.get(pk=bekleyenler[sira]).operator_id == user.id
    assert not Oturum.objects.filter(musteri=musteri, durum="bekliyor").exists()


def test_starts_closes_and_status_changes_at_once_keep_the_cap(musteri):
    mod(musteri, "en_az_yuklu")
    operatorler = [cevrimici_operator(musteri, max_chat=3) for _ in range(3)]
    for i in range(9):
        _baslat(musteri, f"ilk{i}")
    (u0, c0), (u1, c1), (u2, c2) = operatorler
    kapanacak = [o.id for o in Oturum.objects.filter(operator=u0, durum="aktif")]
    durum = "/api/v1/operator/status"
    isler = [partial(_baslat, musteri, f"z{i}") for i in range(15)]
    isler += [partial(kopya(c0).post, op_url(i, "close")) for i in kapanacak]
    isler += [partial(kopya(c1).post, durum, {"durum": "mesgul"}, format="json"),
              partial(kopya(c1).post, durum, {"durum": "cevrimici"}, format="json"),
              partial(kopya(c2).post, durum, {"durum": "cevrimdisi"}, format="json")]
    sonuclar = ayni_anda(isler)
    assert all(not isinstance(r, Exception) and r.status_code < 300 for r in sonuclar), sonuclar
    _degismezler(musteri, [u0, u1, u2], 3)
    # u2 went offline: it holds nothing; whoever is eligible holds at most its cap.
    assert not Oturum.objects.filter(operator=u2, durum="aktif").exists()
