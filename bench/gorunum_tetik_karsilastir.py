"""The view counters' row trigger body before and after (issue 43, task h43t): 0001's (the shared
set-returning `panel_gorunum_anahtarlari` per row version, a UNION and a GROUP BY) against 0002's
(the keys computed inline in PL/pgSQL, one INSERT of the moved keys), and the triggers off, in one
database, the arms rotating their order every round (`CREATE OR REPLACE FUNCTION` swaps the body;
`ALTER TABLE ... DISABLE TRIGGER` turns them off).

Two cases, each run inside PostgreSQL by one function call (no client round trips):
  hayat   a chat's life, as bench/gorunum_tetik_db.sql: INSERT waiting, accept (durum, operator),
          a message (no view column: the WHEN skips the trigger), close; µs per life
  toplu   --toplu waiting chats inserted by one statement, accepted by one UPDATE, closed by one
          UPDATE (a bulk action: row triggers fire per row); µs per chat

  tetik   the triggers' own time as EXPLAIN ANALYZE reports it ("Trigger ...: time=") over the
          statements of `toplu`, µs per firing: the cleanest number on a loaded machine (no
          table write of the chats in it); with a reference arm `taban`, a body that only INSERTs
          two constant rows (the floor of any row trigger writing two counter rows)

Per arm the median of the rounds; `yeni / eski` of the trigger's own cost is (yeni - kapali) /
(eski - kapali). The counters are checked against a recount at the end (`kayan` must be 0).

Usage: .venv/bin/python bench/gorunum_tetik_karsilastir.py [--tur 6] [--adet 1000] [--toplu 500] [--json f]
Environment: BENCH_DATABASE_URL (dropped and created afresh), BENCH_REDIS_URL (flushed).
"""
import argparse
import datetime as dt
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chat_bench import manage, musteri_olustur, pg, sunucu_ortami, veritabani_hazirla

GOVDELER = """
import importlib, json
print(json.dumps({'eski': importlib.import_module('panel.migrations.0001_gorunum_sayaci').TETIK,
                  'yeni': importlib.import_module('panel.migrations.0002_gorunum_tetik_satir_ici').TETIK}))
"""

FONKSIYONLAR = """
CREATE OR REPLACE FUNCTION pg_temp.hayat(n int, etiket text, m bigint, op bigint) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; sablon chat_oturum;
BEGIN
  SELECT * INTO sablon FROM chat_oturum LIMIT 1;
  t0 := clock_timestamp();
  FOR i IN 1..n LOOP
    sablon.id := nextval(pg_get_serial_sequence('chat_oturum', 'id'));
    sablon.musteri_id := m; sablon.ziyaretci_id := etiket || '-' || i; sablon.durum := 'bekliyor';
    sablon.operator_id := NULL; sablon.ertelendi_kadar := NULL; sablon.ertelendi_ziyaretci := false;
    INSERT INTO chat_oturum SELECT (sablon).*;
    UPDATE chat_oturum SET durum = 'aktif', operator_id = op WHERE id = sablon.id;
    UPDATE chat_oturum SET son_mesaj = 'Merhaba', okunmamis = 1 WHERE id = sablon.id;
    UPDATE chat_oturum SET durum = 'kapandi' WHERE id = sablon.id;
  END LOOP;
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / n;
END $$;
CREATE OR REPLACE FUNCTION pg_temp.toplu(n int, etiket text, m bigint, op bigint) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; sablon chat_oturum;
BEGIN
  SELECT * INTO sablon FROM chat_oturum LIMIT 1;
  sablon.musteri_id := m; sablon.durum := 'bekliyor'; sablon.operator_id := NULL;
  sablon.ertelendi_kadar := NULL; sablon.ertelendi_ziyaretci := false;
  CREATE TEMP TABLE IF NOT EXISTS kalip AS SELECT * FROM chat_oturum WITH NO DATA;
  TRUNCATE kalip;
  INSERT INTO kalip SELECT (sablon).* FROM generate_series(1, n);
  UPDATE kalip SET id = nextval(pg_get_serial_sequence('chat_oturum', 'id'));
  UPDATE kalip SET ziyaretci_id = etiket || '-' || id;
  t0 := clock_timestamp();
  INSERT INTO chat_oturum SELECT * FROM kalip;
  UPDATE chat_oturum SET durum = 'aktif', operator_id = op WHERE id IN (SELECT id FROM kalip);
  UPDATE chat_oturum SET durum = 'kapandi' WHERE id IN (SELECT id FROM kalip);
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / n;
END $$;
"""
TETIKLER = ("panel_gorunum_sayaci_ekle_sil", "panel_gorunum_sayaci_guncelle")
TABAN = """
CREATE OR REPLACE FUNCTION panel_gorunum_sayaci_tetik() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
    VALUES (coalesce(NEW.musteri_id, OLD.musteri_id), TG_ARGV[0], 'acik', NULL, 0),
           (coalesce(NEW.musteri_id, OLD.musteri_id), TG_ARGV[0], 'atanmamis', NULL, 0);
    RETURN NULL;
END $$;
"""


