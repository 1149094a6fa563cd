"""Redis round trips of the widget's hot paths (issue 12), counted by the Redis server itself
(`MONITOR`): once the process holds the tenant, an idle poll makes exactly one (its rate limit,
the tenant cache's generation, who is online and the poll's snapshot, in one script), and a
visitor's message one plus the renewal of the chat's snapshot generation and the socket
fan-out's publish. Skipped without REDIS_URL (CI has it)."""
import os
import uuid

import pytest
import redis

from chat import yoklama
from chat.models import Oturum
from supportdesk.core import varlik
from supportdesk.core.redis_adresi import kume_mi

from .yardimci import W_MESAJ, W_MESAJLAR, baslat, ok, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def sayac():
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("Redis gidiş sayısı gerçek bir Redis ister (REDIS_URL).")
    if kume_mi(url):
        pytest.skip("Tek sunucunun MONITOR'ü: kümedeki ön okuma supportdesk/tests/test_redis_kumesi.py'de sayılır.")
    istemci = redis.Redis.from_url(url)
    isaretci = redis.Redis.from_url(url)  # its own connection, open before the count starts
    isaretci.ping()
    db = istemci.connection_pool.connection_kwargs.get("db", 0)

    def say(islem) -> list[str]:
        """The commands sent to our Redis database by clients (not the ones a script runs) while
        `islem()` runs."""
        isaret = f"sayac-{uuid.uuid4().hex}"
        with istemci.monitor() as m:
            islem()
            isaretci.echo(isaret)
            komutlar = []
            for olay in m.listen():
                komut = olay["command"]
                if isaret in komut:
                    return komutlar
                if olay.get("db") == db and olay.get("client_type") != "lua":
                    komutlar.append(komut.split(" ", 1)[0].upper())
        return komutlar

    return say


def test_an_idle_poll_is_one_redis_round_trip(musteri, sayac):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    sorgu = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}
    ok(widget.get(W_MESAJLAR, sorgu))  # the tenant is now in this process's memory
    yanitlar = []
    komutlar = sayac(lambda: yanitlar.append(ok(widget.get(W_MESAJLAR, sorgu))))
    assert komutlar == ["EVALSHA"], komutlar
    assert yanitlar[0]["mesajlar"] == [] and yanitlar[0]["sira_no"] == 1
    assert yanitlar[0]["cevrimici_operator"] is False


def test_a_visitor_message_is_one_round_trip_plus_the_socket_publish(musteri, sayac):
    # The chat's snapshot generation (chat.yoklama) is renewed by the pre-read's script itself,
    # timed, before the write (issue 41): no SET of its own after the commit.
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ilk"}, format="json"), 201)
    anahtar = yoklama.okunacaklar(oturum_id=o["id"], musteri_id=musteri.pk)[1]
    once = redis.Redis.from_url(os.environ["REDIS_URL"]).get(anahtar)
    komutlar = sayac(lambda: ok(widget.post(
        W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ikinci"}, format="json"), 201))
    assert komutlar.count("EVALSHA") == 1, komutlar
    assert [k for k in komutlar if k not in ("EVALSHA", "PUBLISH")] == [], komutlar
    assert Oturum.objects.get(pk=o["id"]).son_mesaj == "ikinci"
    sonra = redis.Redis.from_url(os.environ["REDIS_URL"]).get(anahtar)
    assert sonra != once and sonra.split(b":")[0].isdigit(), (once, sonra)


def test_the_one_round_trip_sees_an_operator_come_online(musteri, sayac):
    # Presence comes from the same script as the limit: an operator who goes online through REST
    # is seen by the very next poll, still in one round trip.
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    sorgu = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}
    assert ok(widget.get(W_MESAJLAR, sorgu))["cevrimici_operator"] is False
    kullanici, operator = operator_istemcisi(musteri)
    ok(operator.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    yanitlar = []
    # The stored status changed, so the chat's snapshot (chat.yoklama) is rebuilt: the statement
    # and one SET; the next poll is the one round trip again.
    komutlar = sayac(lambda: yanitlar.append(ok(widget.get(W_MESAJLAR, sorgu))))
    assert komutlar == ["EVALSHA", "SET"], komutlar
    komutlar = sayac(lambda: yanitlar.append(ok(widget.get(W_MESAJLAR, sorgu))))
    assert komutlar == ["EVALSHA"], komutlar
    assert yanitlar[0]["cevrimici_operator"] is True and yanitlar[1]["cevrimici_operator"] is True
    # Reachability alone (no status change) is read live by the same round trip, snapshot or not.
    redis.Redis.from_url(os.environ["REDIS_URL"]).zrem(varlik.REST, kullanici.pk)
    komutlar = sayac(lambda: yanitlar.append(ok(widget.get(W_MESAJLAR, sorgu))))
    assert komutlar == ["EVALSHA"], komutlar
    assert yanitlar[2]["cevrimici_operator"] is False


def test_a_tenant_with_an_active_rule_reads_its_rules_generation_in_the_same_round_trip(musteri, sayac):
    # CONTRACT 23, issue 42: the compiled rules are this process's, under the tenant's rules
    # generation, which the message's one script reads with the limit: no round trip of their own
    # (a tenant without rules reads not even that, Musteri.kurallar_var). A rule's change renews the
    # generation, so the very next message runs the rule as changed.
    from otomasyon.models import Kural
    from otomasyon.selectors import calisma_list
    from otomasyon.services import kural_guncelle, kural_olustur

    kural = kural_olustur(musteri_id=musteri.id, aktor_id=None, veri={
        "ad": "K", "olay": "ziyaretci_mesaji", "eylemler": [{"tur": "not", "icerik": "Kural"}],
        "kosullar": [{"alan": "metin", "islem": "icerir", "deger": "hiç-geçmeyen"}]})
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ilk"}, format="json"), 201)
    komutlar = sayac(lambda: ok(widget.post(
        W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ikinci"}, format="json"), 201))
    assert komutlar.count("EVALSHA") == 1 and "GET" not in komutlar, komutlar
    assert [c.sonuc for c in calisma_list(kural=kural)] == ["kosul_tutmadi"] * 2
    kural_guncelle(kural=Kural.objects.get(pk=kural.pk), aktor_id=None,
                   veri={"kosullar": [{"alan": "metin", "islem": "icerir", "deger": "ÜÇÜNCÜ"}]})
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "üçüncü"}, format="json"), 201)
    assert calisma_list(kural=kural)[0].sonuc == "uygulandi"
