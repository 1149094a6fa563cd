#!/usr/bin/env python
"""Chat benchmark (issue 4): requests per second and p50/p99 latency under concurrent clients.

Serves the service with gunicorn on PostgreSQL (DEBUG off, the real middleware, auth, throttle
and envelope) and measures, in the same run and on the same stack:

  bos_kayit     POST /bench/bos-kayit                  a bare Django view doing one INSERT (the floor)
  chat_mesaj    POST /api/v1/widget/chat/message       a visitor message (lock, insert, preview update)
  chat_yoklama  GET  /api/v1/widget/chat/messages?sonra=<last id>   an idle poll (nothing new)

Each client is a thread with its own visitor and chat, opening a connection per request
(gunicorn's sync workers do not keep connections alive).

Usage (from the repository root):
    .venv/bin/python bench/chat_bench.py [--sure 30] [--tur 3] [--istemci 16] [--worker N] [--json sonuc.json]

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_chat_bench; the
database is dropped and created afresh), BENCH_REDIS_URL (default redis://127.0.0.1:6379/2).
"""
import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
HOST = "127.0.0.1"


def ortam(database_url: str, redis_url: str) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-" + "k" * 48,
        "SECURE_SSL_REDIRECT": "false",
        "WIDGET_RATE_LIMIT": "100000/s",  # the limiter still runs (cache get+set); 1 s window keeps its list short
        "CONN_MAX_AGE": "60",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }


def veritabani_hazirla(database_url: str, env: dict) -> None:
    import psycopg

    url = urlparse(database_url)
    ad = url.path.lstrip("/")
    yonetim = url._replace(path="/postgres").geturl()
    with psycopg.connect(yonetim, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{ad}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{ad}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=BASE_DIR, env=env, check=True)


def veri_hazirla(istemci: int) -> tuple[str, list[tuple[str, int]]]:
    """A tenant and one open chat per client; returns (widget key, [(visitor id, chat id)])."""
    import django

    django.setup()
    from django.db import connection

    from bench.urls import TABLO
    from chat.services import chat_baslat
    from tenants.services import musteri_olustur

    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLO} (id bigserial PRIMARY KEY, icerik text NOT NULL, "
                       "zaman timestamptz NOT NULL DEFAULT now())")
    musteri = musteri_olustur(firma_adi="Bench")
    sohbetler = []
    for i in range(istemci):
        oturum, _ = chat_baslat(musteri=musteri, ziyaretci_id=f"bench-{i}", ad=f"Ziyaretçi {i}", mesaj="Merhaba")
        sohbetler.append((oturum.ziyaretci_id, oturum.id))
    connection.close()
    return musteri.api_key, sohbetler


def son_mesaj_idleri(sohbetler) -> dict[int, int]:
    from django.db import connection
    from django.db.models import Max

    from chat.models import Mesaj

    ids = dict(Mesaj.objects.filter(oturum_id__in=[o for _, o in sohbetler]).values("oturum_id")
               .annotate(m=Max("id")).values_list("oturum_id", "m"))
    connection.close()
    return ids


def sunucu_baslat(env: dict, port: int, worker: int) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    proc = subprocess.Popen(
        [str(gunicorn), "supportdesk.wsgi:application", "--workers", str(worker), "--bind", f"{HOST}:{port}",
         "--log-level", "warning", "--timeout", "60"],
        cwd=BASE_DIR, env=env,
    )
    bitis = time.monotonic() + 30
    while time.monotonic() < bitis:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn çıktı (kod {proc.returncode})")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                pass
            istek("GET", port, "/api/v1/saglik", None, {})
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn 30 saniyede ayağa kalkmadı")


def istek(method: str, port: int, path: str, body: bytes | None, headers: dict) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        yanit = conn.getresponse()
        yanit.read()
        return yanit.status
    finally:
        conn.close()