def tetik_suresi(conn, n: int, op: int) -> float:
    """The row triggers' time in EXPLAIN ANALYZE of n chats inserted, accepted, closed; µs per firing."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS kalip2 AS SELECT * FROM chat_oturum WITH NO DATA")
    conn.execute("TRUNCATE kalip2")
    conn.execute("INSERT INTO kalip2 SELECT o.* FROM chat_oturum o, generate_series(1, %s) "
                 "WHERE o.ziyaretci_id = 'sablon'", [n])
    conn.execute("UPDATE kalip2 SET id = nextval(pg_get_serial_sequence('chat_oturum', 'id')), durum = 'bekliyor'")
    conn.execute("UPDATE kalip2 SET ziyaretci_id = 'e-' || id")
    ms = 0.0
    for sql in ("INSERT INTO chat_oturum SELECT * FROM kalip2",
                f"UPDATE chat_oturum SET durum = 'aktif', operator_id = {int(op)} WHERE id IN (SELECT id FROM kalip2)",
                "UPDATE chat_oturum SET durum = 'kapandi' WHERE id IN (SELECT id FROM kalip2)"):
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN (ANALYZE) " + sql).fetchall())
        ms += sum(float(x) for x in re.findall(r"Trigger panel_gorunum_sayaci_\w+: time=([\d.]+)", plan))
    return ms * 1000 / (3 * n)


def kol(conn, ad: str, govdeler: dict) -> None:
    for tetik in TETIKLER:
        conn.execute(f"ALTER TABLE chat_oturum {'DISABLE' if ad == 'kapali' else 'ENABLE'} TRIGGER {tetik}")
    if ad != "kapali":
        conn.execute(govdeler[ad])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--tur", type=int, default=6)
    parser.add_argument("--adet", type=int, default=1000)
    parser.add_argument("--toplu", type=int, default=500)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    repo = args.repo.resolve()
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_gorunum_tetik_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    env = sunucu_ortami(repo, database_url, redis_url, {})
    yuk_bas = os.getloadavg()
    print(f"# {repo} @ {commit}; {os.cpu_count()} cores, load {yuk_bas[0]:.2f} {yuk_bas[1]:.2f}", flush=True)
    veritabani_hazirla(repo, env, database_url, redis_url, okuma_satiri=10)
    musteri = musteri_olustur(repo, env, "Bench tetik")["id"]
    manage(repo, env, "operator_olustur", "--email", "tetik-operator@bench.example", "--sifre", "Bench-sifre-12345",
           "--musteri", str(musteri), "--json")
    manage(repo, env, "shell", "-c", "from chat.models import Oturum; "
           f"Oturum.objects.create(musteri_id={musteri}, ziyaretci_id='sablon', durum='kapandi')")
    govdeler = json.loads(manage(repo, env, "shell", "-c", GOVDELER).strip().splitlines()[-1])
    kollar = ("kapali", "eski", "yeni")
    sonuc: dict = {durum: {ad: [] for ad in kollar} for durum in ("hayat", "toplu")}
    sonuc["tetik"] = {"eski": [], "yeni": [], "taban": []}
    govdeler["taban"] = TABAN
    with pg(database_url) as conn:
        conn.execute(FONKSIYONLAR)
        op = conn.execute("SELECT id FROM tenants_kullanici WHERE email = 'tetik-operator@bench.example'").fetchone()[0]
        for ad in kollar:  # warm-up of each body
            kol(conn, ad, govdeler)
            conn.execute("SELECT pg_temp.hayat(100, %s, %s, %s)", [f"isinma-{ad}", musteri, op])
        for r in range(args.tur):
            sira = kollar[r % 3:] + kollar[:r % 3]
            if r % 2:
                sira = tuple(reversed(sira))
            for ad in sira:
                kol(conn, ad, govdeler)
                sonuc["hayat"][ad].append(float(conn.execute("SELECT pg_temp.hayat(%s, %s, %s, %s)",
                                                             [args.adet, f"h{r}{ad}", musteri, op]).fetchone()[0]))
                sonuc["toplu"][ad].append(float(conn.execute("SELECT pg_temp.toplu(%s, %s, %s, %s)",
                                                             [args.toplu, f"t{r}{ad}", musteri, op]).fetchone()[0]))
            for ad in (("eski", "yeni", "taban") if r % 2 == 0 else ("taban", "yeni", "eski")):
                kol(conn, ad, govdeler)
                sonuc["tetik"][ad].append(tetik_suresi(conn, args.toplu, op))
            print(f"# round {r}: " + ", ".join(f"{ad} {sonuc['hayat'][ad][-1]:.0f}/{sonuc['toplu'][ad][-1]:.0f}"
                                              for ad in kollar) + "; trigger µs/firing "
                  + ", ".join(f"{ad} {v[-1]:.1f}" for ad, v in sonuc["tetik"].items()), flush=True)
        kol(conn, "yeni", govdeler)
    # The counters stay exact under the new body: the "yeni" rounds' rows against a recount.
    kayan = json.loads(manage(repo, env, "shell", "-c", "import json; from panel import sayaclar; "
                              "print(json.dumps(sayaclar.yeniden_say()))").strip().splitlines()[-1])
    ozet = {}
    print("\n| case | off, µs | 0001 body, µs | 0002 body, µs | trigger cost 0001 | 0002 | 0002 / 0001 |")
    print("|---|---|---|---|---|---|---|")
    for durum in ("hayat", "toplu"):
        m = {ad: statistics.median(sonuc[durum][ad]) for ad in kollar}
        eski, yeni = m["eski"] - m["kapali"], m["yeni"] - m["kapali"]
        ozet[durum] = {**{f"{ad}_us": round(v, 1) for ad, v in m.items()}, "eski_maliyet_us": round(eski, 1),
                       "yeni_maliyet_us": round(yeni, 1), "oran": round(yeni / eski, 3) if eski > 0 else None}
        print(f"| {durum} | {m['kapali']:.0f} | {m['eski']:.0f} | {m['yeni']:.0f} | {eski:+.0f} | {yeni:+.0f} | "
              f"{ozet[durum]['oran']} |")
    t = {ad: statistics.median(v) for ad, v in sonuc["tetik"].items()}
    ozet["tetik"] = {f"{ad}_us": round(v, 1) for ad, v in t.items()} | {"oran": round(t["yeni"] / t["eski"], 3)}
    print(f"\nTrigger time per firing (EXPLAIN ANALYZE, bulk of {args.toplu}): 0001 {t['eski']:.1f} µs, "
          f"0002 {t['yeni']:.1f} µs (0002 / 0001 = {ozet['tetik']['oran']}), floor (2 constant rows) {t['taban']:.1f} µs; "
          f"0002 below 0001 in {sum(y < e for y, e in zip(sonuc['tetik']['yeni'], sonuc['tetik']['eski'], strict=True))} "
          f"of {args.tur} rounds")
    yuk_son = os.getloadavg()
    print(f"# recount after the runs: {kayan}; load at the end {yuk_son[0]:.2f} {yuk_son[1]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({
            "commit": commit, "tarih": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "cpu": os.cpu_count(),
            "yuk_bas": yuk_bas, "yuk_son": yuk_son, "ozet": ozet, "turlar": sonuc, "yeniden_say": kayan,
            "ayarlar": vars(args) | {"repo": str(repo), "json": str(args.json)},
        }, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
