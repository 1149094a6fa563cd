"""Redis Cluster (issue 44, CONTRACT 26): what a cluster changes, checked on a real one.

`.ci/kume` starts three primaries on loopback (supportdesk/testing/redis_kumesi.py) and runs this
file with the socket, limit, presence and pre-read tests on them (REDIS_URL=redis+cluster://...);
in the ordinary suite (one Redis server) only the settings' refusals run here.

Every failure to reach Redis is swallowed on purpose (limits fail open, presence answers
"unknown"), so a CROSSSLOT refusal would pass unseen: the cluster tests count what each primary
refused (`INFO commandstats`: rejected and failed calls) and the limiter's open passes.
"""
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import caches
from redis.cluster import key_slot

from chat import yoklama
from chat.tests.yardimci import W_MESAJLAR, baslat, ok, operator_istemcisi, widget_client
from supportdesk.core import throttling, varlik
from supportdesk.core.redis_adresi import kume_dugumleri, kume_mi
from tenants import musteri_onbellegi


def _ayarlar(**ortam) -> subprocess.CompletedProcess:
    """Import the production settings in a fresh interpreter with `ortam` over a bare environment."""
    temel = {k: v for k, v in os.environ.items()
             if not k.startswith(("REDIS_", "CHANNEL_LAYER", "DJANGO_SETTINGS"))}
    return subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.CELERY_BROKER_URL, "
                               "settings.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0], settings.REDIS_KUME)"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=60,
        env={**temel, "DJANGO_SETTINGS_MODULE": "supportdesk.settings", "DJANGO_ENV_FILE": "/dev/null",
             "DEBUG": "true", **ortam})


def test_a_cluster_without_a_channel_layer_and_broker_of_their_own_is_refused_by_name():
    kume = "redis+cluster://127.0.0.1:7001,127.0.0.1:7002"
    sonuc = _ayarlar(REDIS_URL=kume)
    assert sonuc.returncode != 0 and "REDIS_CHANNEL_URL" in sonuc.stderr, sonuc.stderr[-2000:]
    sonuc = _ayarlar(REDIS_URL=kume, REDIS_CHANNEL_URL="redis://127.0.0.1:6379/1")
    assert sonuc.returncode != 0 and "REDIS_BROKER_URL" in sonuc.stderr, sonuc.stderr[-2000:]
    sonuc = _ayarlar(REDIS_URL=kume, REDIS_CHANNEL_URL=kume, REDIS_BROKER_URL="redis://127.0.0.1:6379/2")
    assert sonuc.returncode != 0 and "REDIS_CHANNEL_URL" in sonuc.stderr, sonuc.stderr[-2000:]
    sonuc = _ayarlar(REDIS_URL=kume + "/3", REDIS_CHANNEL_URL="redis://a/1", REDIS_BROKER_URL="redis://a/2")
    assert sonuc.returncode != 0 and "database 0 only" in sonuc.stderr, sonuc.stderr[-2000:]
    sonuc = _ayarlar(REDIS_URL=kume, REDIS_CHANNEL_URL="redis://127.0.0.1:6379/1",
                     REDIS_BROKER_URL="redis://127.0.0.1:6379/2")
    assert sonuc.returncode == 0, sonuc.stderr[-2000:]
    assert sonuc.stdout.split() == ["redis://127.0.0.1:6379/2", "redis://127.0.0.1:6379/1", "True"]


def test_a_plain_redis_url_still_serves_all_three():
    sonuc = _ayarlar(REDIS_URL="redis://127.0.0.1:6379/4")
    assert sonuc.returncode == 0, sonuc.stderr[-2000:]
    assert sonuc.stdout.split() == ["redis://127.0.0.1:6379/4", "redis://127.0.0.1:6379/4", "False"]


def test_a_tenants_keys_share_one_slot_and_presence_shares_another():
    # Pure key arithmetic: holds on one server too, matters on a cluster.
    m = 42
    pencere = throttling.pencere(throttling.widget_limit_anahtari(m, "10.0.0.1"), (30, 60))
    anahtarlar = [pencere.guncel, pencere.onceki, musteri_onbellegi.UYELIK_NESLI.format("{t:42}"),
                  f"yoklama:m:{{t:{m}}}"]
    assert len({key_slot(k.encode()) for k in anahtarlar}) == 1, anahtarlar
    assert key_slot(b"{t:42}") != key_slot(b"{t:43}")
    varlik_anahtarlari = [varlik.SOKETLI, varlik.REST, *varlik.TUM_SOKETLER.values(), varlik.soket_kumesi(7),
                          varlik.soket_kumesi(varlik.ziyaretci_anahtari(m, "z"))]
    assert len({key_slot(k.encode()) for k in varlik_anahtarlari}) == 1
    # Any other limit's two windows share a slot of their own.
    p = throttling.pencere("giris:1.2.3.4:a@b.c", (10, 60))
    assert key_slot(p.guncel.encode()) == key_slot(p.onceki.encode())


@pytest.fixture
def kume():
    if not kume_mi(settings.REDIS_URL):
        pytest.skip("Redis Cluster ister: .ci/kume (REDIS_URL=redis+cluster://...).")
    import redis

    dugumler = [redis.Redis(host=h, port=p) for h, p in kume_dugumleri(settings.REDIS_URL)]
    istemci = caches["default"]._cache.get_client(write=True)
    birincil = [istemci.get_redis_connection(n) for n in istemci.get_primaries()]
    assert len(birincil) >= 3, "üç birincil düğüm beklenir"

    def reddedilen() -> int:
        """Calls every primary refused or failed so far (CROSSSLOT, NOSCRIPT, wrong type...)."""
        toplam = 0
        for r in birincil:
            for ad, deger in r.info("commandstats").items():
                if ad.startswith("cmdstat_"):
                    toplam += int(deger.get("rejected_calls", 0)) + int(deger.get("failed_calls", 0))
        return toplam

    def cagrilar(komut: str) -> int:
        return sum(int(r.info("commandstats").get(f"cmdstat_{komut}", {}).get("calls", 0)) for r in birincil)

    yield {"istemci": istemci, "birincil": birincil, "reddedilen": reddedilen, "cagrilar": cagrilar}
    for r in dugumler:
        r.close()


