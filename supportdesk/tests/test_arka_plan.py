"""Readiness and metrics tell the truth about background work (issue 37, CONTRACT 20).

`/api/v1/saglik/hazir` reports the broker (`kuyruk`) and the Celery workers seen in the last minute
(`isci`, `isciler`), always 200 for them; `/metrics` adds each queue's depth, the live workers, beat's
last run per job, the build (an info metric), and each process's CPU and memory. Made for real: a
worker started with the Procfile's command, a broker on a closed port, messages in a queue no
worker reads. The tests with processes use a Redis database of their own (ARKA_PLAN_REDIS_DB,
default 12), so no worker of theirs takes another test's tasks.
"""
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
import requests
from django.conf import settings
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from ops.supervisor import procfile
from supportdesk.celery import app as celery_app
from supportdesk.core import arka_plan
from supportdesk.testing.sunucu import gunicorn_sureci, kapali_port, surec_ortami

pytestmark = pytest.mark.django_db

HAZIR = "/api/v1/saglik/hazir"
TOKEN = "arka-plan-" + "x" * 30


def ornekler(metin: str) -> dict:
    return {(o.name, frozenset(o.labels.items())): o.value
            for aile in text_string_to_metric_families(metin) for o in aile.samples}


def _ayri_redis() -> str:
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("Kuyruk ve işçi testleri Redis ister (REDIS_URL; CI her zaman verir).")
    return urlunsplit(urlsplit(redis_url)._replace(path="/" + os.environ.get("ARKA_PLAN_REDIS_DB", "12")))


@pytest.fixture
def ayri_redis():
    url = _ayri_redis()
    istemci = redis.Redis.from_url(url)
    istemci.flushdb()
    yield url, istemci
    istemci.flushdb()


def test_broker_down_is_still_ready_and_says_so(settings):
    settings.METRICS_TOKEN = TOKEN
    if celery_app.conf.task_always_eager:
        pytest.skip("Bu test bir Redis broker'ı ister (REDIS_URL).")
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{kapali_port()}/0"):
        res = APIClient().get(HAZIR)
        assert res.status_code == 200, res.content
        data = res.json()["data"]
        assert (data["kuyruk"], data["isci"], data["isciler"]) == ("erisilemiyor", "bilinmiyor", None), data
        # The scrape still answers, without the families it could not read.
        res = Client(HTTP_AUTHORIZATION=f"Bearer {TOKEN}").get("/metrics")
        assert res.status_code == 200, res.content[:300]
        orn = ornekler(res.content.decode())
    assert ("supportdesk_build_info", frozenset({("version", settings.SPECTACULAR_SETTINGS["VERSION"]),
                                                  ("revision", "")})) in orn, sorted(orn)
    assert not any(ad == "supportdesk_celery_workers" for ad, _ in orn)


def test_without_a_broker_the_work_is_local():
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # `make run`: no broker, the web process's runner works
    try:
        res = APIClient().get(HAZIR)
    finally:
        celery_app.conf.task_always_eager = onceki
    assert res.status_code == 200, res.content
    data = res.json()["data"]
    assert (data["kuyruk"], data["isci"], data["isciler"]) == ("yerel", "yerel", None), data


def test_queue_depth_counts_what_no_worker_has_taken(settings, ayri_redis):
    url, istemci = ayri_redis
    settings.METRICS_TOKEN = TOKEN
    if celery_app.conf.task_always_eager:
        pytest.skip("Bu test bir Redis broker'ı ister (REDIS_URL).")
    with celery_app.connection_for_write(url) as baglanti:
        for oncelik in (None, None, 9):
            celery_app.send_task("dosyalar.sahipsiz_dosyalari_temizle", connection=baglanti, priority=oncelik)
    with override_settings(CELERY_BROKER_URL=url):
        res = Client(HTTP_AUTHORIZATION=f"Bearer {TOKEN}").get("/metrics")
    assert res.status_code == 200, res.content[:300]
    orn = ornekler(res.content.decode())
    assert orn[("supportdesk_celery_queue_length", frozenset({("queue", "celery")}))] == 3, sorted(orn)
    assert orn[("supportdesk_celery_workers", frozenset())] == 0


@pytest.mark.django_db(transaction=True)
def test_a_procfile_worker_is_seen_by_readiness_and_metrics(tmp_path, ayri_redis):
    url, istemci = ayri_redis
    klasor = tmp_path / "prom"
    ortam = surec_ortami(REDIS_URL=url, PROMETHEUS_MULTIPROC_DIR=str(klasor), METRICS_TOKEN=TOKEN,
                         SENTRY_RELEASE="abc123", CELERY_CONCURRENCY="1",
                         CELERY_HOSTNAME=f"arka-plan-{uuid.uuid4().hex[:6]}@%h",
                         PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    # A worker seen two minutes ago (gone since) is not counted.
    arka_plan_ad = "eski@makine"
    istemci.zadd(arka_plan.ISCILER_ANAHTARI, {arka_plan_ad: time.time() - 120})
    with gunicorn_sureci(ortam, tmp_path / "gunicorn.log") as adres:
        data = requests.get(f"{adres}{HAZIR}", timeout=10).json()["data"]
        assert (data["kuyruk"], data["isci"], data["isciler"]) == ("ok", "gorulmedi", 0), data

        log = tmp_path / "worker.log"
        worker = subprocess.Popen(["sh", "-c", "exec " + procfile()["worker"]], cwd=settings.BASE_DIR, env=ortam,
                                  stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        try:
            bitis = time.monotonic() + 60
            while (data := requests.get(f"{adres}{HAZIR}", timeout=10).json()["data"])["isci"] != "ok":
                assert worker.poll() is None and time.monotonic() < bitis, (data, log.read_text(errors="replace")[-3000:])
                time.sleep(0.3)
            assert data["isciler"] == 1 and data["kuyruk"] == "ok", data

            res = requests.get(f"{adres}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
            assert res.status_code == 200, res.text[:300]
            orn = ornekler(res.text)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
    assert orn[("supportdesk_celery_workers", frozenset())] == 1, sorted(orn)
    assert ("supportdesk_celery_queue_length", frozenset({("queue", "celery")})) in orn
    assert ("supportdesk_build_info", frozenset({("version", settings.SPECTACULAR_SETTINGS["VERSION"]),
                                                  ("revision", "abc123")})) in orn
    # Multiprocess mode: CPU and memory per live process, labelled with its pid.
    cpu = [(etiket, v) for (ad, etiket), v in orn.items() if ad == "supportdesk_process_cpu_seconds"]
    bellek = [v for (ad, _), v in orn.items() if ad == "supportdesk_process_resident_memory_bytes"]
    assert cpu and all(dict(etiket).get("pid") for etiket, _ in cpu) and all(v > 0 for _, v in cpu), cpu
    assert bellek and all(v > 10_000_000 for v in bellek), bellek
