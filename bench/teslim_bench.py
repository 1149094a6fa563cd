#!/usr/bin/env python
"""Delivery latency under load (issue 41): a visitor's message on the operator's socket, from the
start of its `POST /widget/chat/message` to the frame's arrival, at a steady rate over many chats.

Production topology, as `bench/canli_bench.py` (whose helpers this uses): REST on gunicorn (sync
workers, `--worker`, 4), sockets on two uvicorn processes (`--surec`), Redis as channel layer,
PostgreSQL, production defaults (`DEBUG=false`, `WIDGET_RATE_LIMIT=100000/s` so the limiter runs
but never refuses). One tenant, `--sohbet` (50) visitors each with a waiting chat, one operator
holding one socket on each socket process: every message reaches every operator socket.

Open loop: message k is due at T0 + k / `--hiz` (200 a second) and goes to chat k mod 50, sent by a
pool of client threads (one connection per request, as gunicorn's sync workers want); a message
sent late (all threads busy) still counts from its own POST's start, and how many were late is
reported. Each frame is matched by its text (`"icerik":"teslim-k"`): p50/p99/max over every
(message, socket) pair, frames lost (none after 5 s) and duplicated.

`--taban`: the bare broadcaster (`bench/canli_taban.py`: uvicorn + Redis pub/sub, no Django, no
database) in the same hops (an HTTP POST to a REST process that PUBLISHes, two socket processes
subscribed, the same client), so the service's figures can be read against it. Run the two
alternately in one sitting.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sd_teslim_bench BENCH_REDIS_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python bench/teslim_bench.py [--taban] [--hiz 200] [--sure 10] [--sohbet 50] [--json out.json]
"""
import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import canli_bench as cb

_ISARET = '"icerik":"teslim-'


def _post(port: int, govde: bytes, api_key: str) -> int:
    istek = (f"POST /api/v1/widget/chat/message HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
             f"X-API-Key: {api_key}\r\nContent-Type: application/json\r\nContent-Length: {len(govde)}\r\n\r\n"
             ).encode() + govde
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(istek)
        ilk = s.recv(65536)
        while s.recv(65536):
            pass
    return int(ilk[9:12])


