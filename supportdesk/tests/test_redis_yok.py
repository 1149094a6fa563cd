"""Issue 13: Redis down must not take the public API down.

A real server process runs against a closed Redis port (cache, rate limits and the Celery broker
all pointing at it) and the public calls answer normally and quickly: the rate limit fails open,
the caches are skipped, and publishing a webhook delivery gives up fast (the outbox keeps it).
"""
import os
import subprocess
import sys
import time

import pytest
import requests
from django.conf import settings
from django.db import connection

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Teslimat

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # The server process must reach the test database: a file or a server, not SQLite in memory.
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs the PostgreSQL test database"),
]
OLU_REDIS = "redis://127.0.0.1:1/0"
HIZLI = 3.0  # seconds: a dead Redis may cost a refused connection, never a hang

SUNUCU = """
import sys, django
from wsgiref.simple_server import WSGIRequestHandler, make_server
django.setup()
from django.core.wsgi import get_wsgi_application
class Sessiz(WSGIRequestHandler):
    def log_message(self, *args):
        pass
httpd = make_server("127.0.0.1", 0, get_wsgi_application(), handler_class=Sessiz)
print(httpd.server_port, flush=True)
httpd.serve_forever()
"""


@pytest.fixture
def sunucu(tmp_path):
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings",
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": OLU_REDIS,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "WEBHOOK_LOCAL_WORKER": "false",
        "CONN_MAX_AGE": "0",
    }
    # The server's log goes to a file: every call logs the dead Redis with a traceback, and an
    # unread pipe fills up and blocks the server mid-request.
    gunluk = open(tmp_path / "sunucu.log", "w+")
    surec = subprocess.Popen([sys.executable, "-c", SUNUCU], cwd=settings.BASE_DIR, env=env,
                             stdout=subprocess.PIPE, stderr=gunluk, text=True)
    try:
        satir = surec.stdout.readline().strip()
        assert satir.isdigit(), (tmp_path / "sunucu.log").read_text()
        yield f"http://127.0.0.1:{satir}"
    finally:
        surec.terminate()
        surec.wait(10)
        surec.stdout.close()
        gunluk.close()


def _zamanla(istek):
    bas = time.monotonic()
    res = istek()
    return res, time.monotonic() - bas


def test_public_calls_answer_normally_with_redis_down(sunucu):
    musteri = MusteriFactory()
    webhook_endpoint_olustur(musteri=musteri, url="http://127.0.0.1:9/hook")  # events must be published
    user = operator_yap(musteri)
    api = requests.Session()
    api.headers["X-API-Key"] = musteri.api_key
    v1 = f"{sunucu}/api/v1"
    cagrilar = {
        "widget/init": lambda: api.post(f"{v1}/widget/init", json={"ziyaretci_id": "z_" + "1" * 32, "token_iste": True}),
        "chat/start": lambda: api.post(f"{v1}/widget/chat/start", json={"ziyaretci_id": "z-2", "mesaj": "Merhaba"}),
        "ticket/create": lambda: api.post(f"{v1}/widget/ticket/create",
                                          json={"ziyaretci_id": "z-2", "konu": "Fatura", "mesaj": "Yardım"}),
        "customer-info": lambda: api.post(f"{v1}/context/customer-info", json={"ziyaretci_id": "z-2", "paket": "Pro"}),
        "auth/login": lambda: requests.post(f"{v1}/auth/login", json={"email": user.email, "sifre": TEST_SIFRE}),
    }
    beklenen = {"widget/init": 200, "chat/start": 201, "ticket/create": 201, "customer-info": 200, "auth/login": 200}
    for ad, istek in cagrilar.items():
        res, sure = _zamanla(istek)
        assert res.status_code == beklenen[ad], (ad, res.status_code, res.text)
        assert res.json()["basarili"] is True, (ad, res.text)
        assert sure < HIZLI, (ad, sure)
    # The deliveries of yeni_chat and yeni_ticket wait in the outbox for the sweep.
    assert Teslimat.objects.filter(musteri=musteri, durum=Teslimat.Durum.BEKLIYOR).count() == 2

    portal = requests.Session()
    portal.get(f"{sunucu}/portal/giris")
    res, sure = _zamanla(lambda: portal.post(
        f"{sunucu}/portal/giris", data={"email": user.email, "sifre": TEST_SIFRE,
                                        "csrfmiddlewaretoken": portal.cookies["csrftoken"]},
        headers={"Referer": f"{sunucu}/portal/giris"}, allow_redirects=False))
    assert res.status_code == 302 and res.headers["Location"] == "/portal/", (res.status_code, res.text[:500])
    assert sure < HIZLI, sure
    assert portal.get(f"{sunucu}/portal/").status_code == 200
    # The health check tells: the broker is down (503), the cache unreachable, and the rate
    # limiter let calls through unchecked.
    res, sure = _zamanla(lambda: requests.get(f"{v1}/saglik"))
    assert res.status_code == 503 and sure < HIZLI, (res.status_code, sure)
    saglik = res.json()["hata"]["alanlar"]
    assert saglik["kuyruk"] == "hata" and saglik["onbellek"] == "erisilemiyor", saglik
    assert saglik["hiz_siniri_acik_gecis"] > 0, saglik
