#!/usr/bin/env python
"""Retention benchmark (CONTRACT 18, issue 30): the daily job on a tenant with --mesaj messages.

Seeds one tenant with `saklama_gun = 30`: --sohbet closed chats (half of them 40 days old, half
from today) sharing --mesaj messages evenly, --ticket `cozuldu` tickets (half old) with 4 replies
each, and 20 context page views per old chat's visitor. Then runs `gizlilik.services.saklama_uygula`
while a writer thread keeps adding messages to an open chat of the same tenant (and reading them
back), and reports:

  sure_sn          the whole job's wall time
  parti_sayisi     batches (each its own transaction)
  parti_en_uzun_ms the longest batch (the longest any row of the job stays locked)
  yazici_p50/p99/en_uzun_ms  the concurrent writer's INSERT latency during the job (a busy table
                   never waits for the job long)
  silinen          the counts the job returns

Usage: .venv/bin/python bench/saklama_bench.py [--mesaj 1000000] [--sohbet 20000] [--ticket 10000] [--json out.json]
Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_saklama_bench; dropped
and created afresh).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

KOK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KOK))


def _veritabani_hazirla(url: str) -> None:
    ad = urlparse(url).path.lstrip("/")
    yonetici = url.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{ad}"', f'CREATE DATABASE "{ad}"'):
        subprocess.run(["psql", yonetici, "-q", "-c", sql], check=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mesaj", type=int, default=1_000_000)
    ap.add_argument("--sohbet", type=int, default=20_000)
    ap.add_argument("--ticket", type=int, default=10_000)
    ap.add_argument("--json")
    args = ap.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_saklama_bench")
    _veritabani_hazirla(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 40)
    os.environ.setdefault("KOSUCU_ZAMANLAYICI", "false")
    os.environ["DJANGO_SETTINGS_MODULE"] = "supportdesk.settings"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, connections
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    from chat.models import Mesaj, Oturum
    from gizlilik import services
    from tenants.models import Musteri

    musteri = Musteri.objects.create(firma_adi="Saklama Bench", saklama_gun=30)
    simdi = timezone.now()
    t0 = time.perf_counter()
    with connection.cursor() as c:
        # Chats: even ids old (40 days), odd ids new; all closed.
        c.execute("""
            INSERT INTO chat_oturum (musteri_id, ziyaretci_id, ziyaretci_adi, email, kanal, durum, baslangic,
                                     bitis_zamani, kapatan, puan_yorumu, okunmamis)
            SELECT %s, 'z_' || g, 'Ziyaretçi ' || g, '', 'widget', 'kapandi',
                   CASE WHEN g %% 2 = 0 THEN %s - interval '40 days' ELSE %s END,
                   CASE WHEN g %% 2 = 0 THEN %s - interval '40 days' ELSE %s END, 'operator', '', 0
            FROM generate_series(1, %s) g""", [musteri.id, simdi, simdi, simdi, simdi, args.sohbet])
        c.execute("SELECT min(id) FROM chat_oturum WHERE musteri_id = %s", [musteri.id])
        ilk = c.fetchone()[0]
        c.execute("""
            INSERT INTO chat_mesaj (musteri_id, oturum_id, gonderen, icerik, zaman, ozel)
            SELECT %s, o.id, CASE WHEN g %% 2 = 0 THEN 'ziyaretci' ELSE 'operator' END,
                   'Mesaj metni ' || g || ' biraz daha uzun bir içerik, fatura ve sipariş hakkında.', o.baslangic, false
            FROM generate_series(0, %s - 1) g JOIN chat_oturum o ON o.id = %s + (g %% %s)""",
                  [musteri.id, args.mesaj, ilk, args.sohbet])
        c.execute("""
            INSERT INTO tickets_ticket (musteri_id, ziyaretci_id, konu, durum, oncelik, ad, email, kanal,
                                        olusturulma, guncellenme)
            SELECT %s, 'z_' || g, 'Konu ' || g, 'cozuldu', 'normal', '', '', 'widget',
                   CASE WHEN g %% 2 = 0 THEN %s - interval '40 days' ELSE %s END,
                   CASE WHEN g %% 2 = 0 THEN %s - interval '40 days' ELSE %s END
            FROM generate_series(1, %s) g""", [musteri.id, simdi, simdi, simdi, simdi, args.ticket])
        c.execute("""
            INSERT INTO tickets_ticketyanit (ticket_id, gonderen, icerik, zaman, ozel)
            SELECT t.id, 'ziyaretci', 'Yanıt ' || g, t.olusturulma, false
            FROM tickets_ticket t CROSS JOIN generate_series(1, 4) g WHERE t.musteri_id = %s""", [musteri.id])
        c.execute("ANALYZE")
    tohum_sn = time.perf_counter() - t0
    print(f"tohum: {args.sohbet} sohbet, {Mesaj.objects.count()} mesaj, {args.ticket} ticket ({tohum_sn:.1f} s)", flush=True)

    # The writer: an open chat of the same tenant, a message every 20 ms, each INSERT timed.
    acik = Oturum.objects.create(musteri=musteri, ziyaretci_id="z_yazici", durum="aktif")
    gecikmeler: list[float] = []
    dur = threading.Event()

    def yazici():
        try:
            while not dur.is_set():
                a = time.perf_counter()
                Mesaj.objects.create(musteri=musteri, oturum=acik, gonderen="ziyaretci", icerik="canlı mesaj")
                list(Mesaj.objects.filter(oturum=acik).order_by("-id")[:20])
                gecikmeler.append((time.perf_counter() - a) * 1000)
                time.sleep(0.02)
        finally:
            connections.close_all()

    partiler: list[float] = []
    asil = services._saklama_partisi

    def olculen_parti(m, sinir):
        a = time.perf_counter()
        try:
            return asil(m, sinir)
        finally:
            partiler.append((time.perf_counter() - a) * 1000)

    services._saklama_partisi = olculen_parti
    is_parcacigi = threading.Thread(target=yazici)
    is_parcacigi.start()
    t0 = time.perf_counter()
    silinen = services.saklama_uygula()
    sure = time.perf_counter() - t0
    dur.set()
    is_parcacigi.join()
    ikinci_t0 = time.perf_counter()
    ikinci = services.saklama_uygula()
    ikinci_sure = time.perf_counter() - ikinci_t0

    gecikmeler.sort()
    sonuc = {
        "mesaj": args.mesaj, "sohbet": args.sohbet, "ticket": args.ticket,
        "sure_sn": round(sure, 2), "parti_sayisi": len(partiler),
        "parti_p50_ms": round(statistics.median(partiler), 1) if partiler else None,
        "parti_en_uzun_ms": round(max(partiler), 1) if partiler else None,
        "yazici_istek": len(gecikmeler),
        "yazici_p50_ms": round(statistics.median(gecikmeler), 1) if gecikmeler else None,
        "yazici_p99_ms": round(gecikmeler[int(len(gecikmeler) * 0.99) - 1], 1) if len(gecikmeler) >= 100 else None,
        "yazici_en_uzun_ms": round(max(gecikmeler), 1) if gecikmeler else None,
        "silinen": silinen, "ikinci_calisma": ikinci, "ikinci_sure_sn": round(ikinci_sure, 2),
        "kalan_mesaj": Mesaj.objects.filter(musteri=musteri).count(),
    }
    print(json.dumps(sonuc, ensure_ascii=False, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(sonuc, ensure_ascii=False, indent=2))
    connections.close_all()


if __name__ == "__main__":
    main()
