"""Real server processes for tests: `gunicorn_sureci(...)` starts gunicorn on an ephemeral port
(bound to port 0; the port is read from its log) on the test database and Redis.

Tests using it must be `django_db(transaction=True)` (the server is another process and only
sees committed rows), and are skipped, with the reason, without REDIS_URL and PostgreSQL (CI
always has both), like the Celery worker fixture.
"""
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from django.conf import settings

from .celery_worker import worker_veritabani_url

_SECICI = random.SystemRandom()
_ALT = 10_000  # below it: the well-known and registered ports a machine's own services tend to use


def _gecici_aralik() -> tuple[int, int]:
    """The kernel's ephemeral range: the local ports it gives outgoing connections and port-0 binds."""
    try:
        alt, ust = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        alt, ust = 32768, 60999
    return alt, ust


def _bos_mu(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def bos_port(*ekler: int) -> int:
    """A loopback port that nobody holds, with `port + e` for each of `ekler` free too, for a server
    another process binds later. Chosen below the kernel's ephemeral range: a port from that range
    (bound to 0, then released) can be taken meanwhile as the local port of any outgoing connection
    (a test's database or Redis connection, a browser's request) and the server's bind then fails
    (a clean-clone CI run: `make prod`'s second socket process met `[Errno 98] address already in use`).
    Another test's choice is the only rival left; a random pick keeps two of them apart."""
    alt, _ = _gecici_aralik()
    ust = alt - max(ekler, default=0) - 1
    if ust > _ALT + 1000:
        for _ in range(200):
            port = _SECICI.randrange(_ALT, ust)
            if all(_bos_mu(port + e) for e in (0, *ekler)):
                return port
    for _ in range(50):  # a machine whose ephemeral range leaves no room below it
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if all(_bos_mu(port + e) for e in ekler):
            return port
    raise RuntimeError("Boş bir port bulunamadı")


def kapali_port() -> int:
    """A loopback port nobody listens on now (`bos_port`): a server to start there, or an address
    that refuses connections."""
    return bos_port()


def psql(db_url: str, sql: str) -> None:
    """One statement outside any transaction (CREATE/DROP DATABASE) on a real PostgreSQL."""
    import psycopg  # only the PostgreSQL-only tests call this

    with psycopg.connect(db_url, autocommit=True) as baglanti:
        baglanti.execute(sql)


def http_cagri(yontem: str, url: str, beklenen: int, **kw):
    """A real HTTP call to a server process; asserts the status, returns the envelope's `data`
    (or the response itself when it is not JSON)."""
    res = requests.request(yontem, url, timeout=15, **kw)
    assert res.status_code == beklenen, (url, res.status_code, res.text)
    return res.json()["data"] if res.headers.get("Content-Type", "").startswith("application/json") else res


def surec_ortami(**ayarlar: str) -> dict:
    """The environment of a subprocess on the test database and Redis (skips the test without them)."""
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("Gerçek sunucu süreçleriyle testler REDIS_URL ister (CI her zaman verir).")
    db_url = worker_veritabani_url()
    if db_url is None:
        pytest.skip("Gerçek sunucu süreçleriyle testler paylaşılabilir bir PostgreSQL veritabanı ister (DATABASE_URL).")
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", "DATABASE_URL": db_url,
            "REDIS_URL": redis_url, "CELERY_TASK_ALWAYS_EAGER": "false", **ayarlar}


@contextmanager
def gunicorn_sureci(ortam: dict, log: Path, *, thread: int = 8, isci: int = 1):
    """Yields the server's base URL (`http://127.0.0.1:PORT`); stops it afterwards."""
    komut = [sys.executable, "-m", "gunicorn", "-b", "127.0.0.1:0", "-w", str(isci), "-k", "gthread", "--threads", str(thread),
             "--no-control-socket", "--error-logfile", str(log), "supportdesk.wsgi"]
    proc = subprocess.Popen(komut, cwd=Path(settings.BASE_DIR), env=ortam, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        bitis = time.monotonic() + 30
        while True:
            icerik = log.read_text(errors="replace") if log.exists() else ""
            bulunan = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", icerik)
            if bulunan and "Booting worker" in icerik:
                break
            if proc.poll() is not None or time.monotonic() > bitis:
                pytest.fail(f"gunicorn başlamadı (çıkış {proc.poll()}):\n{icerik[-3000:]}")
            time.sleep(0.1)
        # "Booting worker" comes before the worker imports the application: on a busy machine that
        # takes longer than a test's request timeout. Any answer (whatever its status) says it is up.
        bitis = time.monotonic() + 90
        while True:
            try:
                requests.get(f"{bulunan.group(1)}/__isinma__", timeout=30)  # counted under no route a test reads
                break
            except requests.RequestException:
                if proc.poll() is not None or time.monotonic() > bitis:
                    pytest.fail(f"gunicorn yanıt vermedi (çıkış {proc.poll()}):\n{log.read_text(errors='replace')[-3000:]}")
                time.sleep(0.2)
        yield bulunan.group(1)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
