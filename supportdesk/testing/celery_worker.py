"""Fixture `celery_worker_sureci`: a real Celery worker (with embedded beat) as a subprocess,
on the test database and Redis, started once per test module.

Tests using it must be `django_db(transaction=True)`: the worker is another process and only
sees committed rows. Its webhook timings are short (WORKER_AYARLARI; a test module may change
some with a module-level `WORKER_EK_AYARLARI` dict). Skipped, with the
reason, when REDIS_URL is unset or the database is not PostgreSQL (a SQLite test database
lives in the test process's memory). CI always sets both.
"""
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.conf import settings

# Short timings so the suite stays fast; the production defaults are in settings.py.
WORKER_AYARLARI = {
    "WEBHOOK_TIMEOUT_SECONDS": "1",
    "WEBHOOK_MAX_ATTEMPTS": "4",
    "WEBHOOK_BACKOFF_BASE_SECONDS": "0.2",
    "WEBHOOK_BACKOFF_FACTOR": "2",
    "WEBHOOK_BACKOFF_MAX_SECONDS": "1",
    "WEBHOOK_BACKOFF_JITTER": "0.1",
    "WEBHOOK_SWEEP_INTERVAL_SECONDS": "0.5",
    "WEBHOOK_SWEEP_GRACE_SECONDS": "1",
}


def worker_veritabani_url() -> str | None:
    from django.db import connection

    d = connection.settings_dict
    if d["ENGINE"] != "django.db.backends.postgresql":
        return None
    kimlik = quote(d.get("USER") or "", safe="")
    if d.get("PASSWORD"):
        kimlik += ":" + quote(d["PASSWORD"], safe="")
    return f"postgres://{kimlik}@{d.get('HOST') or '127.0.0.1'}:{d.get('PORT') or 5432}/{d['NAME']}"


@pytest.fixture(scope="module")
def celery_worker_sureci(request, django_db_setup, tmp_path_factory):
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("Gerçek Celery worker testleri REDIS_URL ister (CI her zaman verir).")
    db_url = worker_veritabani_url()
    if db_url is None:
        pytest.skip("Gerçek Celery worker testleri paylaşılabilir bir PostgreSQL veritabanı ister (DATABASE_URL).")
    tmp = tmp_path_factory.mktemp("celery")
    beat_oneki = f"redbeat-test-{uuid.uuid4().hex[:8]}:"
    log = tmp / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings",
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
        # Its embedded beat keeps its schedule in a file (-s), not in Redis as production's redbeat
        # does (supportdesk/tests/test_beat.py tests that one, on a Redis database of its own):
        # every test's cache.clear() empties the shared Redis database, the redbeat lock with it,
        # and that beat would stop at its next tick. The prefix stays for a module asking redbeat.
        "BEAT_DOSYADA": "true",
        "BEAT_ANAHTAR_ONEKI": beat_oneki,
        **WORKER_AYARLARI,
        **getattr(request.module, "WORKER_EK_AYARLARI", {}),
    }
    komut = [
        sys.executable, "-m", "celery", "-A", "supportdesk", "worker", "-B", "-s", str(tmp / "beat-schedule"),
        "-P", "threads", "-c", "4", "--purge", "-l", "info", "-f", str(log),
        "--without-mingle", "--without-gossip", "--without-heartbeat", "-n", f"test-{uuid.uuid4().hex[:8]}@%h",
    ]
    proc = subprocess.Popen(komut, cwd=Path(settings.BASE_DIR), env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        bitis = time.monotonic() + 30
        while not (log.exists() and " ready." in log.read_text(errors="replace")):
            if proc.poll() is not None or time.monotonic() > bitis:
                icerik = log.read_text(errors="replace") if log.exists() else ""
                pytest.fail(f"Celery worker başlamadı (çıkış {proc.poll()}):\n{icerik[-3000:]}")
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        _beat_anahtarlarini_sil(redis_url, beat_oneki)


def _beat_anahtarlarini_sil(redis_url: str, oneki: str) -> None:
    istemci = redis.Redis.from_url(redis_url)
    anahtarlar = list(istemci.scan_iter(match=oneki + "*"))
    if anahtarlar:
        istemci.delete(*anahtarlar)
