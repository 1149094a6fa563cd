"""Views at scale (CONTRACT 24), the P4 method (docs/performance.md, "Hot paths"): one operator of
3 tenants, 4 clients, `GET /api/v1/operator/chats?gorunum=acik` (page of 50) and
`GET /api/v1/operator/gorunumler` with 1,000 then 20,000 open chats and as many open tickets
spread over the tenants (a `bulk_create` in the served checkout's ORM, `VACUUM ANALYZE` after every
change; the view counters' +1/-1 rows of the load folded as the runner would, where the checkout
has them), alternating sizes for `--tur` rounds. Growth = p50 at 20,000 / p50 at 1,000 (goal <= 1.2).

Usage: .venv/bin/python bench/gorunum_bench.py [--repo DIR] [--sure 12] [--tur 2] [--istemci 4]
    [--worker 4] [--json sonuc.json]
Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_gorunum_bench; dropped
and created afresh), BENCH_REDIS_URL (default redis://127.0.0.1:6379/2; flushed).
"""
import argparse
import datetime as dt
import json
import os
import socket
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chat_bench import (  # the P4 machinery, shared
    HOST,
    P4Kuyruk,
    calistir,
    giris,
    ham_istek,
    http_istek,
    manage,
    ozetle,
    pg,
    sunucu_baslat,
    sunucu_ortami,
    veritabani_hazirla,
)

BOYUTLAR = (1_000, 20_000)
SIKISTIR = (
    "try:\n"
    "    from panel import sayaclar\n"
    "except ImportError:\n"
    "    sayaclar = None\n"
    "if sayaclar is not None:\n"
    "    sayaclar.sikistir()\n"
)


class Yuk(P4Kuyruk):
    """P4's waiting chats plus as many open tickets (created, or deleted from the tail)."""

    def boyut(self, n: int) -> float:
        t = P4Kuyruk.boyut(self, n)  # chats (and VACUUM ANALYZE of chat_oturum)
        kod = (
            "import datetime as dt\n"
            "from tickets.models import Ticket\n"
            f"m = {self.musteri_idleri!r}\n"
            "var = Ticket.objects.filter(musteri_id__in=m).count()\n"
            f"t0 = dt.datetime.fromisoformat({self.t0.isoformat()!r})\n"
            f"Ticket.objects.bulk_create([Ticket(musteri_id=m[i % 3], ziyaretci_id=f'g-{{i}}', konu='Sipariş', "
            f"olusturulma=t0 + dt.timedelta(seconds=i), guncellenme=t0 + dt.timedelta(seconds=i)) "
            f"for i in range(var, {n})], batch_size=2000)\n"
            f"Ticket.objects.filter(musteri_id__in=m, olusturulma__gte=t0 + dt.timedelta(seconds={n})).delete()\n"
        )
        manage(self.repo, self.env, "shell", "-c", kod)
        # Since issue 43's counters (panel.sayaclar) the load's +1/-1 rows are folded, as the
        # runner does within GORUNUM_SIKISTIRMA_ARALIGI (30 s); a checkout without them skips this.
        manage(self.repo, self.env, "shell", "-c", SIKISTIR)
        with pg(self.database_url) as conn:
            conn.execute("VACUUM ANALYZE tickets_ticket")
            if conn.execute("SELECT to_regclass('panel_gorunumsayaci')").fetchone()[0]:
                conn.execute("VACUUM ANALYZE panel_gorunumsayaci")
        return t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--sure", type=float, default=12, help="measured seconds per case, split into rounds")
    parser.add_argument("--tur", type=int, default=2)
    parser.add_argument("--isinma", type=float, default=1)
    parser.add_argument("--istemci", type=int, default=4)
    parser.add_argument("--worker", type=int, default=4)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    repo = args.repo.resolve()
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_gorunum_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    env = sunucu_ortami(repo, database_url, redis_url, {})
    yuk_bas = os.getloadavg()
    print(f"# served: {repo} @ {commit}; {os.cpu_count()} cores, load {yuk_bas[0]:.2f} {yuk_bas[1]:.2f}", flush=True)
    veritabani_hazirla(repo, env, database_url, redis_url, okuma_satiri=10)
    yuk = Yuk(repo, env, database_url)
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    sunucu = sunucu_baslat(repo, env, port, args.worker)
    yollar = {"chats_acik": "/api/v1/operator/chats?gorunum=acik", "gorunumler": "/api/v1/operator/gorunumler"}
    olcum: dict[str, list[dict]] = {f"{ad}_{n}": [] for ad in yollar for n in BOYUTLAR}
    try:
        token = None
        for tur in range(args.tur):
            for n in BOYUTLAR:
                yuk.boyut(n)
                token = token or giris(port, yuk.email, yuk.sifre)
                baslik = {"Authorization": f"Bearer {token}"}
                durum, veri = http_istek(port, "GET", yollar["gorunumler"], headers=baslik)
                sayilar = veri["data"]["gorunumler"]
                if durum != 200 or sayilar["chat"]["acik"] != n or sayilar["ticket"]["acik"] != n:
                    raise SystemExit(f"gorunumler: {durum} {sayilar}")
                durum, veri = http_istek(port, "GET", yollar["chats_acik"], headers=baslik)
                if durum != 200 or len(veri["data"]["oturumlar"]) != 50:
                    raise SystemExit(f"chats?gorunum=acik: {durum}")
                for ad, yol in yollar.items():
                    olcum[f"{ad}_{n}"].append(calistir(port, [ham_istek("GET", yol, headers=baslik)] * args.istemci, 200,
                                                       args.sure / args.tur, args.isinma))
            print(f"# round {tur + 1}/{args.tur}: " + ", ".join(
                f"{ad} p50 {statistics.median(o[-1]['sureler']) * 1000:.1f} ms" for ad, o in olcum.items()), flush=True)
    finally:
        sunucu.terminate()
        sunucu.wait(timeout=30)
    ozet = {ad: ozetle(o) for ad, o in olcum.items()}
    buyume = {ad: round(ozet[f"{ad}_{BOYUTLAR[1]}"]["p50_ms"] / ozet[f"{ad}_{BOYUTLAR[0]}"]["p50_ms"], 2) for ad in yollar}
    tur_buyume = {ad: [round(statistics.median(b["sureler"]) / statistics.median(a["sureler"]), 2)
                       for a, b in zip(olcum[f"{ad}_{BOYUTLAR[0]}"], olcum[f"{ad}_{BOYUTLAR[1]}"], strict=True)]
                  for ad in yollar}
    print("\n| case | requests | p50 ms | p99 ms | errors |\n|---|---|---|---|---|")
    for ad, o in ozet.items():
        print(f"| {ad} | {o['istek']} | {o['p50_ms']} | {o['p99_ms']} | {o['hata']} |")
    print(f"\ngrowth p50 20,000 / 1,000: {buyume} (per round {tur_buyume}); goal <= 1.2")
    yuk_son = os.getloadavg()
    print(f"# load at the end {yuk_son[0]:.2f} {yuk_son[1]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({
            "commit": commit, "tarih": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "cpu": os.cpu_count(),
            "yuk_bas": yuk_bas, "yuk_son": yuk_son, "ozet": ozet, "buyume": buyume, "tur_buyume": tur_buyume,
            "ayarlar": vars(args) | {"repo": str(repo), "json": str(args.json)},
        }, indent=2, ensure_ascii=False))
    return 1 if any(o["hata"] for o in ozet.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
