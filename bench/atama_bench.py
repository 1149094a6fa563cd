#!/usr/bin/env python
"""Routing benchmark (issue 26, by hand, not a test): what automatic assignment costs.

  A  start_manuel   POST /api/v1/widget/chat/start, tenant in `manuel` (the chat waits)
     start_sirayla  the same, tenant in `sirayla` (assigned in the start's transaction)
     start_en_az    the same, tenant in `en_az_yuklu`
     run side by side: interleaved rounds of the three, each round --istek requests per scenario
     from --istemci threads (each thread its own visitors, its own connection).
  B  place freed -> next assignment, with 1,000 (--bekleyen) chats waiting in an automatic tenant
     whose one operator is at its cap: an operator closes a chat (POST .../close) and we time
     (1) the close request as its caller sees it (the hook assigns before the answer returns),
     (2) close request start -> the oldest waiting chat's assignment committed (`kabul_zamani`),
     and (3) the periodic sweep's fill alone (`chat.atama.kuyrugu_doldur`) for one freed place.

In-process: Django's test client through the whole middleware and DRF stack, PostgreSQL and Redis
real (no gunicorn, no network): the numbers compare the three starts with each other; they are not
the service's throughput. The database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/supportdesk_atama_bench) is dropped and created afresh;
BENCH_REDIS_URL (default redis://127.0.0.1:6379/2) is flushed.

Usage: .venv/bin/python bench/atama_bench.py [--tur 3] [--istek 60] [--istemci 4] [--bekleyen 1000]
"""
import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parent.parent


def ortam(database_url: str, redis_url: str) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "supportdesk.settings", "DATABASE_URL": database_url, "REDIS_URL": redis_url,
        "DEBUG": "false", "SECRET_KEY": "bench-only-" + "k" * 48, "SECURE_SSL_REDIRECT": "false",
        "WIDGET_RATE_LIMIT": "100000/s", "KOSUCU_ZAMANLAYICI": "false", "ALLOWED_HOSTS": "*",
    })
    sys.path.insert(0, str(REPO))


def veritabani_sifirla(database_url: str) -> None:
    u = urlparse(database_url)
    ad = u.path.lstrip("/")
    temel = ["psql", "-h", u.hostname or "127.0.0.1", "-p", str(u.port or 5432), "-U", u.username or "postgres",
             "-d", "postgres", "-q", "-c"]
    subprocess.run([*temel, f'DROP DATABASE IF EXISTS "{ad}"'], check=True)
    subprocess.run([*temel, f'CREATE DATABASE "{ad}"'], check=True)