async def _olc(args, rest_port, ws_urls, musteri, token, uv_pids):
    sohbetler = []
    for i in range(args.sohbet):
        z = f"teslim-z{i}"
        res = requests.post(f"http://127.0.0.1:{rest_port}/api/v1/widget/chat/start",
                            headers={"X-API-Key": musteri["api_key"]}, json={"ziyaretci_id": z, "mesaj": "Merhaba"},
                            timeout=30)
        assert res.status_code == 201, res.text
        sohbetler.append((z, res.json()["data"]["oturum"]["id"]))
    varis: dict[int, list[float]] = {}

    async def ac(url):
        ws = await connect(url + "/ws/v1/operator/", open_timeout=30, max_size=2**20)
        await ws.send(json.dumps({"tip": "kimlik", "data": {"token": token}}))
        while json.loads(await ws.recv())["tip"] != "hazir":
            pass
        return ws

    async def oku(ws):
        async for metin in ws:
            i = metin.find(_ISARET)
            if i >= 0 and metin.startswith('{"tip":"mesaj"'):
                j = i + len(_ISARET)
                varis.setdefault(int(metin[j:metin.index('"', j)]), []).append(time.perf_counter())

    soketler = [await ac(u) for u in ws_urls]
    okuyucular = [asyncio.create_task(oku(ws)) for ws in soketler]
    await asyncio.sleep(1)
    bos_basi, bos_t0 = sum(cb._cpu_ms(p) for p in uv_pids), time.perf_counter()
    await asyncio.sleep(3)
    bos_ms_saniye = (sum(cb._cpu_ms(p) for p in uv_pids) - bos_basi) / (time.perf_counter() - bos_t0)

    n = int(args.hiz * args.sure)
    baslangic: dict[int, float] = {}
    durumlar: dict[int, int] = {}
    gec = [0]
    kilit = threading.Lock()
    havuz = ThreadPoolExecutor(args.istemci)

    def gonder(k):
        z, o = sohbetler[k % len(sohbetler)]
        govde = json.dumps({"ziyaretci_id": z, "oturum_id": o, "icerik": f"teslim-{k}"}).encode()
        t0 = time.perf_counter()
        baslangic[k] = t0
        try:
            durum = _post(rest_port, govde, musteri["api_key"])
        except OSError:
            durum = 0
        with kilit:
            durumlar[durum] = durumlar.get(durum, 0) + 1

    def zamanla():
        t_bas = time.perf_counter() + 0.2
        for k in range(n):
            hedef = t_bas + k / args.hiz
            while (simdi := time.perf_counter()) < hedef:
                time.sleep(min(hedef - simdi, 0.002))
            if havuz._work_queue.qsize() > 0:  # every thread busy: this one starts late
                gec[0] += 1
            havuz.submit(gonder, k)
        havuz.shutdown(wait=True)

    cpu_once, t_once = sum(cb._cpu_ms(p) for p in uv_pids), time.perf_counter()
    await asyncio.to_thread(zamanla)
    bitis = time.perf_counter() + 5
    while time.perf_counter() < bitis and sum(len(v) for v in varis.values()) < n * len(soketler):
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.5)  # a duplicate would come now
    cpu_sonra, sure = sum(cb._cpu_ms(p) for p in uv_pids), time.perf_counter() - t_once
    for g in okuyucular:
        g.cancel()
    for ws in soketler:
        await ws.close()

    gecikmeler = sorted((t - baslangic[k]) * 1000 for k, ts in varis.items() if k in baslangic for t in ts)
    beklenen = n * len(soketler)
    alinan = sum(min(len(v), len(soketler)) for v in varis.values())
    fazla = sum(max(0, len(v) - len(soketler)) for v in varis.values())
    teslim = len(gecikmeler)
    return {
        "hiz": args.hiz, "sure_s": args.sure, "mesaj": n, "sohbet": args.sohbet, "soket": len(soketler),
        "surec": args.surec, "worker": args.worker, "istemci": args.istemci,
        "durumlar": {str(k): v for k, v in sorted(durumlar.items())}, "gec_baslayan": gec[0],
        "kayip_cerceve": beklenen - alinan, "cift_cerceve": fazla,
        "p50_ms": round(statistics.median(gecikmeler), 1) if gecikmeler else None,
        "p99_ms": round(gecikmeler[min(teslim - 1, int(teslim * 0.99))], 1) if gecikmeler else None,
        "max_ms": round(gecikmeler[-1], 1) if gecikmeler else None,
        "soket_cpu_us_cerceve_basina_net": round((cpu_sonra - cpu_once - bos_ms_saniye * sure) * 1000 / max(teslim, 1),
                                                 1),
        "yuk": [round(x, 2) for x in os.getloadavg()],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hiz", type=float, default=200, help="messages a second")
    ap.add_argument("--sure", type=float, default=10, help="seconds of sending")
    ap.add_argument("--sohbet", type=int, default=50)
    ap.add_argument("--surec", type=int, default=2, help="socket processes")
    ap.add_argument("--worker", type=int, default=4, help="gunicorn sync workers")
    ap.add_argument("--istemci", type=int, default=48, help="client threads sending")
    ap.add_argument("--taban", action="store_true", help="the bare broadcaster (bench/canli_taban.py) instead")
    ap.add_argument("--kok", default=str(cb.KOK), help="checkout the servers run")
    ap.add_argument("--json")
    args = ap.parse_args()
    cb.KOK = Path(args.kok).resolve()
    db_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_teslim_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
    env = cb._ortam(db_url, redis_url)
    yuk_basta = [round(x, 2) for x in os.getloadavg()]
    subprocess.run([cb.PY, "-c", "import redis,sys; redis.Redis.from_url(sys.argv[1]).flushdb()", redis_url], check=True)
    if args.taban:
        env = {**env, "PYTHONPATH": str(Path(__file__).resolve().parent), "BENCH_REDIS_URL": redis_url,
               "TABAN_KANAL": f"taban{os.getpid()}"}
        musteri, uygulama = {"id": 1, "api_key": "taban"}, "canli_taban:application"
    else:
        musteri, uygulama = cb._veritabani_hazirla(db_url, env), "supportdesk.asgi:application"
    surecler = []
    try:
        rest_soket = cb._soket()
        if args.taban:  # the publishing side: uvicorn processes of the bare app (gunicorn's place)
            rest_komutu = [cb.PY, "-m", "uvicorn", uygulama, "--fd", str(rest_soket.fileno()), "--lifespan", "off",
                           "--log-level", "warning"]
        else:
            rest_komutu = [cb.PY, "-m", "gunicorn", "supportdesk.wsgi", "-w", str(args.worker), "--bind",
                           f"fd://{rest_soket.fileno()}"]
        rest = subprocess.Popen(rest_komutu, cwd=cb.KOK, env=env, pass_fds=(rest_soket.fileno(),),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        surecler.append(rest)
        rest_port = rest_soket.getsockname()[1]
        ws_urls, uv_pids = [], []
        for _ in range(args.surec):
            s = cb._soket()
            uv = subprocess.Popen([cb.PY, "-m", "uvicorn", uygulama, "--fd", str(s.fileno()), "--lifespan", "off",
                                   "--log-level", "warning", "--ws-per-message-deflate", "false"], cwd=cb.KOK,
                                  env=env, pass_fds=(s.fileno(),), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            surecler.append(uv)
            ws_urls.append(f"ws://127.0.0.1:{s.getsockname()[1]}")
            uv_pids.append(uv.pid)
            cb._bekle(f"http://127.0.0.1:{s.getsockname()[1]}/api/v1/saglik", uv)
        cb._bekle(f"http://127.0.0.1:{rest_port}/api/v1/saglik", rest)
        token = requests.post(f"http://127.0.0.1:{rest_port}/api/v1/auth/login",
                              json={"email": "bench@example.com", "sifre": "Bench-2026!x"}, timeout=10
                              ).json()["data"]["token"]
        sonuc = asyncio.run(_olc(args, rest_port, ws_urls, musteri, token, uv_pids))
    finally:
        for p in surecler:
            p.terminate()
        for p in surecler:
            p.wait(timeout=20)
    sonuc.update({"taban": args.taban, "kok": str(cb.KOK), "yuk_basta": yuk_basta})
    print(json.dumps(sonuc, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(sonuc, ensure_ascii=False, indent=2))
    return 1 if sonuc["kayip_cerceve"] or sonuc["cift_cerceve"] or set(sonuc["durumlar"]) != {"201"} else 0


if __name__ == "__main__":
    sys.exit(main())
