#!/usr/bin/env python
"""Webhook delivery benchmark (issue 18), run by hand; see docs/performance.md.

  P5        1,000 events to one fast receiver, one Celery worker: seconds from the first event to
            the last delivery, events per second (goal: 10 s in all); the worker's CPU time per
            delivery (all its processes, from /proc: less sensitive to a loaded machine than seconds)
            and the load average when it ended.
  yavas10   1,000 events over 20 endpoints (20 tenants, 50 events each), 2 of them (10 %) answering
            after 2 s: delivery delay (event's `zaman` -> arrival at the receiver) of the 18 fast
            endpoints, p50 / p99 / max. The slow ones are not waited for (about 50 s at 2 at a time).

One worker (`celery -A supportdesk worker`, its default pool and concurrency: prefork, one process
per core) with the settings' production defaults, on a dropped and recreated PostgreSQL database
migrated by the served checkout, and Redis as broker and cache. Receivers are real HTTP servers on
loopback (supportdesk/testing/receiver.py) in this process. Events are published with the served
checkout's own `yayinla` (supportdesk.core.olaylar), each in its own transaction (as the API does), from this process.
Only the environment needed differs from production: DEBUG=false, WEBHOOK_ALLOW_PRIVATE_TARGETS
(the receivers are on 127.0.0.1).

Usage (from the checkout):
    .venv/bin/python bench/webhook_bench.py [--repo DIR] [--olay 1000] [--json sonuc.json]

`--repo DIR` is the checkout measured (default: this one), so the same script measures the old code.
Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_webhook_bench; dropped
and created afresh), BENCH_REDIS_URL (default redis://127.0.0.1:6379/3; flushed: use a Redis database
of the benchmark's own).
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

VARSAYILAN_DB = "postgres://postgres@127.0.0.1:5432/sd_webhook_bench"
VARSAYILAN_REDIS = "redis://127.0.0.1:6379/3"


def yuzdelik(g: list[float], p: float) -> float:
    g = sorted(g)
    return g[min(len(g) - 1, max(0, int(round(p / 100 * len(g))) - 1))]


def grup_cpu_s(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of process group `pgid` (the
    worker: its main process and pool children), from /proc."""
    tik = os.sysconf("SC_CLK_TCK")
    toplam = 0
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            alanlar = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(alanlar[2]) == pgid:  # fields after the name: state ppid pgrp ... utime(12) stime(13)
            toplam += int(alanlar[11]) + int(alanlar[12])
    return toplam / tik


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--olay", type=int, default=1000)
    ap.add_argument("--yayinci", type=int, default=4, help="threads publishing events at once")
    ap.add_argument("--hiz", type=float, default=0, help="yavas10: events per second published (0: as fast as possible)")
    ap.add_argument("--yalniz-yavas10", action="store_true", help="skip P5")
    ap.add_argument("--json")
    a = ap.parse_args()
    repo = Path(a.repo).resolve()
    db_url = os.environ.get("BENCH_DATABASE_URL", VARSAYILAN_DB)
    redis_url = os.environ.get("BENCH_REDIS_URL", VARSAYILAN_REDIS)
    ortam = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""), "LANG": "C.UTF-8",
             "DJANGO_SETTINGS_MODULE": "supportdesk.settings", "DEBUG": "false", "SECRET_KEY": "bench-" + "x" * 50,
             "SECURE_SSL_REDIRECT": "false", "DATABASE_URL": db_url, "REDIS_URL": redis_url,
             "WEBHOOK_ALLOW_PRIVATE_TARGETS": "true", "ALLOWED_HOSTS": "127.0.0.1"}

    u = urlparse(db_url)
    psql = ["psql", "-h", u.hostname or "127.0.0.1", "-p", str(u.port or 5432), "-U", u.username or "postgres",
            "-d", "postgres", "-q", "-c"]
    ad = u.path.lstrip("/")
    subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{ad}" WITH (FORCE)'], check=True)
    subprocess.run([*psql, f'CREATE DATABASE "{ad}"'], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=repo, env=ortam, check=True)

    os.environ.update(ortam)
    # The checkout measured, not the cwd: something in the Celery/Django start-up puts the working
    # directory back on sys.path, so the publisher ran the cwd's webhooks code with --repo elsewhere.
    os.chdir(repo)
    sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
    sys.path.insert(0, str(repo))
    import django

    django.setup()
    import redis
    from django.db import connection

    from supportdesk.core.olaylar import yayinla as olay_yayinla
    from supportdesk.testing.factories import MusteriFactory
    from supportdesk.testing.receiver import WebhookAlici
    from webhooks.endpointler import webhook_endpoint_olustur

    redis.Redis.from_url(redis_url).flushdb()
    log = Path(tempfile.mkdtemp()) / "worker.log"
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "supportdesk", "worker", "-l", "info", "-f", str(log),
                               "--without-mingle", "--without-gossip", "-n", "bench@%h"],
                              cwd=repo, env=ortam, start_new_session=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.STDOUT)
    sonuc = {"repo": str(repo), "olay": a.olay, "cpu": os.cpu_count()}
    try:
        bitis = time.monotonic() + 60
        while not (log.exists() and " ready." in log.read_text(errors="replace")):
            if worker.poll() is not None or time.monotonic() > bitis:
                raise SystemExit("worker başlamadı:\n" + (log.read_text()[-3000:] if log.exists() else ""))
            time.sleep(0.1)
        connection.close()

        def yayinla(isler: list[tuple[int, int]], hiz: float = 0) -> float:
            """Publish (tenant id, sequence) events from --yayinci threads, each event its own
            transaction, at `hiz` events per second in all (0: as fast as they can); returns the
            seconds it took."""
            basla = time.monotonic()

            def parca(k):
                try:
                    for n, (musteri_id, sira) in enumerate(isler[k::a.yayinci]):
                        if hiz:
                            time.sleep(max(0.0, basla + (n * a.yayinci + k) / hiz - time.monotonic()))
                        # The close's declared body (supportdesk.core.olaylar.ChatKapandi) plus the
                        # bench's own `sira`; the chat does not exist, so the sockets send nothing.
                        olay_yayinla("chat_kapandi", musteri_id=musteri_id, veri={
                            "oturum_id": 0, "musteri_id": musteri_id, "kapatan": "sistem", "sure_saniye": 0,
                            "etiketler": [], "ekip_id": None, "sira_degisti": False, "sira": sira})
                finally:
                    connection.close()
            t = time.time()
            with ThreadPoolExecutor(a.yayinci) as ex:
                list(ex.map(parca, range(a.yayinci)))
            return time.time() - t

        # --- P5 -----------------------------------------------------------------------------
        if not a.yalniz_yavas10:
            with WebhookAlici() as alici:
                m = MusteriFactory()
                webhook_endpoint_olustur(musteri=m, url=alici.adres("/p5"))
                cpu0, bench_cpu0 = grup_cpu_s(worker.pid), time.process_time()
                t0 = time.time()
                yayin = yayinla([(m.id, i) for i in range(a.olay)])
                istekler = alici.bekle(a.olay, timeout=300)
                worker_cpu, bench_cpu = grup_cpu_s(worker.pid) - cpu0, time.process_time() - bench_cpu0
                zamanlar = sorted(i.zaman for i in istekler)
                toplam = zamanlar[-1] - t0
                kimlikler = [i.headers["x-webhook-id"] for i in istekler]
                gecikme = [i.zaman - datetime.fromisoformat(i.json()["zaman"]).timestamp() for i in istekler]
                sonuc["P5"] = {"toplam_s": round(toplam, 2), "olay_per_s": round(a.olay / toplam, 1),
                               "yayin_s": round(yayin, 2), "son_yayindan_son_teslimata_s": round(zamanlar[-1] - t0 - yayin, 2),
                               "gecikme_p50_ms": round(yuzdelik(gecikme, 50) * 1000),
                               "gecikme_p99_ms": round(yuzdelik(gecikme, 99) * 1000),
                               "tekrar": len(kimlikler) - len(set(kimlikler)),
                               "worker_cpu_ms_teslimat": round(worker_cpu * 1000 / a.olay, 2),
                               "bench_cpu_ms_olay": round(bench_cpu * 1000 / a.olay, 2),
                               "yuk": [round(x, 2) for x in os.getloadavg()]}
                print(f"P5: {a.olay} olay, ilk olaydan son teslimata {toplam:.2f} s ({a.olay / toplam:.0f} olay/s); "
                      f"yayın {yayin:.2f} s; gecikme p50 {sonuc['P5']['gecikme_p50_ms']} ms, p99 "
                      f"{sonuc['P5']['gecikme_p99_ms']} ms; yinelenen {sonuc['P5']['tekrar']}; worker CPU "
                      f"{sonuc['P5']['worker_cpu_ms_teslimat']} ms/teslimat, yayıncı+alıcı CPU "
                      f"{sonuc['P5']['bench_cpu_ms_olay']} ms/olay; yük {sonuc['P5']['yuk']}", flush=True)

        # --- 10 % slow endpoints -----------------------------------------------------------------
        n_uc, n_yavas = 20, 2
        alicilar = [WebhookAlici() for _ in range(n_uc)]
        try:
            for alici in alicilar[:n_yavas]:
                alici.varsayilan_gecikme = 2.0
            musteriler = [MusteriFactory() for _ in range(n_uc)]
            for m, alici in zip(musteriler, alicilar, strict=True):
                webhook_endpoint_olustur(musteri=m, url=alici.adres("/h"))
            t0 = time.time()
            yayin = yayinla([(m.id, i) for i in range(a.olay // n_uc) for m in musteriler], a.hiz)
            hizli = []
            for alici in alicilar[n_yavas:]:
                hizli += [i.zaman - datetime.fromisoformat(i.json()["zaman"]).timestamp()
                          for i in alici.bekle(a.olay // n_uc, timeout=300)]
            yavas_gelen = sum(len(al.istekler) for al in alicilar[:n_yavas])
            sonuc["yavas10"] = {"hiz": a.hiz, "hizli_teslimat": len(hizli), "p50_ms": round(yuzdelik(hizli, 50) * 1000),
                                "p99_ms": round(yuzdelik(hizli, 99) * 1000), "max_ms": round(max(hizli) * 1000),
                                "ort_ms": round(statistics.mean(hizli) * 1000), "yayin_s": round(yayin, 2),
                                "hizli_son_teslimat_s": round(time.time() - t0, 2), "yavas_o_ana_dek": yavas_gelen,
                                "yuk": [round(x, 2) for x in os.getloadavg()]}
            print(f"%10 yavaş (2 s): hızlı uç noktaların {len(hizli)} teslimatı: p50 {sonuc['yavas10']['p50_ms']} ms, "
                  f"p99 {sonuc['yavas10']['p99_ms']} ms, en çok {sonuc['yavas10']['max_ms']} ms; yayın {yayin:.2f} s; "
                  f"o ana dek yavaşlara ulaşan {yavas_gelen}/{2 * a.olay // n_uc}", flush=True)
        finally:
            for alici in alicilar:
                alici.kapat()
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
    if a.json:
        Path(a.json).write_text(json.dumps(sonuc, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(sonuc, ensure_ascii=False))


if __name__ == "__main__":
    main()
