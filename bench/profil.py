#!/usr/bin/env python
"""In-process profile of the hot paths (issue 12), next to the bare views, on the data the last
`bench/chat_bench.py` run left behind (its database and Redis are kept after the run).

Each request goes through Django's WSGI handler called directly (no socket, no gunicorn), with
the served checkout's settings at their production defaults plus `WIDGET_RATE_LIMIT=100000/s`, as
in the benchmark. Prints the median time per request of each path over `--kez` requests, best of
`--tur` rounds, then (with `--profil PATH`) a cProfile of that path sorted by own time.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sd_hot_bench BENCH_REDIS_URL=redis://127.0.0.1:6379/2 \
        .venv/bin/python bench/profil.py [--kez 500] [--tur 5] [--profil yoklama] [--satir 30] [--cevrimici 5000] [--cpu]

A diagnosis tool, not the benchmark: it says where the time of one request goes, not what a
loaded server does.
"""
import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--kez", type=int, default=500)
    p.add_argument("--tur", type=int, default=5)
    p.add_argument("--profil", default="")
    p.add_argument("--satir", type=int, default=30)
    p.add_argument("--cevrimici", type=int, default=0,
                   help="operators of other tenants online on the platform (reachable over REST) while measuring")
    p.add_argument("--musteri", default="Bench Widget",
                   help="the tenant whose widget is measured (bench/kural_bench.py leaves 'Bench Widget' with its "
                        "rules and 'Bench Sifir' without)")
    p.add_argument("--cpu", action="store_true",
                   help="time this process's CPU (time.process_time) instead of wall-clock time: steadier on a "
                        "shared, loaded machine; leaves out Redis's and PostgreSQL's own work")
    p.add_argument("--sunucular", action="store_true",
                   help="also say the CPU per request of this process's PostgreSQL backend and of the Redis server "
                        "(/proc/<pid>/stat of the backend, Redis INFO cpu): the whole machine's work per request, "
                        "not the Django process's alone")
    args = p.parse_args()
    saat = time.process_time if args.cpu else time.perf_counter

    os.environ.update({
        "DEBUG": "false", "SECRET_KEY": "bench-profil-" + "x" * 40, "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_hot_bench"),
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2"),
        "WIDGET_RATE_LIMIT": "100000/s", "DJANGO_SETTINGS_MODULE": "taban.settings",
    })
    sys.path[:0] = [str(REPO), str(BENCH_DIR)]
    import django
    django.setup()
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection

    from chat.models import Mesaj, Oturum
    from tenants.models import Musteri

    musteri = Musteri.objects.get(firma_adi=args.musteri)
    oturum = Oturum.objects.filter(musteri=musteri, ziyaretci_id="bench-0").get()
    son = Mesaj.objects.filter(oturum=oturum).order_by("-id").values_list("id", flat=True).first()
    with connection.cursor() as c:
        c.execute("SELECT min(id) FROM bench_taban")
        taban_id = c.fetchone()[0]
    anahtar = musteri.api_key
    handler = WSGIHandler()

    def environ(method, path, query="", govde=b"", basliklar=None):
        e = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000", "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(govde), "CONTENT_LENGTH": str(len(govde)), "HTTP_HOST": "127.0.0.1:8000",
        }
        if govde:
            e["CONTENT_TYPE"] = "application/json"
        e.update(basliklar or {})
        return e

    if args.cevrimici:
        from supportdesk.core import varlik

        for i in range(args.cevrimici):  # ids of no user of this tenant: other tenants' operators
            varlik.rest_cagrisi(kullanici_id=2_000_000_000 + i)
    init_govde = json.dumps({"ziyaretci_id": "bench-0"}).encode()
    init_yeni_govde = json.dumps({"ziyaretci_id": "bench-sohbetsiz"}).encode()  # a page view, no chat
    # A page view also asks for the campaigns and reports the page (static/widget).
    sayfa_govde = json.dumps({"ziyaretci_id": "bench-sohbetsiz", "url": "https://magaza.example/urun/42",
                              "baslik": "Ürün 42"}).encode()
    mesaj_govde = json.dumps({"ziyaretci_id": "bench-0", "oturum_id": oturum.id, "icerik": "Siparişim nerede?"}).encode()
    yollar = {
        "bos_okuma": lambda: environ("GET", "/bench/bos-okuma", f"id={taban_id}"),
        "yoklama": lambda: environ("GET", "/api/v1/widget/chat/messages",
                                   f"ziyaretci_id=bench-0&oturum_id={oturum.id}&sonra={10**12}",
                                   basliklar={"HTTP_X_API_KEY": anahtar}),
        "init": lambda: environ("POST", "/api/v1/widget/init", govde=init_govde, basliklar={"HTTP_X_API_KEY": anahtar}),
        "init_yeni": lambda: environ("POST", "/api/v1/widget/init", govde=init_yeni_govde,
                                     basliklar={"HTTP_X_API_KEY": anahtar}),
        "kampanyalar": lambda: environ("GET", "/api/v1/widget/campaigns", "ziyaretci_id=bench-sohbetsiz",
                                       basliklar={"HTTP_X_API_KEY": anahtar}),
        "sayfa": lambda: environ("POST", "/api/v1/context/page-info", govde=sayfa_govde,
                                 basliklar={"HTTP_X_API_KEY": anahtar}),
        "bos_kayit": lambda: environ("POST", "/bench/bos-kayit", govde=b'{"icerik": "Merhaba"}'),
        # The limit's round trip and the INSERT, through DRF and through a plain Django view: what DRF's
        # request cycle costs (the visitor's message skips it, the floor pays it).
        "sinirli_kayit": lambda: environ("POST", "/bench/sinirli-kayit", govde=b'{"icerik": "Merhaba"}'),
        "sinirli_kayit_django": lambda: environ("POST", "/bench/sinirli-kayit-django", govde=b'{"icerik": "Merhaba"}'),
        # The floor of a visitor message (issue 41): the limit's round trip, the INSERT, one PUBLISH.
        "yayinli_kayit": lambda: environ("POST", "/bench/yayinli-kayit", govde=b'{"icerik": "Merhaba"}'),
        "chat_mesaj": lambda: environ("POST", "/api/v1/widget/chat/message", govde=mesaj_govde,
                                      basliklar={"HTTP_X_API_KEY": anahtar}),
    }
    beklenen = {"bos_okuma": "200", "yoklama": "200", "init": "200", "init_yeni": "200", "kampanyalar": "200",
                "sayfa": "201", "bos_kayit": "201", "sinirli_kayit": "201", "sinirli_kayit_django": "201",
                "yayinli_kayit": "201", "chat_mesaj": "201"}
    del son

    def istek(ad):
        durum = []
        govde = b"".join(handler(yollar[ad](), lambda s, h, *a: durum.append(s)))
        if not durum[0].startswith(beklenen[ad]):
            raise SystemExit(f"{ad}: {durum[0]} {govde[:300]!r}")

    for ad in yollar:
        for _ in range(50):
            istek(ad)
    sonuc = {}
    for ad in yollar:
        en_iyi = None
        sunucular = None
        for _ in range(args.tur):
            once = _sunucu_cpu(connection) if args.sunucular else None
            t0 = saat()
            for _ in range(args.kez):
                istek(ad)
            gecen = (saat() - t0) / args.kez * 1000
            if once is not None:
                sonra = _sunucu_cpu(connection)
                tur = tuple((b - a) / args.kez * 1000 for a, b in zip(once, sonra, strict=True))
                sunucular = tur if sunucular is None else tuple(map(min, sunucular, tur))
            en_iyi = gecen if en_iyi is None else min(en_iyi, gecen)
        sonuc[ad] = en_iyi
        ek = (f"; PostgreSQL backend {sunucular[0]:.3f} ms CPU, Redis {sunucular[1]:.3f} ms CPU (best of {args.tur})"
              if sunucular else "")
        print(f"{ad:20s} {en_iyi:.3f} ms{' CPU' if args.cpu else ''}/request (best of {args.tur} x {args.kez}){ek}")
    print(f"yoklama / bos_okuma = {sonuc['yoklama'] / sonuc['bos_okuma']:.2f}x time; "
          f"chat_mesaj / bos_kayit = {sonuc['chat_mesaj'] / sonuc['bos_kayit']:.2f}x time; "
          f"chat_mesaj / yayinli_kayit = {sonuc['chat_mesaj'] / sonuc['yayinli_kayit']:.2f}x time")
    if args.profil:
        pr = cProfile.Profile(saat) if args.cpu else cProfile.Profile()  # --cpu: own CPU time, as the timings
        pr.enable()
        for _ in range(args.kez):
            istek(args.profil)
        pr.disable()
        s = pstats.Stats(pr)
        s.sort_stats("tottime").print_stats(args.satir)
        s.sort_stats("cumulative").print_stats(args.satir * 2)
    return 0


def _sunucu_cpu(connection) -> tuple[float, float]:
    """(CPU seconds so far of this connection's PostgreSQL backend, of the Redis server): the
    backend's /proc stat (the server runs on this machine), Redis's INFO cpu."""
    from django.core.cache import caches

    from supportdesk.core.throttling import _redis

    with connection.cursor() as c:
        c.execute("SELECT pg_backend_pid()")
        pid = c.fetchone()[0]
    alanlar = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    pg = (int(alanlar[11]) + int(alanlar[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    cpu = _redis(caches["default"]).info("cpu")
    return pg, float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


if __name__ == "__main__":
    raise SystemExit(main())
