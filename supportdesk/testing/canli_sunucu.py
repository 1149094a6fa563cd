"""Live ASGI servers for the socket tests: `uvicorn supportdesk.asgi:application` as a subprocess
on an ephemeral port (a socket bound to port 0 here, handed over with `--fd`), talking to the test
database and, when REDIS_URL is set, to Redis (channel layer, presence, rate limits).

Tests using it must be `django_db(transaction=True)`: the server is another process and only sees
committed rows. Skipped on SQLite (the test database lives in the test process). Windows and
intervals are short (CANLI_AYARLARI) so presence tests take seconds.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings

from .celery_worker import worker_veritabani_url

CANLI_AYARLARI = {
    "CANLI_SOKET_TTL": "1.5",
    "CANLI_KAPANIS_PENCERESI": "1",
    "CANLI_REST_PENCERESI": "1",
    "CANLI_TARAMA_ARALIGI": "0.3",
    "CANLI_TOKEN_KONTROL_ARALIGI": "1",
    "CANLI_KIMLIK_SURESI": "1",
    "WIDGET_RATE_LIMIT": "100000/min",
    "WEBHOOK_LOCAL_WORKER": "false",
    "CONN_MAX_AGE": "0",
    "LOG_LEVEL": "WARNING",
}


def ws_max_size() -> int:
    """`--ws-max-size` as the Makefile sets it for `make run` (WS_MAX_SIZE); the README's production
    command names the same figure, so the live server runs with what both run with."""
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    return int(re.search(r"^WS_MAX_SIZE \?= (\d+)$", makefile, re.MULTILINE).group(1))


def ws_ping() -> tuple[int, int]:
    """`--ws-ping-interval` and `--ws-ping-timeout` as the Makefile sets them (issue 39.6): the live
    server notices a silent client as `make run` and the Procfile's sockets do."""
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    return tuple(int(re.search(rf"^{ad} \?= (\d+)$", makefile, re.MULTILINE).group(1))
                 for ad in ("WS_PING_INTERVAL", "WS_PING_TIMEOUT"))


class CanliSunucu:
    """`veritabani_url`: another database than the test database (the embedded default's own SQLite
    file, with `REDIS_URL=""` in `ek_ortam`: `make run`'s topology). `ping`: `--ws-ping-interval` and
    `--ws-ping-timeout` in seconds instead of the Makefile's (a test of the keepalive's chain, scaled)."""

    def __init__(self, *, tmp: Path, ek_ortam: dict | None = None, veritabani_url: str | None = None,
                 ping: tuple[float, float] | None = None):
        db_url = veritabani_url or worker_veritabani_url()
        if db_url is None:
            pytest.skip("Canlı sunucu testleri paylaşılabilir bir PostgreSQL veritabanı ister (DATABASE_URL).")
        self.soket = socket.socket()
        self.soket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.soket.bind(("127.0.0.1", 0))
        self.soket.listen(128)
        self.port = self.soket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log = tmp / f"uvicorn-{self.port}.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings",
            "DATABASE_URL": db_url,
            **CANLI_AYARLARI,
            **(ek_ortam or {}),
        }
        aralik, zaman_asimi = ping or ws_ping()
        komut = [sys.executable, "-m", "uvicorn", "supportdesk.asgi:application", "--fd", str(self.soket.fileno()),
                 "--log-level", "warning", "--ws", "websockets-sansio", "--lifespan", "off",
                 "--ws-max-size", str(ws_max_size()),
                 "--ws-ping-interval", str(aralik), "--ws-ping-timeout", str(zaman_asimi)]
        with open(self.log, "wb") as cikti:
            self.proc = subprocess.Popen(komut, cwd=Path(settings.BASE_DIR), env=env, start_new_session=True,
                                         pass_fds=(self.soket.fileno(),), stdout=cikti, stderr=subprocess.STDOUT)
        bitis = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{self.url}/api/v1/yok", timeout=1).status_code == 404:
                    break
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > bitis:
                self.kapat()
                pytest.fail(f"uvicorn başlamadı:\n{self.log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)

    def oldur(self) -> None:
        """SIGKILL: the process dies without closing anything (presence must still expire)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.soket.close()

    def kapat(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.soket.close()


@pytest.fixture(scope="module")
def canli_sunucu(django_db_setup, django_db_blocker, tmp_path_factory):
    sunucu = CanliSunucu(tmp=tmp_path_factory.mktemp("canli"))
    yield sunucu
    sunucu.kapat()


@pytest.fixture
def canli_sunucu_baslat(django_db_setup, tmp_path_factory):
    """Start more servers in one test (two processes on one Redis; a dead Redis)."""
    sunucular = []

    def baslat(ping: tuple[float, float] | None = None, **ek_ortam) -> CanliSunucu:
        sunucu = CanliSunucu(tmp=tmp_path_factory.mktemp("canli"), ek_ortam=ek_ortam, ping=ping)
        sunucular.append(sunucu)
        return sunucu

    yield baslat
    for sunucu in sunucular:
        sunucu.kapat()
