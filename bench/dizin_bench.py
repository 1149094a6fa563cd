#!/usr/bin/env python
"""Search indexing per message against the chat's length (issue 41), in-process on PostgreSQL, on
the database `bench/mesaj_bench.py` (or chat_bench.py) left behind: a chat of `n` messages gets
`--kez` more, one at a time, each indexed as the old path did (`chat_kaydi_yenile`: the whole chat
read and its row rewritten) and as the new one does (`chat_mesajlari_ekle`: what is newer than the
row's last message, appended in the database). Prints ms of wall time and statements per message.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sd_mesaj_bench BENCH_REDIS_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python bench/dizin_bench.py [--boy 10 --boy 1000] [--kez 200]
"""
import argparse
import os
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--boy", type=int, action="append", help="chat lengths (default 10 and 1000)")
    p.add_argument("--kez", type=int, default=200)
    args = p.parse_args()
    os.environ.update({
        "DEBUG": "false", "SECRET_KEY": "bench-dizin-" + "x" * 40, "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_mesaj_bench"),
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2"),
        "DJANGO_SETTINGS_MODULE": "taban.settings", "ARAMA_BIRIKTIRME_SANIYE": "0",
    })
    sys.path[:0] = [str(BENCH_DIR.parent), str(BENCH_DIR)]
    import django
    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from arama import services
    from chat.models import Mesaj, Oturum
    from tenants.models import Musteri

    musteri = Musteri.objects.get(firma_adi="Bench Widget")
    print("| chat length | path | ms per message | statements per message | ms per statement, in order |\n"
          "|---|---|---|---|---|")
    for boy in args.boy or [10, 1000]:
        for ad, yol in (("rebuild (before)", "yenile"), ("append (after)", "ekle")):
            oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id=f"dizin-{boy}-{yol}")
            Mesaj.objects.bulk_create(Mesaj(musteri=musteri, oturum=oturum, gonderen=Mesaj.Gonderen.ZIYARETCI,
                                            icerik=f"eski mesaj numara {i} siparişim kargo") for i in range(boy))
            services.chat_kaydi_yenile(oturum_id=oturum.pk)
            toplam, sorgu, ifade = 0.0, 0, {}
            for i in range(args.kez):
                Mesaj.objects.bulk_create([Mesaj(musteri=musteri, oturum=oturum, gonderen=Mesaj.Gonderen.ZIYARETCI,
                                                 icerik=f"yeni mesaj {i} fatura iade")])
                with CaptureQueriesContext(connection) as q:
                    t0 = time.perf_counter()
                    if yol == "yenile":
                        services.chat_kaydi_yenile(oturum_id=oturum.pk)
                    else:
                        services.chat_mesajlari_ekle(oturum_id=oturum.pk)
                    toplam += time.perf_counter() - t0
                sorgu += len(q.captured_queries)
                for n, y in enumerate(q.captured_queries):
                    ifade[n] = ifade.get(n, 0.0) + float(y["time"])
            adim = ", ".join(f"{t / args.kez * 1000:.2f}" for t in ifade.values())
            print(f"| {boy:,} | {ad} | {toplam / args.kez * 1000:.2f} | {sorgu / args.kez:g} | {adim} |", flush=True)
            oturum.delete()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
