"""The views' counts without HTTP (issue 43): the same operator and load as bench/gorunum_bench.py
(3 tenants, 1,000 then 20,000 open chats and as many open tickets, alternating sizes for --tur
rounds), and in the served checkout's own process, one after the other in each round:

  sayim     the base tables' conditional counts (`chat.selectors.gorunum_sayilari` and the
            tickets' one: what `GET /operator/gorunumler` ran before the counters)
  sayac     the counters' sums (`panel.sayaclar.gorunum_sayilari`), folded as the runner leaves them
  sayac_K   the same with K unfolded +1/-1 rows more (--katlanmamis, default 2,000: about 30 s of
            a busy deployment's changes between two folds), net zero

Each case --adet calls; its median in microseconds. A machine too loaded for the HTTP benchmark
still shows what the database spends, and the growth 20,000 / 1,000 of each case.

Usage: .venv/bin/python bench/gorunum_sorgu_bench.py [--repo DIR] [--tur 3] [--adet 300]
    [--katlanmamis 2000] [--json sonuc.json]
Environment: BENCH_DATABASE_URL, BENCH_REDIS_URL as bench/gorunum_bench.py (dropped, flushed).
"""
import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chat_bench import manage, pg, sunucu_ortami, veritabani_hazirla
from gorunum_bench import BOYUTLAR, Yuk

KOD = """
import json, statistics, time
from chat import selectors as cs
from tickets import selectors as ts
from panel import sayaclar
from tenants.models import Kullanici
from django.db import connection
ben = Kullanici.objects.get(email={email!r})
m = {musteri_idleri!r}

def sayim():
    return cs.gorunum_sayilari(kullanici=ben, musteri_idleri=m), ts.gorunum_sayilari(kullanici_id=ben.pk, musteri_idleri=m)

def sayac():
    return sayaclar.gorunum_sayilari(kullanici=ben, musteri_idleri=m)

def olc(f):
    f()
    s = []
    for _ in range({adet}):
        t = time.perf_counter(); f(); s.append(time.perf_counter() - t)
    return statistics.median(s) * 1e6

a = sayim(); b = sayac()
assert {{'chat': a[0], 'ticket': a[1]}} == b, (a, b)
sonuc = {{'sayim': olc(sayim), 'sayac': olc(sayac)}}
with connection.cursor() as c:
    c.execute("INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi) "
              "SELECT (%s::bigint[])[1 + i %% 3], CASE WHEN i %% 2 = 0 THEN 'chat' ELSE 'ticket' END, 'acik', NULL, f "
              "FROM generate_series(0, %s / 2 - 1) i CROSS JOIN (VALUES (1), (-1)) v(f)", [m, {katlanmamis}])
    c.execute("ANALYZE panel_gorunumsayaci")
assert sayac() == b
sonuc['sayac_K'] = olc(sayac)
sayaclar.sikistir()
print(json.dumps(sonuc))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--tur", type=int, default=3)
    parser.add_argument("--adet", type=int, default=300)
    parser.add_argument("--katlanmamis", type=int, default=2000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    repo = args.repo.resolve()
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_gorunum_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    env = sunucu_ortami(repo, database_url, redis_url, {})
    yuk_bas = os.getloadavg()
    print(f"# {repo} @ {commit}; {os.cpu_count()} cores, load {yuk_bas[0]:.2f} {yuk_bas[1]:.2f}", flush=True)
    veritabani_hazirla(repo, env, database_url, redis_url, okuma_satiri=10)
    yuk = Yuk(repo, env, database_url)
    olcum: dict[str, list[float]] = {}
    for tur in range(args.tur):
        for n in BOYUTLAR:
            yuk.boyut(n)
            cikti = manage(repo, env, "shell", "-c", KOD.format(
                email=yuk.email, musteri_idleri=yuk.musteri_idleri, adet=args.adet, katlanmamis=args.katlanmamis))
            for ad, us in json.loads(cikti.strip().splitlines()[-1]).items():
                olcum.setdefault(f"{ad}_{n}", []).append(us)
            with pg(database_url) as conn:
                conn.execute("VACUUM ANALYZE panel_gorunumsayaci")
        print(f"# round {tur + 1}/{args.tur}: " + ", ".join(f"{ad} {o[-1]:.0f} µs" for ad, o in olcum.items()), flush=True)
    ozet = {ad: round(statistics.median(o), 1) for ad, o in olcum.items()}
    print("\n| case | µs at 1,000 | µs at 20,000 | growth (per round) |\n|---|---|---|---|")
    buyume = {}
    for ad in ("sayim", "sayac", "sayac_K"):
        a, b = olcum[f"{ad}_{BOYUTLAR[0]}"], olcum[f"{ad}_{BOYUTLAR[1]}"]
        buyume[ad] = round(statistics.median(b) / statistics.median(a), 2)
        turlar = ", ".join(f"{y / x:.2f}" for x, y in zip(a, b, strict=True))
        print(f"| {ad} | {statistics.median(a):.0f} | {statistics.median(b):.0f} | {buyume[ad]} ({turlar}) |")
    yuk_son = os.getloadavg()
    print(f"# load at the end {yuk_son[0]:.2f} {yuk_son[1]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({
            "commit": commit, "tarih": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "cpu": os.cpu_count(),
            "yuk_bas": yuk_bas, "yuk_son": yuk_son, "ozet": ozet, "buyume": buyume, "olcum": olcum,
            "ayarlar": vars(args) | {"repo": str(repo), "json": str(args.json)},
        }, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
