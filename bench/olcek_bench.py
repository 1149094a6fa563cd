#!/usr/bin/env python
"""Sizing on paper, measured (issue 44, docs/production.md "Sizing"): the hot queries on
--mesaj messages, with `chat_mesaj` as it is and partitioned by month.

Seeds a scratch database (the real schema: `migrate`) with --musteri tenants, --mesaj / 10 closed
chats spread evenly over the last 12 months (10 messages each, 30 s apart), one search row per chat
(`arama.AramaKaydi`, with its tsvector), then captures the SQL the service itself runs (through the
ORM) for:

  sohbet_mesajlari  a chat's messages, as the console opens a chat (chat.selectors)
  arama             the operator search, one tenant, a common word (arama.selectors)
  rapor             the portal report's queries, one tenant, 30 days (portal.rapor_views.rapor_hesapla)

and runs each under EXPLAIN (ANALYZE, BUFFERS) several times (the median of the warm runs kept),
first on the plain table, then with `chat_mesaj` swapped for a copy partitioned by month on
`zaman` (primary key (id, zaman); the same indexes, per partition). Prints JSON.

Usage: .venv/bin/python bench/olcek_bench.py [--mesaj 10000000] [--musteri 1000] [--json out.json]
Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_olcek_bench; dropped
and created afresh unless --yeniden-kullan).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlparse

KOK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KOK))


def _psql(url: str, sql: str) -> None:
    subprocess.run(["psql", url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True)


def _hazirla(url: str) -> None:
    ad = urlparse(url).path.lstrip("/")
    yonetici = url.rsplit("/", 1)[0] + "/postgres"
    _psql(yonetici, f'DROP DATABASE IF EXISTS "{ad}"')
    _psql(yonetici, f'CREATE DATABASE "{ad}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=KOK, check=True,
                   env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings"})


def _tohumla(musteri_sayisi: int, mesaj_sayisi: int) -> None:
    from django.db import connection

    from supportdesk.testing.factories import KullaniciFactory, MusteriFactory
    from tenants.services import uyelik_ekle

    musteriler = MusteriFactory.create_batch(musteri_sayisi)
    operator = KullaniciFactory()
    for m in musteriler[:10]:
        uyelik_ekle(kullanici=operator, musteri=m, rol="sahip")
    ilk, son = musteriler[0].id, musteriler[-1].id
    sohbet = mesaj_sayisi // 10
    with connection.cursor() as c:
        t0 = time.monotonic()
        # Chats: tenant by i, start spread over the last 365 days, closed, first answer after 40 s.
        c.execute(f"""
            INSERT INTO chat_oturum (ziyaretci_id, ziyaretci_adi, email, kanal, durum, baslangic, kabul_zamani,
                bitis_zamani, kapatan, puan, puan_yorumu, okunmamis, musteri_id, operator_id, ilk_yanit_zamani, dil,
                ertelendi_ziyaretci)
            SELECT 'z_' || i, 'Ziyaretçi ' || i, '', 'widget', 'kapandi', b, b + interval '20 s', b + interval '300 s',
                   'operator', 1 + i % 5, '', 0, {ilk} + i % {son - ilk + 1}, {operator.id}, b + interval '40 s', 'tr', false
            FROM (SELECT i, now() - (i * interval '365 days' / {sohbet}) AS b FROM generate_series(1, {sohbet}) i) s""")
        # Messages: bulk load without indexes and foreign keys, then put them back (as a restore does).
        c.execute("""SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index
                     WHERE indrelid = 'chat_mesaj'::regclass AND NOT indisprimary""")
        indeksler = c.fetchall()
        for ad, _ in indeksler:
            c.execute(f"DROP INDEX {ad}")
        c.execute("""
            INSERT INTO chat_mesaj (gonderen, icerik, zaman, musteri_id, operator_id, oturum_id, ozel)
            SELECT CASE WHEN k % 2 = 0 THEN 'ziyaretci' ELSE 'operator' END,
                   'fatura ödeme sorusu ' || md5(o.id::text || k), o.baslangic + k * interval '30 s', o.musteri_id,
                   CASE WHEN k % 2 = 0 THEN NULL ELSE o.operator_id END, o.id, false
            FROM chat_oturum o CROSS JOIN generate_series(0, 9) k""")
        for _, tanim in indeksler:
            c.execute(tanim)
        # One search row per chat (what arama.services writes), folded text and its tsvector.
        c.execute("""
            INSERT INTO arama_aramakaydi (musteri_id, tur, oturum_id, belge_id, ziyaretci_id, baslik, ust_metin,
                govde_metin, katli_ust, katli_govde, vektor, zaman)
            SELECT musteri_id, 'chat', id, id, ziyaretci_id, ziyaretci_adi, ziyaretci_adi, 'fatura ödeme sorusu',
                   ' ziyaretci ' || id || ' ', ' fatura odeme sorusu ' || CASE WHEN id % 7 = 0 THEN 'iade ' ELSE '' END,
                   setweight(to_tsvector('simple', 'ziyaretci ' || id), 'A')
                   || setweight(to_tsvector('simple', 'fatura odeme sorusu'
                                            || CASE WHEN id % 7 = 0 THEN ' iade' ELSE '' END), 'B'),
                   bitis_zamani
            FROM chat_oturum""")
        c.execute("ANALYZE")
        print(f"tohum: {time.monotonic() - t0:.0f} sn", file=sys.stderr)


def _sorgular(musteri_id: int) -> dict[str, list[tuple[str, tuple]]]:
    """The statements the service runs, captured from the ORM (with their parameters)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from arama import selectors as arama
    from chat.models import Mesaj, Oturum
    from portal.rapor_views import rapor_hesapla

    oturum = Oturum.objects.filter(musteri_id=musteri_id).order_by("-id")[10]
    yakalanan = {}
    with CaptureQueriesContext(connection) as q:
        list(Mesaj.objects.filter(oturum_id=oturum.id).order_by("id"))
    yakalanan["sohbet_mesajlari"] = [x["sql"] for x in q.captured_queries]
    with CaptureQueriesContext(connection) as q:
        arama.arama_sayfasi(musteri_idleri=[musteri_id], q="iade", tur=None, cursor=None, limit=25)
    yakalanan["arama"] = [x["sql"] for x in q.captured_queries]
    bugun = timezone.localdate()
    with CaptureQueriesContext(connection) as q:
        rapor_hesapla(musteri_id=musteri_id, bas_gun=bugun - timedelta(days=29), son_gun=bugun,
                      tz=timezone.get_current_timezone())
    yakalanan["rapor"] = [x["sql"] for x in q.captured_queries]
    return yakalanan


