#!/usr/bin/env python
"""Rules on the hot paths (issue 42): a tenant with 0 and a tenant with N active rules (none of
whose conditions hold), on one server, in one sitting, rounds alternating.

  yayinli_kayit  POST /bench/yayinli-kayit          the visitor message's floor (issue 41: the
                                                    limit's EVALSHA, one INSERT, one PUBLISH)
  mesaj_0        POST /api/v1/widget/chat/message   P1, a visitor message, tenant without rules
  mesaj_N        POST /api/v1/widget/chat/message   P1, tenant with N rules for `ziyaretci_mesaji`
  baslat_0       POST /api/v1/widget/chat/start     a new visitor's chat start (with its first
                                                    message), tenant without rules
  baslat_N       POST /api/v1/widget/chat/start     the same, tenant with N rules for `chat_baslatildi`

Same set-up as `bench/chat_bench.py` (its helpers: gunicorn with 4 sync workers, production defaults,
a fresh database, `WIDGET_RATE_LIMIT=100000/s`, one connection per request, 16 clients each with
its own open chat for the messages; every start is a new visitor). The rules are those of
`chat_bench.py --kural N` (two conditions: the text contains `yok-i`, the channel is `widget`),
written through the served checkout's own service. Each round runs the five scenarios in this
order, and the next round in the reverse order, so a drift of the machine's load hits both
tenants alike. Per round: P1r = P1 ÷ floor for each tenant, and the ratios N ÷ 0 of the message
and of the start (req/s); the verdicts are the medians.

After a run its database is kept: `bench/profil.py` profiles the tenant with the rules ("Bench
Widget").

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sd_kural_bench BENCH_REDIS_URL=redis://127.0.0.1:6379/2 \
        .venv/bin/python bench/kural_bench.py [--repo DIR] [--kural 50] [--tur 6] [--sure 4] [--json out.json]
"""
import argparse
import datetime as dt
import itertools
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
    kurallar_olustur,
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
    p.add_argument("--kural", type=int, default=50)
    p.add_argument("--tur", type=int, default=6)
    p.add_argument("--sure", type=float, default=4, help="measured seconds per scenario and round")
    p.add_argument("--isinma", type=float, default=1)
    p.add_argument("--istemci", type=int, default=16)
    p.add_argument("--worker", type=int, default=4)
    p.add_argument("--json", type=Path)
    args = p.parse_args()

    repo = args.repo.resolve()
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    kirli = bool(subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True).stdout.strip())
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_kural_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    env = sunucu_ortami(repo, database_url, redis_url, {})
    bas, yuk_bas = dt.datetime.now(dt.UTC), os.getloadavg()
    print(f"# served: {repo} @ {commit}{' (uncommitted changes)' if kirli else ''}; load "
          f"{yuk_bas[0]:.2f} {yuk_bas[1]:.2f} {yuk_bas[2]:.2f}", flush=True)
    veritabani_hazirla(repo, env, database_url, redis_url, okuma_satiri=10)
    sifir = musteri_olustur(repo, env, "Bench Sifir")
    kurallari_olan = musteri_olustur(repo, env, "Bench Widget")
    kurallar_olustur(repo, env, kurallari_olan["id"], args.kural)
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    sunucu = sunucu_baslat(repo, env, port, args.worker)
    n = f"{args.kural}"
    try:
        senaryolar: dict[str, tuple[list, int]] = {
            "yayinli_kayit": ([ham_istek("POST", "/bench/yayinli-kayit", {"icerik": "Siparişim nerede?"})]
                              * args.istemci, 201)}
        sayac = itertools.count()
        for ad, musteri in (("0", sifir), (n, kurallari_olan)):
            anahtar = {"X-API-Key": musteri["api_key"]}
            sohbetler = widget_hazirla(port, musteri["api_key"], args.istemci)
            senaryolar[f"mesaj_{ad}"] = ([ham_istek("POST", "/api/v1/widget/chat/message",
                                                    {"ziyaretci_id": z, "oturum_id": o, "icerik": "Siparişim nerede?"},
                                                    anahtar) for z, o in sohbetler], 201)

            def baslat(anahtar=anahtar, ad=ad):
                return ham_istek("POST", "/api/v1/widget/chat/start",
                                 {"ziyaretci_id": f"yeni-{ad}-{next(sayac)}", "mesaj": "Merhaba"}, anahtar)

            senaryolar[f"baslat_{ad}"] = ([baslat] * args.istemci, 201)
        ab: dict[str, list[dict]] = {ad: [] for ad in senaryolar}
        for tur in range(args.tur):
            sira = list(senaryolar) if tur % 2 == 0 else list(reversed(senaryolar))
            for ad in sira:
                istekler, beklenen = senaryolar[ad]
                ab[ad].append(calistir(port, istekler, beklenen, args.sure, args.isinma))
            print(f"# round {tur + 1}/{args.tur}: " + ", ".join(
                f"{ad} {len(o[-1]['sureler']) / o[-1]['sure']:.0f}/s" for ad, o in ab.items()), flush=True)
    finally:
        sunucu.terminate()
        sunucu.wait(timeout=30)

    ozet = {ad: ozetle(o) for ad, o in ab.items()}

    def turlar(a: str, b: str) -> list[float]:
        return [round(x / y, 3) for x, y in zip(ozet[a]["tur_rps"], ozet[b]["tur_rps"], strict=True)]

    oranlar = {
        "P1r_0": turlar("mesaj_0", "yayinli_kayit"),
        f"P1r_{n}": turlar(f"mesaj_{n}", "yayinli_kayit"),
        f"mesaj_{n}_0": turlar(f"mesaj_{n}", "mesaj_0"),
        f"baslat_{n}_0": turlar(f"baslat_{n}", "baslat_0"),
    }
    medyanlar = {ad: statistics.median(t) for ad, t in oranlar.items()}
    yuk_son = os.getloadavg()
    sonuc = {"commit": commit, "kirli": kirli, "repo": str(repo), "tarih": bas.isoformat(timespec="seconds"),
             "cpu": os.cpu_count(), "yuk_bas": [round(x, 2) for x in yuk_bas], "yuk_son": [round(x, 2) for x in yuk_son],
             "ayarlar": vars(args) | {"repo": str(repo), "json": str(args.json)}, "ab": ozet,
             "oranlar_turlar": oranlar, "oranlar_medyan": medyanlar}
    print(f"\n{commit} {sonuc['tarih']} · load {yuk_bas[0]:.2f} → {yuk_son[0]:.2f} · {args.worker} workers · "
          f"{args.istemci} clients · {args.tur} × {args.sure:g} s each · {args.kural} rules\n")
    print("| scenario | requests | errors | req/s | p50 ms | p99 ms | req/s per round |\n|---|---|---|---|---|---|---|")
    for ad, s in ozet.items():
        print(f"| {ad} | {s['istek']} | {s['hata']} | {s['rps']} | {s['p50_ms']} | {s['p99_ms']} | "
              f"{', '.join(map(str, s['tur_rps']))} |")
    print("\n| ratio | per round | median |\n|---|---|---|")
    for ad, t in oranlar.items():
        print(f"| {ad} | {', '.join(map(str, t))} | **{medyanlar[ad]}** |")
    if args.json:
        args.json.write_text(json.dumps(sonuc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    hata = sum(s["hata"] for s in ozet.values())
    if hata:
        print(f"!!! {hata} errors: {[s['durumlar'] for s in ozet.values()]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
