"""What the view counters' triggers (issue 43, panel/migrations/0001_gorunum_sayaci) add to a chat's
writes: a chat's life as its rows see it, in the served checkout's ORM, each step its own
transaction (autocommit), as the actions commit them:

  baslat   INSERT of a waiting chat                     (+acik +atanmamis)
  kabul    UPDATE durum=aktif, operator                 (-atanmamis +benim)
  mesaj    UPDATE son_mesaj, okunmamis (no view column)  (no counter row: the trigger's WHEN)
  kapat    UPDATE durum=kapandi                         (-acik -benim)

Rounds alternate triggers on and off (`ALTER TABLE chat_oturum DISABLE TRIGGER` of the two row
triggers), --adet chats per round; per step the median microseconds of each round, and the
difference on - off (what the trigger costs in the database, to set against a request's time).

Usage: .venv/bin/python bench/gorunum_tetik_bench.py [--repo DIR] [--tur 6] [--adet 300] [--json sonuc.json]
Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_gorunum_tetik_bench;
dropped and created afresh), BENCH_REDIS_URL (default redis://127.0.0.1:6379/2; flushed).
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
from chat_bench import manage, musteri_olustur, sunucu_ortami, veritabani_hazirla

KOD = """
import json, statistics, time
from django.db import connection
from chat.models import Oturum
from tenants.models import Kullanici
m, op = {musteri}, Kullanici.objects.get(email='tetik-operator@bench.example').pk
TETIKLER = ('panel_gorunum_sayaci_ekle_sil', 'panel_gorunum_sayaci_guncelle')

def tetik(acik):
    with connection.cursor() as c:
        for ad in TETIKLER:
            c.execute(f"ALTER TABLE chat_oturum {{'ENABLE' if acik else 'DISABLE'}} TRIGGER {{ad}}")

def tur(n, etiket):
    sure = {{'baslat': [], 'kabul': [], 'mesaj': [], 'kapat': []}}
    for i in range(n):
        t = time.perf_counter(); o = Oturum.objects.create(musteri_id=m, ziyaretci_id=f'{{etiket}}-{{i}}')
        sure['baslat'].append(time.perf_counter() - t)
        t = time.perf_counter(); Oturum.objects.filter(pk=o.pk).update(durum='aktif', operator_id=op)
        sure['kabul'].append(time.perf_counter() - t)
        t = time.perf_counter(); Oturum.objects.filter(pk=o.pk).update(son_mesaj='Merhaba', okunmamis=1)
        sure['mesaj'].append(time.perf_counter() - t)
        t = time.perf_counter(); Oturum.objects.filter(pk=o.pk).update(durum='kapandi')
        sure['kapat'].append(time.perf_counter() - t)
    return {{ad: statistics.median(s) * 1e6 for ad, s in sure.items()}}

tur(50, 'isinma')
sonuc = {{'acik': [], 'kapali': []}}
for r in range({tur}):
    for acik in ((True, False) if r % 2 == 0 else (False, True)):
        tetik(acik)
        sonuc['acik' if acik else 'kapali'].append(tur({adet}, f'r{{r}}-{{acik}}'))
tetik(True)
print(json.dumps(sonuc))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--tur", type=int, default=6)
    parser.add_argument("--adet", type=int, default=300)
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
    cikti = manage(repo, env, "shell", "-c", KOD.format(musteri=musteri, tur=args.tur, adet=args.adet))
    sonuc = json.loads(cikti.strip().splitlines()[-1])
    ozet = {}
    print("\n| step | triggers on, µs (median of rounds) | off, µs | on - off, µs | on / off |\n|---|---|---|---|---|")
    for adim in ("baslat", "kabul", "mesaj", "kapat"):
        acik = statistics.median(r[adim] for r in sonuc["acik"])
        kapali = statistics.median(r[adim] for r in sonuc["kapali"])
        ozet[adim] = {"acik_us": round(acik, 1), "kapali_us": round(kapali, 1), "fark_us": round(acik - kapali, 1),
                      "oran": round(acik / kapali, 3)}
        print(f"| {adim} | {acik:.0f} | {kapali:.0f} | {acik - kapali:+.0f} | {acik / kapali:.2f} |")
    yuk_son = os.getloadavg()
    print(f"# load at the end {yuk_son[0]:.2f} {yuk_son[1]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({
            "commit": commit, "tarih": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "cpu": os.cpu_count(),
            "yuk_bas": yuk_bas, "yuk_son": yuk_son, "ozet": ozet, "turlar": sonuc,
            "ayarlar": vars(args) | {"repo": str(repo), "json": str(args.json)},
        }, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
