#!/usr/bin/env python
"""The visitor message against its floor (issue 41): P1r = P1 req/s ÷ floor req/s, rounds alternating.

  yayinli_kayit  POST /bench/yayinli-kayit          bare DRF view: the widget limit's round trip
                                                    (EVALSHA), one INSERT, one PUBLISH: the work no
                                                    visitor message can skip (CONTRACT 9, 11)
  chat_mesaj     POST /api/v1/widget/chat/message   P1, a visitor message

Same set-up as `bench/chat_bench.py` (its helpers: gunicorn with 4 sync workers, production defaults,
a fresh database, `WIDGET_RATE_LIMIT=100000/s`, one connection per request, 16 clients each with
its own open chat); no Celery worker runs, so whatever the message hands to the broker stays there.
The rounds alternate floor, P1, floor, P1… (`--tur`, 5 by default), so a change of the machine's load
hits both; the verdict is the median of the per-round ratios.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sd_h41_bench BENCH_REDIS_URL=redis://127.0.0.1:6379/9 \
        .venv/bin/python bench/mesaj_bench.py [--repo DIR] [--tur 5] [--sure 6] [--json out.json]
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

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR.parent))

from bench.chat_bench import (  # noqa: E402
    HOST,
    calistir,
    ham_istek,
    musteri_olustur,
    ozetle,
    sunucu_baslat,
    sunucu_ortami,
    veritabani_hazirla,
    widget_hazirla,
)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", type=Path, default=BENCH_DIR.parent)
    p.add_argument("--tur", type=int, default=5)
    p.add_argument("--sure", type=float, default=6, help="measured seconds per scenario and round")
    p.add_argument("--isinma", type=float, default=1)
    p.add_argument("--istemci", type=int, default=16)
    p.add_argument("--worker", type=int, default=4)
    p.add_argument("--json", type=Path)
    args = p.parse_args()

    repo = args.repo.resolve()
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_mesaj_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    env = sunucu_ortami(repo, database_url, redis_url, {})
    bas, yuk_bas = dt.datetime.now(dt.UTC), os.getloadavg()
    veritabani_hazirla(repo, env, database_url, redis_url, okuma_satiri=10)
    widget = musteri_olustur(repo, env, "Bench Widget")
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    sunucu = sunucu_baslat(repo, env, port, args.worker)
    try:
        sohbetler = widget_hazirla(port, widget["api_key"], args.istemci)
        anahtar = {"X-API-Key": widget["api_key"]}
        taban = [ham_istek("POST", "/bench/yayinli-kayit", {"icerik": "Siparişim nerede?"})] * len(sohbetler)
        mesaj = [ham_istek("POST", "/api/v1/widget/chat/message",
                           {"ziyaretci_id": z, "oturum_id": o, "icerik": "Siparişim nerede?"}, anahtar)
                 for z, o in sohbetler]
        ab: dict[str, list[dict]] = {"yayinli_kayit": [], "chat_mesaj": []}
        for tur in range(args.tur):
            ab["yayinli_kayit"].append(calistir(port, taban, 201, args.sure, args.isinma))
            ab["chat_mesaj"].append(calistir(port, mesaj, 201, args.sure, args.isinma))
            print(f"# round {tur + 1}/{args.tur}: " + ", ".join(
                f"{ad} {len(o[-1]['sureler']) / o[-1]['sure']:.0f}/s" for ad, o in ab.items()), flush=True)
    finally:
        sunucu.terminate()
        sunucu.wait(timeout=30)

    ozet = {ad: ozetle(o) for ad, o in ab.items()}
    turlar = [round(a / b, 3) for a, b in zip(ozet["chat_mesaj"]["tur_rps"], ozet["yayinli_kayit"]["tur_rps"],
                                             strict=True)]
    yuk_son = os.getloadavg()
    sonuc = {"commit": commit, "repo": str(repo), "tarih": bas.isoformat(timespec="seconds"), "cpu": os.cpu_count(),
             "yuk_bas": [round(x, 2) for x in yuk_bas], "yuk_son": [round(x, 2) for x in yuk_son],
             "ayarlar": vars(args) | {"repo": str(repo), "json": str(args.json)}, "ab": ozet,
             "P1r_turlar": turlar, "P1r_medyan": statistics.median(turlar)}
    print(f"\n{commit} {sonuc['tarih']} · load {yuk_bas[0]:.2f} → {yuk_son[0]:.2f} · {args.worker} workers · "
          f"{args.istemci} clients · {args.tur} × {args.sure:g} s each\n")
    print("| scenario | requests | errors | req/s | p50 ms | p99 ms | req/s per round |\n|---|---|---|---|---|---|---|")
    for ad, etiket in (("yayinli_kayit", "floor: limit + INSERT + PUBLISH"), ("chat_mesaj", "P1 visitor message")):
        s = ozet[ad]
        print(f"| {etiket} | {s['istek']} | {s['hata']} | {s['rps']} | {s['p50_ms']} | {s['p99_ms']} | "
              f"{', '.join(map(str, s['tur_rps']))} |")
    print(f"\nP1r per round {turlar}, median **{sonuc['P1r_medyan']}**")
    if args.json:
        args.json.write_text(json.dumps(sonuc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    hata = sum(s["hata"] for s in ozet.values())
    if hata:
        print(f"!!! {hata} errors: {[s['durumlar'] for s in ozet.values()]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
