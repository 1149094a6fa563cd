"""Rate limits (supportdesk/core/throttling.py): exact under concurrency, open when the store is dead."""
import threading

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from supportdesk.core import throttling
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"
LOGIN = "/api/v1/auth/login"
OLU_REDIS = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                         "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens on port 1


def test_concurrent_checks_never_pass_more_than_the_limit():
    izinler = []
    engel = threading.Barrier(40)

    def dene():
        engel.wait()
        izinler.append(throttling.pencere_kontrol("test:eszamanli", (30, 60))[0])

    threads = [threading.Thread(target=dene) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert izinler.count(True) == 30 and izinler.count(False) == 10


def test_refused_requests_are_not_counted_and_retry_after_is_given():
    assert throttling.pencere_kontrol("test:ret", (2, 60)) == (True, 0.0)
    assert throttling.pencere_kontrol("test:ret", (2, 60)) == (True, 0.0)
    for _ in range(5):
        izin, bekleme = throttling.pencere_kontrol("test:ret", (2, 60))
        assert izin is False and 1 <= bekleme <= 60


def test_widget_limit_over_http(musteri, settings):
    settings.WIDGET_RATE_LIMIT = "2/min"
    client = widget_client(musteri)
    for _ in range(2):
        assert client.post(INIT, {"ziyaretci_id": "z"}, format="json").status_code == 200
    res = client.post(INIT, {"ziyaretci_id": "z"}, format="json")
    hata(res, 429, "LIMIT_ASILDI")
    assert 1 <= int(res["Retry-After"]) <= 61  # the window left, rounded up


def test_a_dead_cache_lets_widget_calls_and_logins_through(musteri, settings):
    user = operator_yap(musteri)
    settings.WIDGET_RATE_LIMIT = settings.LOGIN_RATE_LIMIT = "1/min"
    onceki = throttling.acik_gecis_sayisi()
    with override_settings(CACHES=OLU_REDIS):
        client = widget_client(musteri)
        for _ in range(3):
            assert client.post(INIT, {"ziyaretci_id": "z"}, format="json").status_code == 200
        for _ in range(3):
            res = APIClient().post(LOGIN, {"email": user.email, "sifre": "yanlis"}, format="json")
            hata(res, 401, "GECERSIZ_GIRIS")
    assert throttling.acik_gecis_sayisi() > onceki
    assert APIClient().get("/api/v1/saglik").json()["data"]["hiz_siniri_acik_gecis"] == throttling.acik_gecis_sayisi()
