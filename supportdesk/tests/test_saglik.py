"""Liveness and readiness (CONTRACT 20): `/saglik/canli` asks nothing, `/saglik/hazir` asks the
database and the migrations and only reports Redis. Each failure is made for real: a cache on a
closed port, a database connection to a closed port, a migration the database never applied."""
import subprocess
import sys

import pytest
import requests
from django.conf import settings
from django.db import connection
from django.test import override_settings
from redis.backoff import NoBackoff
from redis.retry import Retry
from rest_framework.test import APIClient

from supportdesk.testing.sunucu import gunicorn_sureci, kapali_port, surec_ortami

pytestmark = pytest.mark.django_db

CANLI, HAZIR, SAGLIK = "/api/v1/saglik/canli", "/api/v1/saglik/hazir", "/api/v1/saglik"


def olu_redis_onbellegi() -> dict:
    return {"default": {
        "BACKEND": "supportdesk.core.onbellek.RedisOnbellek",
        "LOCATION": f"redis://127.0.0.1:{kapali_port()}/0",
        "OPTIONS": {"retry": Retry(NoBackoff(), 0), "socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }}


def test_canli_and_hazir_answer_200_in_the_envelope():
    api = APIClient()
    res = api.get(CANLI)
    assert res.status_code == 200, res.content
    assert res.json() == {"basarili": True, "data": {"durum": "ok"}}
    res = api.get(HAZIR)
    assert res.status_code == 200, res.content
    assert res.json()["basarili"] is True, res.content
    assert res.json()["data"].items() >= {"veritabani": "ok", "gocler": "ok", "onbellek": "ok"}.items(), res.content


def test_redis_down_degrades_readiness_but_does_not_stop_it():
    with override_settings(CACHES=olu_redis_onbellegi()):
        res = APIClient().get(HAZIR)
        assert res.status_code == 200, res.content
        assert res.json()["data"].items() >= {"veritabani": "ok", "gocler": "ok", "onbellek": "erisilemiyor"}.items()
        assert APIClient().get(CANLI).status_code == 200


def test_a_pending_migration_makes_readiness_503():
    # `core` has no migrations of its own; here it gets one the database never applied, as after
    # a deploy whose `migrate` has not run yet.
    with override_settings(MIGRATION_MODULES={"core": "supportdesk.tests.goc_eksik"}):
        res = APIClient().get(HAZIR)
    assert res.status_code == 503, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == "SERVIS_KULLANILAMIYOR", body
    assert body["hata"]["alanlar"].items() >= {"veritabani": "ok", "gocler": "eksik", "onbellek": "ok"}.items(), body
    assert APIClient().get(CANLI).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_database_down_makes_readiness_503_and_liveness_stays_200():
    if connection.vendor != "postgresql":
        pytest.skip("Veritabanını kapalı bir porta yöneltmek bir sunucu veritabanı ister (CI'da PostgreSQL).")
    eski = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(kapali_port()))
    try:
        api = APIClient()
        assert api.get(CANLI).status_code == 200
        res = api.get(HAZIR)
        assert res.status_code == 503, res.content
        body = res.json()
        assert body["hata"]["kod"] == "SERVIS_KULLANILAMIYOR", body
        assert body["hata"]["alanlar"]["veritabani"] == "hata", body
        assert "istek_id" in body["hata"], body
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(eski)
    assert APIClient().get(HAZIR).status_code == 200


def test_saglik_keeps_its_meaning():
    data = APIClient().get(SAGLIK).json()["data"]
    assert set(data) == {"veritabani", "kuyruk", "hiz_siniri_acik_gecis", "onbellek"}, data


def test_the_containers_probe_passes_a_production_server_and_fails_a_closed_port(tmp_path):
    # ops/saglik.py is every container's health check (Dockerfile, compose): run it as they do,
    # against a server with production's checks on (DEBUG off: only ALLOWED_HOSTS, and http is
    # redirected to https unless the proxy says https).
    ortam = surec_ortami(DEBUG="false", SECRET_KEY="saglik-probu-" + "x" * 40, ALLOWED_HOSTS="destek.example.com")
    prob = [sys.executable, str(settings.BASE_DIR / "ops" / "saglik.py")]
    with gunicorn_sureci(ortam, tmp_path / "gunicorn.log") as adres:
        # What the probe must get past: an unknown Host is 400, plain http a redirect.
        assert requests.get(f"{adres}/api/v1/saglik/canli", allow_redirects=False, timeout=5).status_code == 400
        assert requests.get(f"{adres}/api/v1/saglik/canli", headers={"Host": "destek.example.com"},
                            allow_redirects=False, timeout=5).status_code == 301
        tamam = subprocess.run([*prob, f"{adres}/api/v1/saglik/canli"], env=ortam, capture_output=True, timeout=30)
        assert tamam.returncode == 0, tamam.stderr
    kapali = subprocess.run([*prob, f"http://127.0.0.1:{kapali_port()}/api/v1/saglik/canli"], env=ortam,
                            capture_output=True, timeout=30)
    assert kapali.returncode == 1 and b"saglik/canli" in kapali.stderr