def _her_dugumden_bir_anahtar(istemci, onek: str) -> list[str]:
    """Keys (after the cache's prefix) whose slots fall on three different primaries."""
    cache = caches["default"]
    secilen: dict[str, str] = {}
    i = 0
    while len(secilen) < 3:
        ad = f"{onek}{i}"
        dugum = istemci.get_node_from_key(cache.make_key(ad)).name
        secilen.setdefault(dugum, ad)
        i += 1
    return list(secilen.values())


def test_many_key_cache_calls_span_every_primary(kume):
    cache = caches["default"]
    adlar = _her_dugumden_bir_anahtar(kume["istemci"], "coklu:")
    once = kume["reddedilen"]()
    cache.set_many({ad: {"n": i} for i, ad in enumerate(adlar)}, 60)
    assert cache.get_many([*adlar, "yok"]) == {ad: {"n": i} for i, ad in enumerate(adlar)}
    cache.delete_many(adlar[:2])
    assert cache.get_many(adlar) == {adlar[2]: {"n": 2}}
    cache.set_many({adlar[0]: 1}, 0)  # a zero timeout deletes, as Django's own
    assert cache.get(adlar[0]) is None
    cache.set_many({ad: 1 for ad in adlar}, 60)
    cache.clear()
    assert [r.dbsize() for r in kume["birincil"]] == [0, 0, 0]
    assert kume["reddedilen"]() == once


def test_an_idle_poll_reads_everything_with_one_script_on_the_tenants_slot(musteri, kume):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    sorgu = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}
    ok(widget.get(W_MESAJLAR, sorgu))  # the process holds the tenant; the snapshot is written
    acik, reddedilen, betik = throttling.acik_gecis_sayisi(), kume["reddedilen"](), kume["cagrilar"]("evalsha")
    yanit = widget.get(W_MESAJLAR, sorgu)
    ok(yanit)
    on = yanit.wsgi_request.on_okuma  # the pre-read ran (no fallback to the separate reads)
    assert on.musteri_id == musteri.pk and on.limit.izin
    assert on.musteri_nesli is not None and on.uyelik_nesli is not None
    assert on.daraltildi and on.varlik == set()
    assert len(on.yoklama_ozeti) == 4 and on.yoklama_ozeti_icin(musteri.pk) is not None
    assert kume["cagrilar"]("evalsha") - betik == 1
    assert throttling.acik_gecis_sayisi() == acik and kume["reddedilen"]() == reddedilen
    # The keys it read are where the module says: the tenant's slot holds the limit's windows.
    anahtarlar = yoklama.okunacaklar(oturum_id=o["id"], musteri_id=musteri.pk)
    assert key_slot(anahtarlar[2].encode()) == key_slot(f"{{t:{musteri.pk}}}".encode())


def test_the_pre_read_on_a_cluster_sees_an_operator_come_online_and_counts_the_limit(musteri, kume, settings):
    settings.WIDGET_RATE_LIMIT = "5/min"
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    sorgu = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}
    assert ok(widget.get(W_MESAJLAR, sorgu))["cevrimici_operator"] is False
    kullanici, operator = operator_istemcisi(musteri)
    ok(operator.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    yanit = widget.get(W_MESAJLAR, sorgu)
    assert ok(yanit)["cevrimici_operator"] is True
    on = yanit.wsgi_request.on_okuma
    # A member joined since this process listed the tenant's members: read whole (a second step).
    assert on.varlik == {kullanici.pk} and not on.daraltildi
    yanit = widget.get(W_MESAJLAR, sorgu)
    assert ok(yanit)["cevrimici_operator"] is True
    on = yanit.wsgi_request.on_okuma
    assert on.varlik == {kullanici.pk} and on.daraltildi  # the list is read again: narrowed
    kume["istemci"].zrem(varlik.REST, kullanici.pk)  # reachability is read live, from {varlik}'s slot
    assert ok(widget.get(W_MESAJLAR, sorgu))["cevrimici_operator"] is False
    assert widget.get(W_MESAJLAR, sorgu).status_code == 429  # start and 4 polls counted: refused


def test_presence_over_the_cluster(kume):
    once = kume["reddedilen"]()
    assert varlik.soket_ac(anahtar=7, soket_id="a", sinir=2)
    assert varlik.soket_ac(anahtar=7, soket_id="b", sinir=2)
    assert not varlik.soket_ac(anahtar=7, soket_id="c", sinir=2)  # the limit holds in one script
    z = varlik.ziyaretci_anahtari(3, "ziyaretci")
    assert varlik.soket_ac(anahtar=z, soket_id="w", sinir=5)
    varlik.soketleri_yenile([(7, "a"), (7, "b"), (z, "w")])  # one pipeline of the same script
    assert varlik.acik_soket_sayilari() == {"operator": 2, "ziyaretci": 1}
    assert varlik.ulasilabilir_idler() == {7}
    assert varlik.ziyaretci_soketi_acik(musteri_id=3, ziyaretci_id="ziyaretci") is True
    varlik.soket_kapandi(anahtar=7, soket_id="a", koptu=True)
    varlik.soket_kapandi(anahtar=7, soket_id="b", koptu=True)
    assert varlik.erisilemeyenler([7, 8]) == {8}  # 7 is inside its short window still
    assert kume["reddedilen"]() == once