def yuzdelik(degerler, p):
    s = sorted(degerler)
    return s[min(len(s) - 1, int(len(s) * p))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tur", type=int, default=3)
    ap.add_argument("--istek", type=int, default=60, help="requests per scenario per round")
    ap.add_argument("--istemci", type=int, default=4)
    ap.add_argument("--bekleyen", type=int, default=1000)
    ap.add_argument("--b-tekrar", type=int, default=10)
    args = ap.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/supportdesk_atama_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    veritabani_sifirla(database_url)
    ortam(database_url, redis_url)

    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    from chat import atama
    from chat.models import Oturum
    from supportdesk.core import varlik
    from tenants.models import Kullanici, Musteri
    from tenants.services import kullanici_olustur, musteri_olustur, uyelik_ekle

    call_command("migrate", verbosity=0)
    cache.clear()
    print(f"veritabanı: {database_url}  redis: {redis_url}")

    def tenant(ad, mod, *, operator=3, cap=None):
        m = musteri_olustur(firma_adi=ad)
        Musteri.objects.filter(pk=m.pk).update(atama_modu=mod)
        m.refresh_from_db()
        ops = []
        for i in range(operator):
            u = kullanici_olustur(email=f"{ad}-{i}@bench.local", sifre="x" * 12)
            uyelik_ekle(kullanici=u, musteri=m, max_chat_per_tenant=cap)
            Kullanici.objects.filter(pk=u.pk).update(durum="cevrimici")
            ops.append(u)
        return m, ops

    def erisilebilir(ops):
        for u in ops:
            varlik._rest_son_yazim.pop(u.pk, None)
            varlik.rest_cagrisi(kullanici_id=u.pk)

    senaryolar = {"start_manuel": tenant("manuel", "manuel"), "start_sirayla": tenant("sirayla", "sirayla"),
                  "start_en_az": tenant("enaz", "en_az_yuklu")}
    sure = {ad: [] for ad in senaryolar}
    hata = {ad: 0 for ad in senaryolar}
    sayac = iter(range(10**9))
    sayac_kilidi = threading.Lock()

    def calistir(ad, musteri, n):
        def isci(k):
            c = Client(HTTP_X_API_KEY=musteri.api_key)
            for _ in range(k):
                with sayac_kilidi:
                    z = f"z{next(sayac)}"
                t0 = time.perf_counter()
                r = c.post("/api/v1/widget/chat/start", {"ziyaretci_id": z}, content_type="application/json")
                sure[ad].append(time.perf_counter() - t0)
                if r.status_code != 201:
                    hata[ad] += 1
            connections.close_all()

        pay = [n // args.istemci + (1 if i < n % args.istemci else 0) for i in range(args.istemci)]
        ts = [threading.Thread(target=isci, args=(k,)) for k in pay]
        t0 = time.perf_counter()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return n / (time.perf_counter() - t0)

    print(f"\nA) chat/start, {args.tur} tur x {args.istek} istek, {args.istemci} istemci")
    hiz = {ad: [] for ad in senaryolar}
    for tur in range(args.tur):
        for ad, (m, ops) in senaryolar.items():
            erisilebilir(ops)
            hiz[ad].append(calistir(ad, m, args.istek))
        print(f"  tur {tur + 1}: " + "  ".join(f"{ad} {hiz[ad][-1]:.0f}/s" for ad in senaryolar))
    for ad in senaryolar:
        ms = [s * 1000 for s in sure[ad]]
        print(f"  {ad:14s} istek/s (medyan tur) {statistics.median(hiz[ad]):6.0f}   p50 {yuzdelik(ms, .5):6.1f} ms   "
              f"p95 {yuzdelik(ms, .95):6.1f} ms   hata {hata[ad]}")
    for ad, (m, _) in senaryolar.items():
        aktif = Oturum.objects.filter(musteri=m, durum="aktif").count()
        print(f"  {ad}: aktif {aktif}, bekliyor {Oturum.objects.filter(musteri=m, durum='bekliyor').count()}")

    print(f"\nB) yer açıldı -> sonraki atama, {args.bekleyen} bekleyen sohbet, {args.b_tekrar} tekrar")
    m, (op,) = tenant("kuyruk", "sirayla", operator=1, cap=5)
    erisilebilir([op])
    w = Client(HTTP_X_API_KEY=m.api_key)
    for i in range(5):
        w.post("/api/v1/widget/chat/start", {"ziyaretci_id": f"a{i}"}, content_type="application/json")
    Oturum.objects.bulk_create([Oturum(musteri=m, ziyaretci_id=f"b{i}") for i in range(args.bekleyen)])
    giris = Client().post("/api/v1/auth/login", {"email": op.email, "sifre": "x" * 12}, content_type="application/json")
    token = giris.json()["data"]["token"]
    opc = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    kapanis, atamaya = [], []
    for _ in range(args.b_tekrar):
        erisilebilir([op])
        en_eski = Oturum.objects.filter(musteri=m, durum="bekliyor").order_by("baslangic", "id").first()
        hedef = Oturum.objects.filter(musteri=m, operator=op, durum="aktif").first()
        t0 = time.time()
        p0 = time.perf_counter()
        r = opc.post(f"/api/v1/operator/chat/{hedef.id}/close")
        kapanis.append((time.perf_counter() - p0) * 1000)
        assert r.status_code == 200, r.content
        en_eski.refresh_from_db()
        assert en_eski.operator_id == op.id, "en eski bekleyen atanmadı"
        atamaya.append((en_eski.kabul_zamani.timestamp() - t0) * 1000)
    print(f"  close isteği (kancayla)      p50 {statistics.median(kapanis):6.1f} ms   en çok {max(kapanis):6.1f} ms")
    print(f"  close başı -> atama commit    p50 {statistics.median(atamaya):6.1f} ms   en çok {max(atamaya):6.1f} ms")
    # The sweep's fill alone: one place, the same 1,000-deep queue.
    doldurma = []
    for _ in range(args.b_tekrar):
        hedef = Oturum.objects.filter(musteri=m, operator=op, durum="aktif").first()
        Oturum.objects.filter(pk=hedef.pk).update(durum="kapandi")  # no hook: the sweep's case
        erisilebilir([op])
        p0 = time.perf_counter()
        assert atama.kuyrugu_doldur(m.pk) == 1
        doldurma.append((time.perf_counter() - p0) * 1000)
    print(f"  kuyrugu_doldur (tarama)      p50 {statistics.median(doldurma):6.1f} ms   en çok {max(doldurma):6.1f} ms")
    print(f"  bekleyen kaldı: {Oturum.objects.filter(musteri=m, durum='bekliyor').count()}")


if __name__ == "__main__":
    main()
