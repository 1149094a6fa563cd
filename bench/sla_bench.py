#!/usr/bin/env python
"""SLA sweep benchmark (issue 28), run by hand; see docs/performance.md ("SLA sweep").

100,000 open tickets (100 tenants with an active policy, every ticket with its three clocks
running, as `tickets.sla` stores them) on a fresh PostgreSQL database; a share of them due:
`--uyari` tickets whose first-response warning is due, `--ihlal` whose first response is
breached. Then one run of the sweep (`tickets.sla.tara`, what the beat task `tickets.sla_tara`
calls), timed, with its statements; then a second run with nothing due (the steady state: every
30 s in production). Each announcement writes its webhook outbox row and, after the commit,
its socket frame and (breach) mail rows, as in production (the in-memory channel layer: no
sockets are open, so the frames cost their serialisation only).

Usage (from the checkout):
    .venv/bin/python bench/sla_bench.py [--ticket 100000] [--uyari 1000] [--ihlal 500] [--redis URL]
(`SLA_PROFIL=1`: the first run under cProfile, its top 25 by cumulative time.)

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_sla_bench; dropped
and created afresh). Redis only with `--redis URL` (then the frames go through the Redis channel
layer on the runner's publishing line, as in production; without it the in-memory layer is called
through `async_to_sync` per frame, as `make run` does).
"""
import argparse
import cProfile
import os
import pstats
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

VARSAYILAN_DB = "postgres://postgres@127.0.0.1:5432/sd_sla_bench"
KOK = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ticket", type=int, default=100_000)
    ap.add_argument("--musteri", type=int, default=100)
    ap.add_argument("--uyari", type=int, default=1000)
    ap.add_argument("--ihlal", type=int, default=500)
    ap.add_argument("--redis", default="", help="REDIS_URL for the run (channel layer, cache); default none")
    a = ap.parse_args()

    db_url = os.environ.get("BENCH_DATABASE_URL", VARSAYILAN_DB)
    u = urlparse(db_url)
    ad = u.path.lstrip("/")
    import psycopg

    with psycopg.connect(db_url.replace(f"/{ad}", "/postgres"), autocommit=True) as b:
        b.execute(f'DROP DATABASE IF EXISTS "{ad}" WITH (FORCE)')
        b.execute(f'CREATE DATABASE "{ad}"')
    os.environ["DATABASE_URL"] = db_url
    if a.redis:
        os.environ["REDIS_URL"] = a.redis
    else:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")
    os.environ["DEBUG"] = "false"
    sys.path.insert(0, str(KOK))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from supportdesk.testing.factories import KullaniciFactory, MusteriFactory
    from tenants.models import Uyelik
    from tickets import sla
    from tickets.models import SlaPolitikasi, Ticket
    from webhooks.models import Olay

    call_command("migrate", verbosity=0)
    simdi = timezone.now()
    musteriler = [MusteriFactory(firma_adi=f"Bench {i}") for i in range(a.musteri)]
    for m in musteriler:
        SlaPolitikasi.objects.create(musteri=m, aktif=True, mesai_icinde=False, uyari_dk=15, hedefler={
            "normal": {"ilk_yanit_dk": 60, "sonraki_yanit_dk": 60, "cozum_dk": 1440}})
        Uyelik.objects.create(kullanici=KullaniciFactory(), musteri=m, rol="sahip")
    t0 = time.monotonic()
    parti = []
    for i in range(a.ticket):
        # Most tickets are far from due; the first `uyari` are in their warning window, the next
        # `ihlal` past their first-response due time.
        if i < a.uyari:
            olusturulma = simdi - timedelta(minutes=50)
        elif i < a.uyari + a.ihlal:
            olusturulma = simdi - timedelta(minutes=70)
        else:
            olusturulma = simdi - timedelta(seconds=i % 1800)
        t = Ticket(musteri=musteriler[i % a.musteri], ziyaretci_id=f"z{i}", konu="Bench", olusturulma=olusturulma,
                   guncellenme=olusturulma)
        b = sla.Baglam(politika=SlaPolitikasi(aktif=True, uyari_dk=15, hedefler={
            "normal": {"ilk_yanit_dk": 60, "sonraki_yanit_dk": 60, "cozum_dk": 1440}}), takvim=None, simdi=olusturulma)
        sla.olusturuldu(t, b)
        parti.append(t)
        if len(parti) == 5000:
            Ticket.objects.bulk_create(parti)
            parti = []
    if parti:
        Ticket.objects.bulk_create(parti)
    with connection.cursor() as c:
        c.execute("VACUUM ANALYZE tickets_ticket")
    print(f"{a.ticket} açık talep ({a.musteri} proje) {time.monotonic() - t0:.1f} s içinde yazıldı.")

    for tur in ("ilk kez (uyarı ve ihlal var)", "ikinci kez (hiçbir şey vadeli değil)"):
        with CaptureQueriesContext(connection) as ctx:
            t0 = time.monotonic()
            if os.environ.get("SLA_PROFIL") and tur.startswith("ilk"):
                pr = cProfile.Profile()
                sonuc = pr.runcall(sla.tara)
                pstats.Stats(pr).sort_stats("cumulative").print_stats(25)
            else:
                sonuc = sla.tara()
            sure = time.monotonic() - t0
        print(f"Tarama {tur}: {sure * 1000:.0f} ms, {len(ctx.captured_queries)} sorgu, {sonuc}")
        tablolar = {}
        for q in ctx.captured_queries:
            sql = q["sql"]
            tablo = sql.split('"')[1] if '"' in sql else sql[:20]
            anahtar = f"{sql.split()[0]} {tablo}"
            tablolar[anahtar] = tablolar.get(anahtar, 0) + 1
        print("   ", dict(sorted(tablolar.items(), key=lambda x: -x[1])[:8]))
    print("Olay satırları:", {o: Olay.objects.filter(olay=o).count() for o in ("sla_uyari", "sla_ihlal")})
    with connection.cursor() as c:
        c.execute("EXPLAIN ANALYZE SELECT id FROM tickets_ticket WHERE sla_ilk_uyari <= now() "
                  "AND sla_ilk_durum = 'bekliyor' AND sla_ilk_vade > now() ORDER BY sla_ilk_uyari LIMIT 500 "
                  "FOR UPDATE SKIP LOCKED")
        print("\n".join(r[0] for r in c.fetchall()))


if __name__ == "__main__":
    main()