def calistir(port: int, istekler: list, beklenen: int, sure: float, isinma: float) -> tuple[list[float], int]:
    """Client i repeats istekler[i] until the time is up; returns (latencies, errors), warm-up excluded."""
    sureler: list[list[float]] = [[] for _ in istekler]
    hatalar = [0] * len(istekler)
    baslangic = time.monotonic() + isinma
    bitis = baslangic + sure

    def istemci(i: int) -> None:
        method, path, body, headers = istekler[i]
        while (simdi := time.monotonic()) < bitis:
            t0 = time.perf_counter()
            try:
                durum = istek(method, port, path, body, headers)
            except OSError:
                durum = 0
            dt = time.perf_counter() - t0
            if simdi >= baslangic:
                sureler[i].append(dt)
                if durum != beklenen:
                    hatalar[i] += 1

    threads = [threading.Thread(target=istemci, args=(i,)) for i in range(len(istekler))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [x for s in sureler for x in s], sum(hatalar)


def ozetle(ad: str, sureler: list[float], hata: int, toplam_sure: float) -> dict:
    tum = sorted(sureler)
    n = len(tum)
    return {
        "senaryo": ad,
        "istek": n,
        "hata": hata,
        "rps": round(n / toplam_sure, 1),
        "p50_ms": round(statistics.median(tum) * 1000, 2) if n else None,
        "p99_ms": round(tum[min(n - 1, int(n * 0.99))] * 1000, 2) if n else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sure", type=float, default=30, help="ölçüm süresi (s), senaryo başına, turlara bölünür")
    parser.add_argument("--tur", type=int, default=3, help="senaryoların sırayla dönüşümlü koşacağı tur sayısı")
    parser.add_argument("--isinma", type=float, default=2, help="sayılmayan ısınma süresi (s)")
    parser.add_argument("--istemci", type=int, default=16, help="eşzamanlı istemci sayısı")
    parser.add_argument("--worker", type=int, default=(os.cpu_count() or 1) * 2 + 1, help="gunicorn worker sayısı")
    parser.add_argument("--port", type=int, default=0, help="0: boş bir port seçilir")
    parser.add_argument("--json", help="sonuçların yazılacağı dosya")
    args = parser.parse_args()

    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_chat_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    env = ortam(database_url, redis_url)
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "DEBUG",
                                            "SECRET_KEY", "SECURE_SSL_REDIRECT", "CELERY_TASK_ALWAYS_EAGER")})
    veritabani_hazirla(database_url, env)
    api_key, sohbetler = veri_hazirla(args.istemci)
    json_basligi = {"Content-Type": "application/json", "X-API-Key": api_key}

    if not args.port:
        with socket.socket() as s:
            s.bind((HOST, 0))
            args.port = s.getsockname()[1]
    sunucu = sunucu_baslat(env, args.port, args.worker)
    try:
        bos = [("POST", "/bench/bos-kayit", b'{"icerik": "Merhaba"}', {"Content-Type": "application/json"})
               for _ in sohbetler]
        mesaj = [("POST", "/api/v1/widget/chat/message",
                  json.dumps({"ziyaretci_id": z, "oturum_id": o, "icerik": "Siparişim nerede?"}).encode(), json_basligi)
                 for z, o in sohbetler]
        olcumler = {ad: ([], 0) for ad in ("bos_kayit", "chat_mesaj", "chat_yoklama")}
        tur_suresi = args.sure / args.tur
        # Rounds interleave the scenarios, so a change in the machine's load hits all of them alike.
        for _ in range(args.tur):
            for ad, istekler, beklenen in (("bos_kayit", bos, 201), ("chat_mesaj", mesaj, 201)):
                sureler, hata = calistir(args.port, istekler, beklenen, tur_suresi, args.isinma)
                olcumler[ad] = (olcumler[ad][0] + sureler, olcumler[ad][1] + hata)
            son = son_mesaj_idleri(sohbetler)
            yoklama = [("GET", "/api/v1/widget/chat/messages?" + urlencode({"ziyaretci_id": z, "oturum_id": o,
                                                                             "sonra": son[o]}),
                        None, {"X-API-Key": api_key}) for z, o in sohbetler]
            sureler, hata = calistir(args.port, yoklama, 200, tur_suresi, args.isinma)
            olcumler["chat_yoklama"] = (olcumler["chat_yoklama"][0] + sureler, olcumler["chat_yoklama"][1] + hata)
        sonuclar = [ozetle(ad, sureler, hata, args.sure) for ad, (sureler, hata) in olcumler.items()]
    finally:
        sunucu.terminate()
        sunucu.wait(timeout=30)

    taban = sonuclar[0]["rps"] or 1
    for s in sonuclar:
        s["bos_kayda_orani"] = round(s["rps"] / taban, 2)
    ozet = {"istemci": args.istemci, "worker": args.worker, "sure_s": args.sure, "tur": args.tur, "cpu": os.cpu_count(),
            "yuk_ortalamasi": [round(x, 2) for x in os.getloadavg()],
            "sonuclar": sonuclar}
    print("| senaryo | istek | hata | istek/s | p50 ms | p99 ms | boş kayda oranı |")
    print("|---|---|---|---|---|---|---|")
    for s in sonuclar:
        print(f"| {s['senaryo']} | {s['istek']} | {s['hata']} | {s['rps']} | {s['p50_ms']} | {s['p99_ms']} | "
              f"{s['bos_kayda_orani']} |")
    print(json.dumps(ozet, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(ozet, ensure_ascii=False, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
