#!/usr/bin/env python
"""Socket fan-out benchmark (issue 14): latency from a REST write to the frame on N open sockets,
and memory per open socket. Not a test; the numbers go to docs/performance.md.

Set-up as in production: REST on gunicorn (`supportdesk.wsgi`, sync workers), sockets on one or two
uvicorn processes (`supportdesk.asgi`), Redis as channel layer, PostgreSQL. One tenant, one
operator holding N operator sockets (spread evenly over the socket processes), one visitor with a
waiting chat. Each round the visitor posts a message (`POST /widget/chat/message`); every socket
receives the `mesaj` frame. Latency per socket = frame arrival - the moment the REST request was
sent (so it includes the REST call itself: commit, after-commit fan-out, Redis, the socket
process). Memory: the socket processes' RSS before and after opening the sockets, divided by N.
CPU: the socket processes' CPU time (user + system, /proc) over the rounds, divided by the rounds:
the server-side cost of one event fanned out to N sockets, which depends far less on the machine's
load than the latencies do (same for the gunicorn workers per REST write, and this client).

Usage:
    .venv/bin/python bench/canli_bench.py [--soket 500] [--surec 1] [--tur 30] [--json out.json] [--deflate] [--isinma 0]

The socket processes run as README's production command does: `--ws-per-message-deflate false`
(`--deflate` turns it back on to measure what compression costs).

Issue 32 additions: `--taban` runs the bare baseline (bench/canli_taban.py: uvicorn + Redis pub/sub
only) in place of the service, with the same client and measurements; `--kok DIR` serves another
checkout (e.g. `git archive <commit>` of the code before a change) with this file's client; the
socket processes' garbage collections are logged (bench/gc_izle) and summarised (`gc_*`); CPU per
delivered frame (`soket_cpu_us_cerceve_basina`, gross and `_net` of idle).

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_canli_bench; dropped
and recreated), BENCH_REDIS_URL (default redis://127.0.0.1:6379/5; flushed).
"""
import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests
from websockets.asyncio.client import connect

KOK = Path(__file__).resolve().parents[1]
_ISARET = '"icerik":"bench-'
PY = sys.executable


def _ortam(db_url, redis_url, **ek):
    return {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""), "LANG": "C.UTF-8",
            "DEBUG": "false", "SECRET_KEY": "bench-" + "x" * 50, "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": db_url, "REDIS_URL": redis_url, "WIDGET_RATE_LIMIT": "100000/s",
            "CANLI_MAKS_SOKET_OPERATOR": "100000", "CANLI_KIMLIK_SURESI": "120", "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "WARNING",
            # pub/sub channels are global to the Redis server: a private prefix per run, so another
            # run (or anyone's test server) with the same tenant ids cannot add to these sockets' work
            "CHANNEL_LAYER_PREFIX": f"bench{os.getpid()}", **ek}


def _komut(args, env):
    return subprocess.run([PY, "manage.py", *args], cwd=KOK, env=env, check=True, capture_output=True, text=True).stdout


def _veritabani_hazirla(db_url, env):
    p = urlsplit(db_url)
    ad = p.path.lstrip("/")
    yonetim = p._replace(path="/postgres").geturl()
    subprocess.run([PY, "-c", (
        "import psycopg,sys; c=psycopg.connect(sys.argv[1], autocommit=True);"
        "c.execute(f'DROP DATABASE IF EXISTS {sys.argv[2]} WITH (FORCE)'); c.execute(f'CREATE DATABASE {sys.argv[2]}')"
    ), yonetim, ad], check=True)
    _komut(["migrate", "--noinput"], env)
    musteri = json.loads(_komut(["musteri_olustur", "--firma-adi", "Bench", "--json"], env))
    _komut(["operator_olustur", "--email", "bench@example.com", "--sifre", "Bench-2026!x", "--musteri",
            str(musteri["id"]), "--json"], env)
    return musteri


def _soket():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(1024)
    return s


def _rss_kb(pid) -> int:
    toplam = 0
    for p in [pid, *_cocuklar(pid)]:
        try:
            for satir in Path(f"/proc/{p}/status").read_text().splitlines():
                if satir.startswith("VmRSS:"):
                    toplam += int(satir.split()[1])
        except FileNotFoundError:
            pass
    return toplam


