"""The bare baseline of the socket fan-out (issue 32): what uvicorn, websockets and Redis pub/sub
alone cost for the same fan-out, so that `bench/canli_bench.py --taban` gives the service's figures
as a ratio to this limit.

A raw ASGI application (no Django, no Channels, no database), served by the same uvicorn and
WebSocket implementation as `supportdesk.asgi`:
- `POST /api/v1/widget/chat/message {"icerik"}` publishes a frame of the service's `mesaj` shape
  and about its size on one Redis pub/sub channel and answers 201 (the REST side: its own uvicorn
  process, as gunicorn is for the service);
- a WebSocket on any path answers its first frame with `hazir` and then gets every published
  frame; each socket process holds one subscription and writes the frame to each of its sockets
  (uvicorn encodes it per socket, as any plain ASGI broadcaster would);
- `POST /api/v1/widget/chat/start`, `/api/v1/auth/login` and `GET /api/v1/saglik` answer what the
  bench reads from them.

Environment: BENCH_REDIS_URL, TABAN_KANAL (the pub/sub channel; the bench makes it private per run).
"""
import asyncio
import json
import os

import redis.asyncio as redis

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
KANAL = os.environ.get("TABAN_KANAL", "taban")

_soketler: set = set()
_istemci: redis.Redis | None = None
_abone: asyncio.Task | None = None

# The service's `mesaj` frame as the bench's operator sockets get it (same keys, similar size).
_MESAJ = {"id": 0, "oturum_id": 1, "gonderen": "ziyaretci", "gonderen_adi": "Ziyaretçi", "icerik": "",
          "tip": "metin", "dosya": None, "ozel": False, "olusturma_tarihi": "2026-11-26T14:00:00.000000Z",
          "okundu": False, "operator_id": None, "ziyaretci_id": "bench-z"}


def _redis() -> redis.Redis:
    global _istemci
    if _istemci is None:
        _istemci = redis.Redis.from_url(REDIS_URL)
    return _istemci


async def _dinle():
    pubsub = _redis().pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(KANAL)
    async for ileti in pubsub.listen():
        metin = ileti["data"].decode()
        for gonder in tuple(_soketler):
            try:
                await gonder({"type": "websocket.send", "text": metin})
            except Exception:
                _soketler.discard(gonder)


async def _json(send, durum, govde):
    veri = json.dumps(govde).encode()
    await send({"type": "http.response.start", "status": durum,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(veri)).encode())]})
    await send({"type": "http.response.body", "body": veri})


async def _http(scope, receive, send):
    govde = b""
    while True:
        ileti = await receive()
        govde += ileti.get("body", b"")
        if not ileti.get("more_body"):
            break
    yol = scope["path"]
    if yol.endswith("/widget/chat/message"):
        istek = json.loads(govde)
        _MESAJ["id"] += 1
        metin = json.dumps({"tip": "mesaj", "data": {"mesaj": {**_MESAJ, "icerik": istek["icerik"]}, "musteri_id": 1}},
                           ensure_ascii=False, separators=(",", ":"))
        await _redis().publish(KANAL, metin)
        return await _json(send, 201, {"data": {"mesaj": {"id": _MESAJ["id"]}}})
    if yol.endswith("/widget/chat/start"):
        return await _json(send, 201, {"data": {"oturum": {"id": 1}}})
    if yol.endswith("/auth/login"):
        return await _json(send, 200, {"data": {"token": "taban"}})
    return await _json(send, 200, {"data": {}})


async def _ws(scope, receive, send):
    global _abone
    if _abone is None:
        _abone = asyncio.get_running_loop().create_task(_dinle())
    while True:
        ileti = await receive()
        if ileti["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif ileti["type"] == "websocket.receive":
            if send not in _soketler:
                await send({"type": "websocket.send", "text": '{"tip":"hazir","data":{"musteri_idleri":[1]}}'})
                _soketler.add(send)
        else:
            _soketler.discard(send)
            return


async def application(scope, receive, send):
    if scope["type"] == "http":
        await _http(scope, receive, send)
    elif scope["type"] == "websocket":
        await _ws(scope, receive, send)
