"""The tenant-by-key cache across processes (issue 12): two real gunicorn processes hold the tenant
in their memory after a first call; a change committed elsewhere (here: this test process, as the
portal or the admin would) is seen by both on their very next request, because every widget
request reads the cache's generation in the same Redis round trip as its rate limit.
Skipped without PostgreSQL and Redis (CI has both)."""
import secrets

import pytest
import requests

from supportdesk.testing.sunucu import gunicorn_sureci, surec_ortami
from tenants.models import Musteri

pytestmark = pytest.mark.django_db(transaction=True)
INIT = "/api/v1/widget/init"


@pytest.fixture(scope="module")
def sunucular(tmp_path_factory, django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        ortam = surec_ortami(WIDGET_RATE_LIMIT="100000/min")
    tmp = tmp_path_factory.mktemp("gunicorn-onbellek")
    with gunicorn_sureci(ortam, tmp / "a.log", thread=2) as a, gunicorn_sureci(ortam, tmp / "b.log", thread=2) as b:
        yield a, b


def init(adres, api_key, **basliklar):
    return requests.post(adres + INIT, json={"ziyaretci_id": "z-1"},
                         headers={"X-API-Key": api_key, **basliklar}, timeout=30)


def isit(sunucular, musteri):
    # A few calls each, so every thread of both processes has read the tenant and keeps it.
    for adres in sunucular:
        for _ in range(4):
            assert init(adres, musteri.api_key).status_code == 200


def test_key_rotation_reaches_every_process_at_once(sunucular, musteri):
    isit(sunucular, musteri)
    eski = musteri.api_key
    musteri.api_key = "pk_" + secrets.token_hex(16)
    musteri.save()
    for adres in sunucular:
        r = init(adres, eski)
        assert r.status_code == 401 and r.json()["hata"]["kod"] == "GECERSIZ_API_ANAHTARI"
        assert init(adres, musteri.api_key).status_code == 200


def test_deactivation_reaches_every_process_at_once(sunucular, musteri):
    isit(sunucular, musteri)
    musteri.aktif = False
    musteri.save()
    for adres in sunucular:
        assert init(adres, musteri.api_key).status_code == 401


def test_origin_change_reaches_every_process_at_once(sunucular, musteri):
    isit(sunucular, musteri)
    musteri.izinli_originler = ["https://shop.example.com"]
    musteri.save()
    for adres in sunucular:
        r = init(adres, musteri.api_key, Origin="https://evil.example")
        assert r.status_code == 403 and r.json()["hata"]["kod"] == "ORIGIN_IZINSIZ"
        assert init(adres, musteri.api_key, Origin="https://shop.example.com").status_code == 200


def customer_info(adres, musteri):
    return requests.post(adres + "/api/v1/context/customer-info", json={"ziyaretci_id": "z-1", "ad": "Ayşe"},
                         headers={"X-API-Key": musteri.api_key}, timeout=30)


def test_identity_switch_reaches_every_process_at_once(sunucular, musteri):
    isit(sunucular, musteri)
    for adres in sunucular:
        assert customer_info(adres, musteri).status_code == 200
    musteri.kimlik_dogrulama_zorunlu = True
    musteri.save()
    for adres in sunucular:
        # A visitor naming itself without a signature is refused once identity is required.
        r = customer_info(adres, musteri)
        assert r.status_code == 401 and r.json()["hata"]["kod"] == "IMZA_GEREKLI", r.text
    assert Musteri.objects.get(pk=musteri.pk).kimlik_dogrulama_zorunlu