def _redis_bellek() -> int:
    import redis

    return redis.Redis.from_url(os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")).info("memory")["used_memory"]


def _cocuklar(pid):
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def _cpu_ms(pid) -> float:
    """User + system CPU time of a process and its children that are still alive, in ms."""
    toplam = 0
    for p in [pid, *_cocuklar(pid)]:
        try:
            alanlar = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        toplam += int(alanlar[11]) + int(alanlar[12])  # utime, stime (fields 14, 15)
    return toplam * 1000 / os.sysconf("SC_CLK_TCK")


def _bekle(url, proc):
    for _ in range(300):
        try:
            requests.get(url, timeout=1)
            return
        except requests.RequestException:
            if proc.poll() is not None:
                raise SystemExit(f"sunucu başlamadı: {url}") from None
            time.sleep(0.1)
    raise SystemExit(f"sunucu başlamadı: {url}")


async def _olc(args, rest_url, ws_urls, musteri, token, uv_pids, rest_pid):
    oturum = requests.post(f"{rest_url}/api/v1/widget/chat/start", headers={"X-API-Key": musteri["api_key"]},
                           json={"ziyaretci_id": "bench-z"}, timeout=10).json()["data"]["oturum"]
    rss_once = sum(_rss_kb(p) for p in uv_pids)
    redis_once = _redis_bellek()
    varis: dict[int, list[float]] = {}
    hazir = asyncio.Event()
    soketler = []

    async def ac(i):
        ws = await connect(ws_urls[i % len(ws_urls)] + "/ws/v1/operator/", open_timeout=30, max_size=2**20)
        await ws.send(json.dumps({"tip": "kimlik", "data": {"token": token}}))
        while json.loads(await ws.recv())["tip"] != "hazir":
            pass
        soketler.append(ws)
        return ws

    async def oku(ws):
        # No json.loads per frame: at thousands of sockets the client (one Python process on the
        # same cores) would be what the latency measures. The frame's text is the service's
        # (`{"tip":"mesaj","data":{"mesaj":{…,"icerik":"bench-N",…}}}`), so a search finds N.
        async for metin in ws:
            i = metin.find(_ISARET)
            if i >= 0 and metin.startswith('{"tip":"mesaj"'):
                j = i + len(_ISARET)
                varis.setdefault(int(metin[j:metin.index('"', j)]), []).append(time.perf_counter())

    acilis_basi = time.time()
    for parti in range(0, args.soket, 50):
        await asyncio.gather(*(ac(i) for i in range(parti, min(parti + 50, args.soket))))
    okuyucular = [asyncio.create_task(oku(ws)) for ws in soketler]
    await asyncio.sleep(2)
    rss_sonra = sum(_rss_kb(p) for p in uv_pids)
    redis_sonra = _redis_bellek()
    # The open sockets' own cost while nothing happens (pings, token and presence checks), to
    # take off the rounds' CPU time: what remains is the events' fan-out.
    bos_basi, bos_t0 = sum(_cpu_ms(p) for p in uv_pids), time.perf_counter()
    await asyncio.sleep(5)
    bos_ms_saniye = (sum(_cpu_ms(p) for p in uv_pids) - bos_basi) / (time.perf_counter() - bos_t0)
    hazir.set()

    # Optional warm-up rounds (--isinma), sent and awaited like the others but not counted: the
    # first rounds after the sockets open are the slowest (first use of code paths and buffers).
    for tur in range(-args.isinma, 0):
        govde = {"ziyaretci_id": "bench-z", "oturum_id": oturum["id"], "icerik": f"isinma{tur}"}
        res = await asyncio.to_thread(requests.post, f"{rest_url}/api/v1/widget/chat/message",
                                      headers={"X-API-Key": musteri["api_key"]}, json=govde, timeout=10)
        assert res.status_code == 201, res.text
        await asyncio.sleep(0.3)
    gecikmeler, eksik, rest_sureleri, tur_maks = [], 0, [], []
    cpu_once = sum(_cpu_ms(p) for p in uv_pids), _cpu_ms(rest_pid), time.process_time()
    turlar_t0 = time.perf_counter()
    turlar_basi = time.time()
    oturum_basliklari = {"X-API-Key": musteri["api_key"]}
    for tur in range(args.tur):
        govde = {"ziyaretci_id": "bench-z", "oturum_id": oturum["id"], "icerik": f"bench-{tur}"}
        t0 = time.perf_counter()
        res = await asyncio.to_thread(requests.post, f"{rest_url}/api/v1/widget/chat/message",
                                      headers=oturum_basliklari, json=govde, timeout=10)
        assert res.status_code == 201, res.text
        rest_sureleri.append((time.perf_counter() - t0) * 1000)
        bitis = time.perf_counter() + 5
        while len(varis.get(tur, [])) < args.soket and time.perf_counter() < bitis:
            await asyncio.sleep(0.005)
        gelen = varis.get(tur, [])
        eksik += args.soket - len(gelen)
        gecikmeler += [(t - t0) * 1000 for t in gelen]
        tur_maks.append(round(max(((t - t0) * 1000 for t in gelen), default=0), 1))
        await asyncio.sleep(0.2)
    cpu_sonra = sum(_cpu_ms(p) for p in uv_pids), _cpu_ms(rest_pid), time.process_time()
    turlar_suresi = time.perf_counter() - turlar_t0
    _olc.turlar_penceresi = (turlar_basi, time.time())
    _olc.acilis_basi = acilis_basi
    for g in okuyucular:
        g.cancel()
    for ws in soketler:
        await ws.close()
    gecikmeler.sort()
    return {
        "soket": args.soket, "surec": args.surec, "tur": args.tur, "kayip_cerceve": eksik,
        "p50_ms": round(statistics.median(gecikmeler), 1),
        "p99_ms": round(gecikmeler[int(len(gecikmeler) * 0.99) - 1], 1),
        "max_ms": round(gecikmeler[-1], 1),
        # the REST call alone (request sent -> answer read; the frames may arrive before it ends)
        "rest_p50_ms": round(statistics.median(rest_sureleri), 1),
        "rest_max_ms": round(max(rest_sureleri), 1),
        # per round: the REST call, and the last frame's latency (a slow round is usually its REST call)
        "turlar_rest_ms": [round(x, 1) for x in rest_sureleri],
        "turlar_son_cerceve_ms": tur_maks,
        "rss_kb_once": rss_once, "rss_kb_sonra": rss_sonra,
        "kb_soket_basina": round((rss_sonra - rss_once) / args.soket, 1),
        # Redis `used_memory` (INFO memory) before and after opening the sockets (issue 44's sizing):
        # presence, the channel layer's group memberships; exact only on a Redis of the bench's own
        "redis_bayt_once": redis_once, "redis_bayt_sonra": redis_sonra,
        "redis_bayt_soket_basina": round((redis_sonra - redis_once) / args.soket),
        # CPU per event (includes the 0.2 s pauses' idle ticks, pings and presence refreshes: small)
        "soket_cpu_ms_olay_basina": round((cpu_sonra[0] - cpu_once[0]) / args.tur, 1),
        "soket_bosta_cpu_ms_saniye": round(bos_ms_saniye, 1),
        "soket_cpu_ms_olay_basina_net": round((cpu_sonra[0] - cpu_once[0] - bos_ms_saniye * turlar_suresi) / args.tur, 1),
        # the same per delivered frame (issue 32's figure): CPU per event / sockets, in µs
        "soket_cpu_us_cerceve_basina": round((cpu_sonra[0] - cpu_once[0]) * 1000 / args.tur / args.soket, 1),
        "soket_cpu_us_cerceve_basina_net": round(
            (cpu_sonra[0] - cpu_once[0] - bos_ms_saniye * turlar_suresi) * 1000 / args.tur / args.soket, 1),
        "rest_cpu_ms_olay_basina": round((cpu_sonra[1] - cpu_once[1]) / args.tur, 1),
        "istemci_cpu_ms_olay_basina": round((cpu_sonra[2] - cpu_once[2]) * 1000 / args.tur, 1),
        "yuk_ortalamasi": [round(x, 2) for x in os.getloadavg()],
    }


def _gc_ozeti(gc_dosyasi: Path) -> dict:
    """The socket processes' collections (bench/gc_izle): full (generation 2) ones while the
    sockets opened and during the rounds, and the time all collections took during the rounds."""
    kayitlar = []
    for f in gc_dosyasi.parent.glob(gc_dosyasi.name + ".*"):
        kayitlar += json.loads(f.read_text())
        f.unlink()
    bas, son = _olc.turlar_penceresi
    turlarda = [k for k in kayitlar if bas <= k[1] <= son]
    acilista = [k for k in kayitlar if _olc.acilis_basi <= k[1] < bas]
    return {
        "gc_tam_acilista": len([k for k in acilista if k[0] == 2]),
        "gc_tam_acilista_maks_ms": round(max((k[2] for k in acilista if k[0] == 2), default=0), 1),
        "gc_tam_turlarda": len([k for k in turlarda if k[0] == 2]),
        "gc_tam_turlarda_maks_ms": round(max((k[2] for k in turlarda if k[0] == 2), default=0), 1),
        "gc_turlarda_toplam_ms": round(sum(k[2] for k in turlarda), 1),
        "gc_turlarda_sayi": len(turlarda),
    }


def main():
    global KOK
    ap = argparse.ArgumentParser()
    ap.add_argument("--soket", type=int, default=500)
    ap.add_argument("--surec", type=int, default=1)
    ap.add_argument("--tur", type=int, default=30)
    ap.add_argument("--json")
    ap.add_argument("--isinma", type=int, default=0, help="uncounted warm-up rounds first (default 0)")
    ap.add_argument("--kok", default=str(KOK),
                    help="checkout whose code the servers run (e.g. an export of the commit before a change);"
                         " this file's client and measurements either way")
    ap.add_argument("--taban", action="store_true",
                    help="the bare baseline instead of the service (bench/canli_taban.py: uvicorn, Redis pub/sub,"
                         " nothing else), same client, sockets, processes and measurements")
    ap.add_argument("--deflate", action="store_true",
                    help="permessage-deflate on (uvicorn's default; README's command turns it off)")
    args = ap.parse_args()
    KOK = Path(args.kok).resolve()
    db_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_canli_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
    env = _ortam(db_url, redis_url)
    yuk_basta = [round(x, 2) for x in os.getloadavg()]
    subprocess.run([PY, "-c", "import redis,sys; redis.Redis.from_url(sys.argv[1]).flushdb()", redis_url], check=True)
    if args.taban:
        # bench/canli_taban.py from this file's directory, whatever --kok says
        env = {**env, "PYTHONPATH": str(Path(__file__).resolve().parent), "BENCH_REDIS_URL": redis_url,
               "TABAN_KANAL": f"taban{os.getpid()}"}
        musteri, uygulama = {"id": 1, "api_key": "taban"}, "canli_taban:application"
    else:
        musteri, uygulama = _veritabani_hazirla(db_url, env), "supportdesk.asgi:application"

    surecler = []
    gc_dosyasi = Path(f"/tmp/canli_bench_gc_{os.getpid()}")
    try:
        rest_soket = _soket()
        if args.taban:  # the publishing side: one more process of the bare app (gunicorn's place)
            rest_komutu = [PY, "-m", "uvicorn", uygulama, "--fd", str(rest_soket.fileno()), "--lifespan", "off",
                           "--log-level", "warning"]
        else:
            rest_komutu = [PY, "-m", "gunicorn", "supportdesk.wsgi", "-w", "2", "--bind", f"fd://{rest_soket.fileno()}"]
        gunicorn = subprocess.Popen(rest_komutu, cwd=KOK, env=env,
                                    pass_fds=(rest_soket.fileno(),), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        surecler.append(gunicorn)
        rest_url = f"http://127.0.0.1:{rest_soket.getsockname()[1]}"
        ws_urls, uv_pids = [], []
        for _ in range(args.surec):
            s = _soket()
            uv_env = {**env, "BENCH_GC_DOSYASI": str(gc_dosyasi),
                      "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent / "gc_izle"),
                                                                  env.get("PYTHONPATH")]))}
            uv = subprocess.Popen([PY, "-m", "uvicorn", uygulama, "--fd", str(s.fileno()),
                                   "--lifespan", "off", "--log-level", "warning",
                                   "--ws-per-message-deflate", "true" if args.deflate else "false",
                                   "--ws-ping-interval", "10", "--ws-ping-timeout", "5"], cwd=KOK, env=uv_env,
                                  pass_fds=(s.fileno(),), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            surecler.append(uv)
            ws_urls.append(f"ws://127.0.0.1:{s.getsockname()[1]}")
            uv_pids.append(uv.pid)
            _bekle(f"http://127.0.0.1:{s.getsockname()[1]}/api/v1/saglik", uv)
        _bekle(f"{rest_url}/api/v1/saglik", gunicorn)
        token = requests.post(f"{rest_url}/api/v1/auth/login", json={"email": "bench@example.com", "sifre": "Bench-2026!x"},
                              timeout=10).json()["data"]["token"]
        sonuc = asyncio.run(_olc(args, rest_url, ws_urls, musteri, token, uv_pids, gunicorn.pid))
    finally:
        for p in surecler:
            p.terminate()
        for p in surecler:
            p.wait(timeout=20)
    sonuc.update(_gc_ozeti(gc_dosyasi))
    sonuc["yuk_ortalamasi_basta"] = yuk_basta
    sonuc["deflate"] = args.deflate
    sonuc["isinma"] = args.isinma
    sonuc["kok"] = str(KOK)
    sonuc["taban"] = args.taban
    print(json.dumps(sonuc, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(sonuc, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
