"""Beat as it ships (slow): the Procfile's `beat` command, its schedule and lock in Redis
(celery-redbeat; docs/production.md, "Periodic jobs").

- A restart neither re-runs a daily job nor skips one that fell due while no beat ran: each job's
  last run is kept in Redis, not in a file of the container.
- Two beats started at once send each job once: the second waits for the first one's lock.
- The holder killed (SIGKILL, no goodbye), the other takes over once the lock expires, and runs
  nothing twice.

`.ci/kume` runs it again with REDIS_URL naming a Redis Cluster: the lock is then on the broker's
plain Redis (REDIS_BROKER_URL), the one every beat must reach to send anything at all.

Only what beat sends is counted (its log); no worker runs, the queue is thrown away. On a Redis
database of its own (BEAT_TESTI_REDIS_DB, default 13), emptied before and after.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings
from django.utils import timezone
from redbeat.decoder import RedBeatJSONEncoder

from ops.supervisor import procfile

pytestmark = [pytest.mark.slow]

GUNLUK = ("webhook-eski-olaylar", "sahipsiz-dosyalar", "gizlilik-saklama", "denetim-eski-kayitlar")
KILIT_SANIYE = 4


@pytest.fixture
def beat_ortami(tmp_path):
    # Beat's schedule and lock live on the broker's Redis: REDIS_BROKER_URL beside a Redis Cluster
    # (REDIS_URL=redis+cluster://..., which stays the cache), else REDIS_URL (issue 44).
    ad = "REDIS_BROKER_URL" if os.environ.get("REDIS_BROKER_URL") else "REDIS_URL"
    redis_url = os.environ.get(ad)
    if not redis_url:
        pytest.skip("Beat testi Redis ister (REDIS_URL; CI her zaman verir).")
    parca = urlsplit(redis_url)
    url = urlunsplit(parca._replace(path="/" + os.environ.get("BEAT_TESTI_REDIS_DB", "13")))
    istemci = redis.Redis.from_url(url)
    istemci.flushdb()
    ortam = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        "DJANGO_ENV_FILE": "/dev/null",
        "DEBUG": "true",
        ad: url,
        "BEAT_ANAHTAR_ONEKI": f"redbeat-{uuid.uuid4().hex[:6]}:",
        "BEAT_KILIT_SANIYE": str(KILIT_SANIYE),
        # The waiting beat looks at the lock every loop: 1 s here instead of production's 5, so the
        # takeover is seen within KILIT_SANIYE + 1 s rather than + 5 s (what it proves is the same).
        "BEAT_DONGU_SANIYE": "1",
        "ATAMA_TARAMA_ARALIGI": "1",
    }
    surecler: list[subprocess.Popen] = []

    def baslat(ad: str) -> tuple[subprocess.Popen, Path]:
        log = tmp_path / f"{ad}.log"
        proc = subprocess.Popen(["sh", "-c", "exec " + procfile()["beat"]], cwd=settings.BASE_DIR, env=ortam,
                                stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        surecler.append(proc)
        return proc, log

    yield baslat, istemci, ortam["BEAT_ANAHTAR_ONEKI"]
    for proc in surecler:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    istemci.flushdb()


def _gonderilenler(*loglar: Path) -> dict[str, int]:
    sayilar: dict[str, int] = {}
    for log in loglar:
        for ad in re.findall(r"Sending due task (\S+)", log.read_text(errors="replace") if log.exists() else ""):
            sayilar[ad] = sayilar.get(ad, 0) + 1
    return sayilar


def _bekle(kosul, sure: float, mesaj) -> None:
    bitis = time.monotonic() + sure
    while not kosul():
        assert time.monotonic() < bitis, mesaj()
        time.sleep(0.2)


def _kilitli(log: Path) -> bool:
    return log.exists() and "Acquired lock" in log.read_text(errors="replace")


def test_iki_beat_her_isi_bir_kez_gonderir_ve_yeniden_baslatma_atlamaz(beat_ortami):
    baslat, istemci, oneki = beat_ortami

    # A first beat stores the schedule (each daily job's next run: its fixed time, not now) and stops.
    ilk, ilk_log = baslat("ilk")
    _bekle(lambda: _gonderilenler(ilk_log).get("sohbet-atama-taramasi", 0) >= 2, 60,
           lambda: ilk_log.read_text(errors="replace")[-3000:])
    os.killpg(ilk.pid, signal.SIGTERM)
    assert ilk.wait(timeout=20) is not None
    assert not any(_gonderilenler(ilk_log).get(ad) for ad in GUNLUK), ilk_log.read_text(errors="replace")[-3000:]

    # While no beat runs, one daily job falls due (its last run two days ago).
    anahtar = oneki + "denetim-eski-kayitlar"
    meta = json.loads(istemci.hget(anahtar, "meta"))
    assert meta["last_run_at"] is not None, meta
    istemci.hset(anahtar, "meta", json.dumps({"last_run_at": timezone.now() - timedelta(days=2),
                                               "total_run_count": 1}, cls=RedBeatJSONEncoder))

    # Two beats start at once (an overlapping redeploy): one holds the lock and sends the missed
    # job once; the other sends nothing; no other daily job runs again because of the restart.
    (a, a_log), (b, b_log) = baslat("a"), baslat("b")

    def ozet():
        return f"a:\n{a_log.read_text(errors='replace')[-2000:]}\nb:\n{b_log.read_text(errors='replace')[-2000:]}"

    _bekle(lambda: _gonderilenler(a_log, b_log).get("sohbet-atama-taramasi", 0) >= 3, 60, ozet)
    assert _kilitli(a_log) != _kilitli(b_log), ozet()
    beklenen = {**dict.fromkeys(GUNLUK, 0), "denetim-eski-kayitlar": 1}
    sayilar = _gonderilenler(a_log, b_log)
    assert {ad: sayilar.get(ad, 0) for ad in GUNLUK} == beklenen, ozet()
    sahip, bekleyen, bekleyen_log = (a, b, b_log) if _kilitli(a_log) else (b, a, a_log)
    assert "Sending due task" not in bekleyen_log.read_text(errors="replace"), ozet()

    # The holder dies without releasing the lock: the other takes over once it expires, and runs
    # nothing twice.
    os.killpg(sahip.pid, signal.SIGKILL)
    sahip.wait(timeout=10)
    _bekle(lambda: _gonderilenler(bekleyen_log).get("sohbet-atama-taramasi", 0) >= 2, KILIT_SANIYE + 30, ozet)
    assert _kilitli(bekleyen_log), ozet()
    sayilar = _gonderilenler(a_log, b_log)
    assert {ad: sayilar.get(ad, 0) for ad in GUNLUK} == beklenen, ozet()
    assert bekleyen.poll() is None


def test_gunluk_isler_sabit_yerel_saatte():
    """Every daily job is a crontab at a fixed local time (not 24 h after each start), 10 minutes
    apart from GUNLUK_ISLER_SAATI, in the deployment's TIME_ZONE."""
    from celery.schedules import crontab

    zamanlar = {ad: settings.CELERY_BEAT_SCHEDULE[ad]["schedule"] for ad in GUNLUK}
    assert all(isinstance(z, crontab) for z in zamanlar.values()), zamanlar
    assert [(sorted(z.hour), sorted(z.minute)) for z in zamanlar.values()] == [
        ([3], [0]), ([3], [10]), ([3], [20]), ([3], [30])]
    yedek = settings.CELERY_BEAT_SCHEDULE["yedek-al"]["schedule"]  # the backup, when switched on
    assert isinstance(yedek, crontab) and (sorted(yedek.hour), sorted(yedek.minute)) == ([3], [40])
    assert settings.CELERY_TIMEZONE == settings.TIME_ZONE
