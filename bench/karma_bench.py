#!/usr/bin/env python
"""Mixed-load benchmark (issue 25): a load that looks like production, and what each speed-up
buys on it. Not a test; the numbers go to docs/performance.md ("Mixed load").

The load, open-loop (each client keeps its own schedule, whatever the answers' speed):
  widgets      --widget open widgets, each its own visitor with its own waiting chat, spread over
               --musteri tenants. --soketli of them hold the widget socket open (uvicorn,
               /ws/v1/widget/) and poll every 30 s, as the widget does with its socket open; the
               others poll every 2.5 s (no socket). A poll is GET /widget/chat/messages?sonra=<the
               last id it has seen>, so most polls are idle.
  messages     --mesaj-hizi visitor messages a second in all (POST /widget/chat/message), each
               from a random widget, evenly spaced.
  operators    one operator per tenant, each every --operator-aralik seconds: its queue
               (GET /operator/chats), then one chat's messages (GET /operator/chat/<id>/messages).

The servers are the production topology on loopback: gunicorn (REST, --worker sync workers) and
one uvicorn (sockets), PostgreSQL and Redis, the settings' production defaults (DEBUG=false,
CONN_MAX_AGE=0), WIDGET_RATE_LIMIT=100000/s as in bench/chat_bench.py (the limiter still runs).

Configurations (--ayar, repeatable; default all of them): `hepsi` (the code as it is) and one
optimisation turned off in the served processes by bench/taban/kapat.py (BENCH_KAPAT):
`ozet_yok` (the poll snapshot), `hazir_sorgu_yok` (the compiled querysets), `tek_ifade_yok`
(the visitor message's one-statement write). Rounds interleave them: round 1 runs every
configuration once, then round 2, ..., so a change in the shared machine's load hits them all
alike. Every configuration gets fresh server processes on the same database; the sockets
reconnect, and each round starts with --isinma seconds not counted.

Reported per configuration and request kind: requests, errors, requests a second, p50/p95/p99 in
ms; and the servers' CPU time per request (gunicorn and uvicorn processes, /proc), which depends
far less on the other helpers' load than the latencies do.

Usage:
    .venv/bin/python bench/karma_bench.py [--sure 40] [--tur 3] [--ayar hepsi --ayar ozet_yok ...]
        [--widget 300] [--soketli 240] [--mesaj-hizi 8] [--musteri 4] [--json out.json]
        [--repo DIR] [--ping 10/5] [--bosta 10]

`--repo` serves another checkout with this script (its own bench/taban), so two commits are
measured alike; `--ping` is uvicorn's keepalive (interval/timeout). Before each run the servers'
CPU is read over `--bosta` seconds with the sockets open and no request (pings, presence refresh):
a cost per second. The CPU per request is also given net of it ("net of idle"), because a run that
the load stretches (answers queued on a busy machine end after the schedule) otherwise puts more
of that idle cost on each request (issue 40, docs/performance.md).

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_karma_bench; dropped
and recreated), BENCH_REDIS_URL (default redis://127.0.0.1:6379/7; flushed).
"""
import argparse
import asyncio
import datetime as dt
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

# Run as a script: bench/ is on the path. The process CPU reader and the raw request writer are
# canli_bench's and chat_bench's.
from canli_bench import _cpu_ms
from chat_bench import ham_istek as ham
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

BENCH_DIR = Path(__file__).resolve().parent
KOK = BENCH_DIR.parent  # the checkout served (--repo)
PING = (10.0, 5.0)  # uvicorn's keepalive, interval and timeout in seconds (--ping)
PY = sys.executable
HOST = "127.0.0.1"
AYARLAR = {"hepsi": "", "ozet_yok": "ozet", "hazir_sorgu_yok": "hazir_sorgu", "tek_ifade_yok": "tek_ifade"}
TURLER = ("yoklama_soketli", "yoklama_soketsiz", "mesaj", "operator_kuyruk", "operator_mesajlar")


def ortam(db_url: str, redis_url: str, kapat: str) -> dict:
    env = {k: os.environ[k] for k in ("PATH", "HOME", "TMPDIR") if k in os.environ}
    env.update({
        "LANG": "C.UTF-8", "PYTHONPATH": os.pathsep.join([str(KOK), str(BENCH_DIR)]),
        "DJANGO_SETTINGS_MODULE": "taban.karma_settings", "BENCH_KAPAT": kapat,
        "DEBUG": "false", "SECRET_KEY": "bench-only-" + "k" * 48, "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": db_url, "REDIS_URL": redis_url, "WIDGET_RATE_LIMIT": "100000/s",
        "ALLOWED_HOSTS": HOST, "LOG_LEVEL": "WARNING", "PYTHONWARNINGS": "ignore:No directory at",
        # pub/sub channels are global to the Redis server: a private prefix per run
        "CHANNEL_LAYER_PREFIX": f"karma{os.getpid()}",
    })
    return env