def _olc(sqller: list[str], tekrar: int = 5) -> dict:
    """Per statement: median execution ms of the warm runs, and whether it touches chat_mesaj."""
    from django.db import connection

    sonuc = []
    with connection.cursor() as c:
        for sql in sqller:
            sureler = []
            for _ in range(tekrar):
                c.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)
                plan = c.fetchone()[0]
                plan = plan[0] if isinstance(plan, list) else json.loads(plan)[0]
                sureler.append(plan["Execution Time"] + plan["Planning Time"])
            sonuc.append({"sql": sql, "ms": round(statistics.median(sureler[1:]), 2),
                          "mesaj_tablosu": "chat_mesaj" in sql})
    return {"toplam_ms": round(sum(s["ms"] for s in sonuc), 2), "sorgular": sonuc}


def _bolumle() -> None:
    """chat_mesaj → a copy partitioned by month on `zaman`, swapped in under the same name."""
    from django.db import connection

    with connection.cursor() as c:
        c.execute("SELECT date_trunc('month', min(zaman))::date, date_trunc('month', max(zaman))::date FROM chat_mesaj")
        bas, son = c.fetchone()
        c.execute("CREATE TABLE chat_mesaj_b (LIKE chat_mesaj INCLUDING DEFAULTS) PARTITION BY RANGE (zaman)")
        ay = bas
        while ay <= son:
            sonraki = (ay.replace(day=28) + timedelta(days=4)).replace(day=1)
            c.execute(f"CREATE TABLE chat_mesaj_{ay:%Y%m} PARTITION OF chat_mesaj_b FOR VALUES FROM ('{ay}') TO ('{sonraki}')")
            ay = sonraki
        c.execute("INSERT INTO chat_mesaj_b SELECT * FROM chat_mesaj")
        c.execute("ALTER TABLE chat_mesaj_b ADD PRIMARY KEY (id, zaman)")
        c.execute("""SELECT pg_get_indexdef(indexrelid) FROM pg_index
                     WHERE indrelid = 'chat_mesaj'::regclass AND NOT indisprimary""")
        for (tanim,) in c.fetchall():
            c.execute(re.sub(r"INDEX (\w+) ON public\.chat_mesaj ", r"INDEX \1_b ON public.chat_mesaj_b ", tanim))
        c.execute("ALTER TABLE chat_mesaj RENAME TO chat_mesaj_duz")
        c.execute("ALTER TABLE chat_mesaj_b RENAME TO chat_mesaj")
        c.execute("ANALYZE chat_mesaj")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mesaj", type=int, default=10_000_000)
    p.add_argument("--musteri", type=int, default=1000)
    p.add_argument("--json")
    p.add_argument("--yeniden-kullan", action="store_true", help="Tohumlanmış veritabanını yeniden kur(ma)")
    a = p.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_olcek_bench")
    if not a.yeniden_kullan:
        _hazirla(url)
    os.environ.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="supportdesk.test_settings", DB_PREPARE_THRESHOLD="0")
    import django

    django.setup()
    from django.db import connection

    from tenants.models import Musteri

    if not a.yeniden_kullan:
        _tohumla(a.musteri, a.mesaj)
    musteri_id = Musteri.objects.order_by("id").values_list("id", flat=True)[a.musteri // 2]
    sqller = _sorgular(musteri_id)
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM chat_mesaj")
        satir = c.fetchone()[0]
        c.execute("SELECT pg_size_pretty(pg_total_relation_size('chat_mesaj')),"
                  " pg_size_pretty(pg_database_size(current_database()))")
        boyutlar = c.fetchone()
    sonuc = {"mesaj": satir, "musteri": a.musteri, "tarih": str(date.today()), "chat_mesaj_boyut": boyutlar[0],
             "veritabani_boyut": boyutlar[1], "duz": {k: _olc(v) for k, v in sqller.items()}}
    t0 = time.monotonic()
    _bolumle()
    sonuc["bolumleme_sn"] = round(time.monotonic() - t0)
    sonuc["aylik_bolumlu"] = {k: _olc(v) for k, v in sqller.items()}
    # The console knows the chat's start: with `zaman >= baslangic` the planner prunes to 1–2 months.
    oturum_sql = sqller["sohbet_mesajlari"][-1]
    with connection.cursor() as c:
        c.execute("SELECT baslangic FROM chat_oturum WHERE id = %s",
                  [int(re.search(r'"oturum_id" = (\d+)', oturum_sql).group(1))])
        baslangic = c.fetchone()[0]
    budanan = oturum_sql.replace(' ORDER BY', f" AND \"chat_mesaj\".\"zaman\" >= '{baslangic.isoformat()}' ORDER BY")
    sonuc["aylik_bolumlu"]["sohbet_mesajlari_zaman_sinirli"] = _olc([budanan])
    cikti = json.dumps(sonuc, ensure_ascii=False, indent=2)
    print(cikti)
    if a.json:
        Path(a.json).write_text(cikti + "\n")


if __name__ == "__main__":
    main()
