"""What a socket client can make the server do before it is anyone (issue 24): a frame over
uvicorn's `--ws-max-size` (as `make run` and the README run it) is cut by the server before the
consumer sees it; a refused client that has already gone costs no ERROR in the log."""
import base64
import json
import os
import re
import socket
import struct
import time
from pathlib import Path

import pytest
from django.conf import settings

from supportdesk.testing.canli_sunucu import ws_max_size, ws_ping
from supportdesk.testing.factories import MusteriFactory

from .yardimci import Soket, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


def _kapanis_kodu(soket: Soket) -> int | None:
    gelen, kod = soket.kapanis()
    return kod


def test_readme_ve_make_run_ayni_ws_max_size_ile_calistirir():
    # The live server below takes the figure from the Makefile; the production commands (the
    # Procfile, which compose and `make prod` run too) must name the same one (and a small one:
    # uvicorn's default is 16 MiB).
    procfile = (Path(settings.BASE_DIR) / "Procfile").read_text()
    komut = re.search(r"^sockets: uvicorn supportdesk\.asgi:application .*$", procfile, re.MULTILINE).group(0)
    assert f"--ws-max-size {ws_max_size()}" in komut
    assert f"--ws-max-size {ws_max_size()}" in (Path(settings.BASE_DIR) / "README.md").read_text()
    assert settings.CANLI_MAKS_CERCEVE_BAYT < ws_max_size() <= 64 * 1024
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    assert "--ws-max-size $(WS_MAX_SIZE)" in makefile


def test_her_uvicorn_komutu_ayni_ping_ile_calistirir():
    # Issue 39.6: a silent client (a crashed browser keeps its TCP connection) is noticed only by
    # the keepalive ping; every command that starts the sockets uses the Makefile's figures, and
    # they leave room for presence to end within 30 s (ping + its timeout + CANLI_KOPMA_PENCERESI
    # + one sweep, CANLI_TARAMA_ARALIGI).
    aralik, zaman_asimi = ws_ping()
    bayraklar = f"--ws-ping-interval {aralik} --ws-ping-timeout {zaman_asimi}"
    kok = Path(settings.BASE_DIR)
    for dosya in ("Procfile", "compose.yaml", "README.md", "docs/production.md"):
        assert bayraklar in (kok / dosya).read_text(), dosya
    makefile = (kok / "Makefile").read_text()
    assert "--ws-ping-interval $(WS_PING_INTERVAL) --ws-ping-timeout $(WS_PING_TIMEOUT)" in makefile
    assert aralik + zaman_asimi + settings.CANLI_KOPMA_PENCERESI + settings.CANLI_TARAMA_ARALIGI <= 30


def test_sinirdan_buyuk_cerceve_kimliksiz_soketi_sunucuda_kapatir(canli_sunucu):
    # Before any `kimlik` frame: an operator socket and a bound visitor's socket. A frame one byte
    # over the limit is refused by uvicorn itself (1009 "message too big"), not read in full and
    # handed to the consumer (which would answer 4429 after the server had buffered it).
    musteri = MusteriFactory()
    buyuk = json.dumps({"tip": "kimlik", "data": {"token": "a" * ws_max_size()}})
    operator = Soket(f"{canli_sunucu.ws_url}/ws/v1/operator/")
    operator.ws.send(buyuk)
    assert _kapanis_kodu(operator) == 1009

    ziyaretci = widget_soketi(canli_sunucu, musteri, "buyuk")
    ziyaretci.ws.send(buyuk)
    assert _kapanis_kodu(ziyaretci) == 1009

    # Under the server's limit but over the consumers' own: the contract's refusal, as before.
    orta = Soket(f"{canli_sunucu.ws_url}/ws/v1/operator/")
    orta.ws.send(json.dumps({"tip": "kimlik", "data": {"token": "a" * 10_000}}))
    gelen, kod = orta.kapanis()
    assert kod == 4429 and gelen[-1]["data"]["kod"] == "LIMIT_ASILDI"


def _gelip_giden(sunucu, yol: str, *, yanit_bekle=True) -> None:
    """A WebSocket client that drops the connection (RST) at once: after the server's 101, before
    anything else (or, `yanit_bekle=False`, right after its request, before the server accepts)."""
    s = socket.create_connection(("127.0.0.1", sunucu.port), timeout=5)
    anahtar = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {yol} HTTP/1.1\r\nHost: 127.0.0.1:{sunucu.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {anahtar}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    yanit = b""
    while yanit_bekle and b"\r\n\r\n" not in yanit:
        parca = s.recv(4096)
        assert parca, yanit
        yanit += parca
    assert not yanit_bekle or yanit.startswith(b"HTTP/1.1 101"), yanit
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def test_limitten_reddedilen_soketin_istemcisi_gittiyse_hata_kaydi_yok(canli_sunucu):
    musteri = MusteriFactory()
    acik = [widget_soketi(canli_sunucu, musteri, "giden") for _ in range(5)]  # CANLI_MAKS_SOKET_ZIYARETCI
    baslangic = canli_sunucu.log.stat().st_size
    for i in range(20):  # the 6th socket is refused (4429); its client has gone by then (or before the accept)
        _gelip_giden(canli_sunucu, f"/ws/v1/widget/?api_key={musteri.api_key}&ziyaretci_id=giden", yanit_bekle=i % 2 == 0)
    time.sleep(1.5)  # a window for what must not happen: the server logging an error for a client already gone

    with open(canli_sunucu.log, "rb") as f:
        f.seek(baslangic)
        kayit = f.read().decode(errors="replace")
    assert "ERROR" not in kayit and "Traceback" not in kayit, kayit

    # The refused ones took no place: one closed socket frees exactly one.
    acik[0].kapat()
    yeniden = widget_soketi(canli_sunucu, musteri, "giden")
    fazla = Soket(f"{canli_sunucu.ws_url}/ws/v1/widget/?api_key={musteri.api_key}&ziyaretci_id=giden")
    gelen, kod = fazla.kapanis()
    assert kod == 4429 and gelen[0]["data"]["kod"] == "LIMIT_ASILDI"
    for s in (*acik[1:], yeniden):
        s.kapat()