def manage(env: dict, *args: str) -> str:
    sonuc = subprocess.run([PY, "manage.py", *args], cwd=KOK, env=env, capture_output=True, text=True)
    if sonuc.returncode:
        raise SystemExit(f"manage.py {args[0]} failed:\n{sonuc.stdout}\n{sonuc.stderr}")
    return sonuc.stdout


def veritabani_hazirla(db_url: str, redis_url: str, env: dict) -> None:
    import psycopg
    import redis

    p = urlsplit(db_url)
    ad = p.path.lstrip("/")
    with psycopg.connect(p._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{ad}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{ad}"')
    redis.Redis.from_url(redis_url).flushdb()
    manage(env, "migrate", "--noinput", "-v", "0")


def dinleyen_soket() -> socket.socket:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((HOST, 0))
    s.listen(1024)
    return s


class Sunucular:
    """gunicorn (REST) and one uvicorn (sockets) on listening sockets of our own."""

    def __init__(self, env: dict, worker: int):
        self.rest, self.ws = dinleyen_soket(), dinleyen_soket()
        self.rest_port, self.ws_port = self.rest.getsockname()[1], self.ws.getsockname()[1]
        self.gunicorn = subprocess.Popen(
            [PY, "-m", "gunicorn", "supportdesk.wsgi", "-w", str(worker), "--bind", f"fd://{self.rest.fileno()}",
             "--log-level", "warning", "--timeout", "60"],
            cwd=KOK, env=env, pass_fds=(self.rest.fileno(),), stdout=subprocess.DEVNULL)
        self.uvicorn = subprocess.Popen(
            [PY, "-m", "uvicorn", "supportdesk.asgi:application", "--fd", str(self.ws.fileno()), "--lifespan", "off",
             "--log-level", "warning", "--ws-per-message-deflate", "false", "--ws-max-size", "65536",
             "--ws-ping-interval", str(PING[0]), "--ws-ping-timeout", str(PING[1])],
            cwd=KOK, env=env, pass_fds=(self.ws.fileno(),), stdout=subprocess.DEVNULL)
        for port, proc in ((self.rest_port, self.gunicorn), (self.ws_port, self.uvicorn)):
            bitis = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    raise SystemExit(f"server exited ({proc.args[2]})")
                try:
                    if asyncio.run(istek(port, ham("GET", "/api/v1/saglik")))[0] == 200:
                        break
                except OSError:
                    pass
                if time.monotonic() > bitis:
                    raise SystemExit(f"{proc.args[2]} did not answer within 60 s")
                time.sleep(0.2)

    def cpu_ms(self) -> float:
        return sum(_cpu_ms(p.pid) for p in (self.gunicorn, self.uvicorn))

    def kapat(self) -> None:
        for p in (self.gunicorn, self.uvicorn):
            p.terminate()
        for p in (self.gunicorn, self.uvicorn):
            p.wait(timeout=30)
        self.rest.close()
        self.ws.close()


# --- HTTP: one connection per request (gunicorn's sync workers close it) -------------------------

def iz(metin: str) -> None:
    if os.environ.get("KARMA_IZ"):
        print(f"#   {time.strftime('%H:%M:%S')} {metin}", file=sys.stderr, flush=True)


async def istek(port: int, veri: bytes) -> tuple[int, bytes]:
    okuyucu, yazici = await asyncio.open_connection(HOST, port)
    try:
        yazici.write(veri)
        yanit = await okuyucu.read()
    finally:
        yazici.close()
    durum = int(yanit[9:12]) if yanit[:5] == b"HTTP/" else 0
    basliklar, _, govde = yanit.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in basliklar.lower():
        parcalar = []
        while govde:
            boy, _, govde = govde.partition(b"\r\n")
            n = int(boy.split(b";")[0] or b"0", 16)
            if not n:
                break
            parcalar.append(govde[:n])
            govde = govde[n + 2:]
        govde = b"".join(parcalar)
    return durum, govde


def json_istek(port: int, method: str, path: str, veri=None, headers=None) -> dict:
    durum, govde = asyncio.run(istek(port, ham(method, path, veri, headers)))
    if durum not in (200, 201):
        raise SystemExit(f"{method} {path}: {durum} {govde[:300]!r}")
    return json.loads(govde)["data"]


# --- the load ------------------------------------------------------------------------------------

class Kayit:
    def __init__(self):
        self.sureler = {t: [] for t in TURLER}
        self.durumlar = {t: {} for t in TURLER}
        self.sayiyor = False
        self.gecikme = 0  # requests sent more than 0.5 s after their time (the client fell behind)

    def ekle(self, tur: str, gecen: float, durum: int):
        if self.sayiyor:
            self.sureler[tur].append(gecen)
            self.durumlar[tur][durum] = self.durumlar[tur].get(durum, 0) + 1


async def zamanla(bitis: float, aralik: float, ilk: float, is_, kayit: Kayit):
    """Run `is_()` at ilk, ilk + aralik, ... until bitis (monotonic), open-loop."""
    zaman, gorevler = ilk, set()
    while zaman < bitis:
        bekle = zaman - time.monotonic()
        if bekle > 0:
            await asyncio.sleep(bekle)
        elif bekle < -0.5 and kayit.sayiyor:
            kayit.gecikme += 1
        gorev = asyncio.create_task(is_())
        gorevler.add(gorev)
        gorev.add_done_callback(gorevler.discard)
        zaman += aralik
    if gorevler:
        await asyncio.gather(*gorevler)


async def yuk(args, port: int, ws_port: int, widgetlar: list[dict], operatorler: list[dict], kayit: Kayit) -> dict:
    kare = {"alinan": 0}
    soketler = []

    async def soket_ac(w):
        url = f"ws://{HOST}:{ws_port}/ws/v1/widget/?" + urlencode({"api_key": w["api_key"], "ziyaretci_id": w["ziyaretci"]})
        ws = await connect(url, open_timeout=30, max_size=2**20)  # the widget socket sends no greeting
        soketler.append(ws)

        async def oku():
            try:
                async for _ in ws:
                    kare["alinan"] += 1
            except ConnectionClosed as e:
                kare.setdefault("kapanan", []).append(e.rcvd.code if e.rcvd else None)
        return asyncio.create_task(oku())

    soketli = [w for w in widgetlar if w["soketli"]]
    okuyucular = []
    for i in range(0, len(soketli), 50):
        okuyucular += await asyncio.gather(*(soket_ac(w) for w in soketli[i:i + 50]))
    iz(f"{len(soketler)} sockets open")
    # The servers' CPU with the sockets open and no request (keepalive pings, presence refresh):
    # a cost per second, not per request. Over a run that the load stretches (answers queued
    # behind a busy machine), it would otherwise land on the requests (issue 40).
    bosta_cpu0, bosta_t0 = args.cpu(), time.monotonic()
    if args.bosta > 0:
        await asyncio.sleep(args.bosta)
    bosta_ms_s = (args.cpu() - bosta_cpu0) / max(1e-9, time.monotonic() - bosta_t0) if args.bosta > 0 else 0.0
    t0 = time.monotonic()
    bitis = t0 + args.isinma + args.sure

    def yoklayici(w):
        tur = "yoklama_soketli" if w["soketli"] else "yoklama_soketsiz"

        async def yokla():
            yol = "/api/v1/widget/chat/messages?" + urlencode(
                {"ziyaretci_id": w["ziyaretci"], "oturum_id": w["oturum"], "sonra": w["sonra"]})
            t = time.perf_counter()
            durum, govde = await istek(port, ham("GET", yol, headers={"X-API-Key": w["api_key"]}))
            kayit.ekle(tur, time.perf_counter() - t, durum)
            if durum == 200:
                mesajlar = json.loads(govde)["data"]["mesajlar"]
                if mesajlar:
                    w["sonra"] = max(m["id"] for m in mesajlar)
        return yokla

    rnd = random.Random(25)

    async def mesaj():
        w = rnd.choice(widgetlar)
        t = time.perf_counter()
        durum, _ = await istek(port, ham("POST", "/api/v1/widget/chat/message",
                                         {"ziyaretci_id": w["ziyaretci"], "oturum_id": w["oturum"],
                                          "icerik": "Siparişim nerede?"}, {"X-API-Key": w["api_key"]}))
        kayit.ekle("mesaj", time.perf_counter() - t, durum)

    def okuyucu(o):
        async def oku():
            baslik = {"Authorization": f"Bearer {o['token']}"}
            t = time.perf_counter()
            durum, _ = await istek(port, ham("GET", "/api/v1/operator/chats", headers=baslik))
            kayit.ekle("operator_kuyruk", time.perf_counter() - t, durum)
            t = time.perf_counter()
            durum, _ = await istek(port, ham("GET", f"/api/v1/operator/chat/{rnd.choice(o['oturumlar'])}/messages",
                                             headers=baslik))
            kayit.ekle("operator_mesajlar", time.perf_counter() - t, durum)
        return oku

    async def sayaci_ac():
        await asyncio.sleep(max(0.0, t0 + args.isinma - time.monotonic()))
        kayit.sayiyor = True
        kare["cpu0"], kare["t0"], kare["alinan0"] = args.cpu(), time.monotonic(), kare["alinan"]

    isler = [sayaci_ac()]
    for w in widgetlar:
        aralik = 30.0 if w["soketli"] else 2.5
        isler.append(zamanla(bitis, aralik, t0 + rnd.uniform(0, aralik), yoklayici(w), kayit))
    isler.append(zamanla(bitis, 1 / args.mesaj_hizi, t0, mesaj, kayit))
    for o in operatorler:
        isler.append(zamanla(bitis, args.operator_aralik, t0 + rnd.uniform(0, args.operator_aralik), okuyucu(o), kayit))
    # Open-loop: a request is a task of its own, so a slow answer never delays the next one's schedule.
    await asyncio.gather(*isler)
    kayit.sayiyor = False
    iz("load done")
    cpu = args.cpu() - kare["cpu0"]
    sure = time.monotonic() - kare["t0"]
    acik = sum(1 for g in okuyucular if not g.done())  # sockets still open at the end
    for g in okuyucular:
        g.cancel()
    await asyncio.gather(*(ws.close() for ws in soketler))
    iz("sockets closed")
    return {"sure": sure, "cpu_ms": cpu, "bosta_ms_s": bosta_ms_s, "soket": acik, "kare": kare["alinan"] - kare["alinan0"],
            "kapanan": kare.get("kapanan", [])}


def hazirla(args, env: dict) -> tuple[list[dict], list[dict]]:
    """Tenants, operators and the widgets' chats, through the service's own commands and API."""
    sunucular = Sunucular(env, args.worker)
    try:
        musteriler = [json.loads(manage(env, "musteri_olustur", "--firma-adi", f"Karma {i}", "--json").strip()
                                 .splitlines()[-1]) for i in range(args.musteri)]
        operatorler = []
        for i, m in enumerate(musteriler):
            email = f"karma-{i}@bench.example"
            manage(env, "operator_olustur", "--email", email, "--sifre", "Bench-sifre-12345", "--musteri",
                   str(m["id"]), "--json")
            operatorler.append({"email": email, "musteri": m, "oturumlar": []})
        widgetlar = []
        for i in range(args.widget):
            m = musteriler[i % len(musteriler)]
            ziyaretci = f"karma-{i}"
            veri = json_istek(sunucular.rest_port, "POST", "/api/v1/widget/chat/start",
                              {"ziyaretci_id": ziyaretci, "ad": f"Ziyaretçi {i}", "mesaj": "Merhaba"},
                              {"X-API-Key": m["api_key"]})
            oturum = veri["oturum"]["id"]
            widgetlar.append({"ziyaretci": ziyaretci, "oturum": oturum, "api_key": m["api_key"],
                              "soketli": i < args.soketli, "sonra": 0})
            operatorler[i % len(musteriler)]["oturumlar"].append(oturum)
        for o in operatorler:
            o["token"] = json_istek(sunucular.rest_port, "POST", "/api/v1/auth/login",
                                    {"email": o["email"], "sifre": "Bench-sifre-12345"})["token"]
        for w in widgetlar:  # start from the chat's last message, as an open widget does
            veri = json_istek(sunucular.rest_port, "GET", "/api/v1/widget/chat/messages?" + urlencode(
                {"ziyaretci_id": w["ziyaretci"], "oturum_id": w["oturum"]}), headers={"X-API-Key": w["api_key"]})
            w["sonra"] = max((m["id"] for m in veri["mesajlar"]), default=0)
    finally:
        sunucular.kapat()
    return widgetlar, operatorler


def ozetle(olcumler: list[dict]) -> dict:
    sonuc = {}
    toplam_sure = sum(o["sure"] for o in olcumler)
    for tur in TURLER:
        tum = sorted(x for o in olcumler for x in o["sureler"][tur])
        n = len(tum)
        durumlar: dict = {}
        for o in olcumler:
            for k, v in o["durumlar"][tur].items():
                durumlar[k] = durumlar.get(k, 0) + v
        beklenen = 201 if tur == "mesaj" else 200

        def yuzde(q, tum=tum, n=n):
            return round(tum[min(n - 1, int(n * q))] * 1000, 1) if n else None
        sonuc[tur] = {"istek": n, "hata": sum(v for k, v in durumlar.items() if k != beklenen),
                      "durumlar": {str(k): v for k, v in sorted(durumlar.items())},
                      "rps": round(n / toplam_sure, 2), "p50_ms": round(statistics.median(tum) * 1000, 1) if n else None,
                      "p95_ms": yuzde(0.95), "p99_ms": yuzde(0.99),
                      "tur_p50_ms": [round(statistics.median(o["sureler"][tur]) * 1000, 1)
                                     if o["sureler"][tur] else None for o in olcumler],
                      "tur_p95_ms": [round(sorted(o["sureler"][tur])[int(len(o["sureler"][tur]) * 0.95)] * 1000, 1)
                                     if o["sureler"][tur] else None for o in olcumler]}
    tum = sorted(x for o in olcumler for t in TURLER for x in o["sureler"][t])
    n = len(tum)
    sonuc["toplam"] = {"istek": n, "hata": sum(sonuc[t]["hata"] for t in TURLER), "rps": round(n / toplam_sure, 2),
                       "p50_ms": round(statistics.median(tum) * 1000, 1), "p95_ms": round(tum[int(n * 0.95)] * 1000, 1),
                       "p99_ms": round(tum[int(n * 0.99)] * 1000, 1),
                       "cpu_ms_istek": round(sum(o["cpu_ms"] for o in olcumler) / n, 2),
                       # Net of the idle servers' CPU over the measured window (--bosta).
                       "cpu_ms_istek_net": round(sum(o["cpu_ms"] - o["bosta_ms_s"] * o["sure"] for o in olcumler) / n, 2),
                       "bosta_ms_s": round(sum(o["bosta_ms_s"] for o in olcumler) / len(olcumler), 1),
                       "sure_s": [round(o["sure"], 1) for o in olcumler],
                       "tur_cpu_ms_istek": [round(o["cpu_ms"] / max(1, sum(len(o["sureler"][t]) for t in TURLER)), 2)
                                            for o in olcumler],
                       "tur_p50_ms": [round(statistics.median([x for t in TURLER for x in o["sureler"][t]]) * 1000, 1)
                                      for o in olcumler],
                       "tur_p95_ms": [round(sorted(x for t in TURLER for x in o["sureler"][t])[
                           int(sum(len(o["sureler"][t]) for t in TURLER) * 0.95)] * 1000, 1) for o in olcumler],
                       "istemci_gecikti": sum(o["gecikme"] for o in olcumler),
                       "soket_kare": sum(o["kare"] for o in olcumler)}
    return sonuc


def main() -> int:
    global KOK, PING
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ayar", action="append", choices=list(AYARLAR), help="configurations (default: all)")
    ap.add_argument("--sure", type=float, default=40, help="measured seconds per configuration and round")
    ap.add_argument("--isinma", type=float, default=5, help="uncounted seconds at the start of each run")
    ap.add_argument("--tur", type=int, default=3, help="interleaved rounds")
    ap.add_argument("--widget", type=int, default=300, help="open widgets (one chat each)")
    ap.add_argument("--soketli", type=int, default=240, help="of them, with the socket open (poll every 30 s)")
    ap.add_argument("--mesaj-hizi", type=float, default=8, help="visitor messages a second, in all")
    ap.add_argument("--musteri", type=int, default=4, help="tenants (one operator each)")
    ap.add_argument("--operator-aralik", type=float, default=2, help="seconds between an operator's reads")
    ap.add_argument("--worker", type=int, default=4, help="gunicorn sync workers")
    ap.add_argument("--bosta", type=float, default=10,
                    help="seconds of idle servers (sockets open, no request) measured before each run; 0: none")
    ap.add_argument("--repo", type=Path, default=KOK,
                    help="checkout to serve (default: this one), so one script measures an old commit and the new code")
    ap.add_argument("--ping", default="10/5", metavar="INTERVAL/TIMEOUT",
                    help="uvicorn's --ws-ping-interval/--ws-ping-timeout (default 10/5, as in production)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    KOK = args.repo.resolve()
    PING = tuple(float(x) for x in args.ping.split("/"))  # type: ignore[assignment]
    ayarlar = args.ayar or list(AYARLAR)
    db_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_karma_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
    commit = subprocess.run(["git", "-C", str(KOK), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    bas = dt.datetime.now(dt.UTC)
    yuk_bas = os.getloadavg()
    print(f"# {commit} · {os.cpu_count()} cores · load {yuk_bas[0]:.2f} · {args.widget} widgets ({args.soketli} "
          f"with a socket) · {args.mesaj_hizi} msg/s · {args.musteri} operators every {args.operator_aralik:g} s · "
          f"{args.tur} rounds × {len(ayarlar)} configurations × {args.sure:g} s", flush=True)
    veritabani_hazirla(db_url, redis_url, ortam(db_url, redis_url, ""))
    widgetlar, operatorler = hazirla(args, ortam(db_url, redis_url, ""))
    olcumler: dict[str, list[dict]] = {a: [] for a in ayarlar}
    for tur in range(args.tur):
        sira = ayarlar if tur % 2 == 0 else list(reversed(ayarlar))  # ABBA: no configuration always first
        for ayar in sira:
            sunucular = Sunucular(ortam(db_url, redis_url, AYARLAR[ayar]), args.worker)
            args.cpu = sunucular.cpu_ms
            kayit = Kayit()
            try:
                ek = asyncio.run(yuk(args, sunucular.rest_port, sunucular.ws_port, widgetlar, operatorler, kayit))
            finally:
                sunucular.kapat()
            olcumler[ayar].append({"sureler": kayit.sureler, "durumlar": kayit.durumlar, "gecikme": kayit.gecikme, **ek})
            n = sum(len(v) for v in kayit.sureler.values())
            net = (ek["cpu_ms"] - ek["bosta_ms_s"] * ek["sure"]) / n
            print(f"# round {tur + 1} {ayar}: {n / ek['sure']:.1f} req/s over {ek['sure']:.1f} s, server CPU "
                  f"{ek['cpu_ms'] / n:.2f} ms/req ({net:.2f} net of {ek['bosta_ms_s']:.1f} ms/s idle), "
                  f"p95 " + ", ".join(f"{t} {sorted(v)[int(len(v) * 0.95)] * 1000:.0f}" for t, v in kayit.sureler.items() if v)
                  + f" ms; {ek['soket']} sockets, {ek['kare']} frames", flush=True)
    ozet = {a: ozetle(o) for a, o in olcumler.items()}
    yuk_son = os.getloadavg()
    print()
    print(f"{commit} {bas.isoformat(timespec='seconds')} · load {yuk_bas[0]:.2f} → {yuk_son[0]:.2f}")
    print()
    print("| configuration | kind | req/s | p50 ms | p95 ms | p99 ms | p95 per round | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for a, s in ozet.items():
        for t in (*TURLER, "toplam"):
            x = s[t]
            print(f"| {a} | {t} | {x['rps']} | {x['p50_ms']} | {x['p95_ms']} | {x['p99_ms']} | "
                  f"{', '.join(map(str, x['tur_p95_ms']))} | {x['hata']} |")
    print()
    print("| configuration | server CPU ms/request | per round | ratio to hepsi | net of idle | idle ms/s | window s |")
    print("|---|---|---|---|---|---|---|")
    taban = ozet.get("hepsi", {}).get("toplam", {}).get("cpu_ms_istek")
    for a, s in ozet.items():
        x = s["toplam"]
        print(f"| {a} | {x['cpu_ms_istek']} | {', '.join(map(str, x['tur_cpu_ms_istek']))} | "
              f"{round(x['cpu_ms_istek'] / taban, 2) if taban else '-'} | {x['cpu_ms_istek_net']} | "
              f"{x['bosta_ms_s']} | {', '.join(map(str, x['sure_s']))} |")
    if args.json:
        args.json.write_text(json.dumps({
            "commit": commit, "tarih": bas.isoformat(timespec="seconds"), "cpu": os.cpu_count(),
            "yuk_bas": [round(x, 2) for x in yuk_bas], "yuk_son": [round(x, 2) for x in yuk_son],
            "ayarlar": {k: v for k, v in vars(args).items() if k not in ("json", "cpu")}, "ozet": ozet,
        }, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"\n# results: {args.json}")
    hatali = {a: s["toplam"]["hata"] for a, s in ozet.items() if s["toplam"]["hata"]}
    if hatali:
        print(f"!!! ERRORS (unexpected statuses): {hatali}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
