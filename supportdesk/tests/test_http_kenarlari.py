"""HTTP at the edges, on the real servers of production (gunicorn with ./gunicorn.conf.py for REST)
and of `make run` (uvicorn): bodies sent in chunks, and what gunicorn answers itself.
PostgreSQL and Redis (skipped without them; CI has both)."""
import json
import socket
from urllib.parse import urlsplit

import pytest
import requests
from django.conf import settings

from dosyalar.tests.yardimci import png_bayt
from dosyalar.yukleme import EN_BUYUK_BOYUT, MULTIPART_PAYI
from supportdesk.testing.canli_sunucu import CanliSunucu
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.sunucu import gunicorn_sureci, surec_ortami

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def sunucular(tmp_path_factory, django_db_setup, django_db_blocker):
    """The same code behind gunicorn (production's REST) and uvicorn (`make run`)."""
    with django_db_blocker.unblock():
        ortam = surec_ortami(WIDGET_RATE_LIMIT="100000/min", LOGIN_RATE_LIMIT="100000/min")
    tmp = tmp_path_factory.mktemp("kenar")
    uvicorn = CanliSunucu(tmp=tmp)
    try:
        with gunicorn_sureci(ortam, tmp / "gunicorn.log") as gunicorn:
            yield {"gunicorn": gunicorn, "uvicorn": uvicorn.url}
    finally:
        uvicorn.kapat()


def parcali(veri: bytes, boyut: int = 1000):
    """A body `requests` sends with `Transfer-Encoding: chunked` (a generator has no length)."""
    def uret():
        for i in range(0, len(veri), boyut):
            yield veri[i:i + boyut]
    return uret()


def zarf(yanit, status, kod):
    assert yanit.status_code == status, (yanit.status_code, yanit.text[:300])
    assert yanit.headers["Content-Type"].startswith("application/json"), yanit.headers
    govde = yanit.json()
    assert govde["basarili"] is False and govde["hata"]["kod"] == kod and govde["hata"]["mesaj"], govde
    return govde


@pytest.mark.parametrize("sunucu", ["gunicorn", "uvicorn"])
def test_chunked_json_bodies_are_read_like_any_other(sunucular, sunucu):
    adres = sunucular[sunucu]
    musteri = MusteriFactory()
    user = operator_yap(musteri)
    giris = json.dumps({"email": user.email, "sifre": TEST_SIFRE}).encode()
    yanit = requests.post(adres + "/api/v1/auth/login", data=parcali(giris, 7),
                          headers={"Content-Type": "application/json"}, timeout=30)
    assert yanit.status_code == 200, yanit.text
    assert yanit.request.headers.get("Transfer-Encoding") == "chunked" and "Content-Length" not in yanit.request.headers
    assert yanit.json()["data"]["token"]

    yanit = requests.post(adres + "/api/v1/widget/init", data=parcali(b'{"ziyaretci_id": "z-parcali"}', 5),
                          headers={"Content-Type": "application/json", "X-API-Key": musteri.api_key}, timeout=30)
    assert yanit.status_code == 200, yanit.text
    assert yanit.json()["data"]["ziyaretci_id"] == "z-parcali"
    # Bad JSON in chunks is still the ordinary 400.
    yanit = requests.post(adres + "/api/v1/widget/init", data=parcali(b'{"ziyaretci_id": ', 3),
                          headers={"Content-Type": "application/json", "X-API-Key": musteri.api_key}, timeout=30)
    zarf(yanit, 400, "GECERSIZ_ISTEK")


@pytest.mark.parametrize("sunucu", ["gunicorn", "uvicorn"])
def test_chunked_uploads_are_stored_or_refused_by_size(sunucular, sunucu):
    adres = sunucular[sunucu]
    musteri = MusteriFactory()
    basliklar = {"X-API-Key": musteri.api_key}
    hazir = requests.Request("POST", adres + "/api/v1/widget/upload", headers=basliklar,
                             data={"ziyaretci_id": "z-yukle"}, files={"dosya": ("a.png", png_bayt(), "image/png")}).prepare()
    yanit = requests.post(adres + "/api/v1/widget/upload", data=parcali(hazir.body, 4096),
                          headers={**basliklar, "Content-Type": hazir.headers["Content-Type"]}, timeout=30)
    assert yanit.status_code == 201, yanit.text
    assert yanit.json()["data"]["dosya"]["id"]

    buyuk = b"\x89PNG\r\n\x1a\n" + b"\0" * (EN_BUYUK_BOYUT + MULTIPART_PAYI + 1024)
    hazir = requests.Request("POST", adres + "/api/v1/widget/upload", headers=basliklar,
                             data={"ziyaretci_id": "z-yukle"}, files={"dosya": ("b.png", buyuk, "image/png")}).prepare()
    yanit = requests.post(adres + "/api/v1/widget/upload", data=parcali(hazir.body, 256 * 1024),
                          headers={**basliklar, "Content-Type": hazir.headers["Content-Type"]}, timeout=60)
    zarf(yanit, 413, "DOSYA_COK_BUYUK")


def test_a_chunked_json_body_over_the_limit_is_413(sunucular):
    musteri = MusteriFactory()
    govde = b'{"ziyaretci_id": "z", "x": "' + b"a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10) + b'"}'
    yanit = requests.post(sunucular["gunicorn"] + "/api/v1/widget/init", data=parcali(govde, 512 * 1024),
                          headers={"Content-Type": "application/json", "X-API-Key": musteri.api_key}, timeout=60)
    zarf(yanit, 413, "DOSYA_COK_BUYUK")


def test_the_chunked_body_limit_covers_every_endpoints_limit():
    assert settings.PARCALI_GOVDE_SINIRI >= max(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, EN_BUYUK_BOYUT + MULTIPART_PAYI)


def _ham(adres: str, istek: bytes) -> tuple[int, dict, bytes]:
    """Send bytes as they are (no client library would send a broken request) and read the answer."""
    parca = urlsplit(adres)
    with socket.create_connection((parca.hostname, parca.port), timeout=10) as s:
        s.sendall(istek)
        veri = b""
        while chunk := s.recv(65536):
            veri += chunk
    bas, _, govde = veri.partition(b"\r\n\r\n")
    satirlar = bas.decode("latin-1").split("\r\n")
    basliklar = {k.lower(): v.strip() for k, _, v in (s.partition(":") for s in satirlar[1:])}
    return int(satirlar[0].split()[1]), basliklar, govde


@pytest.mark.parametrize(("istek", "status"), [
    (b"GET /api/v1/saglik HTTP/1.1\r\nHost: x\r\nX-Ziyaretci-Token: " + b"a" * 9000 + b"\r\n\r\n", 431),
    (b"GET /api/v1/saglik HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-B%d: 1\r\n" % i for i in range(120)) + b"\r\n", 431),
    (b"GET /api/v1/saglik HTTP/1.1\r\nHost: x\r\nX-Request-ID: a\x01b\r\n\r\n", 400),
    (b"GET /api/v1/saglik HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
    (b"BOZUK\r\n\r\n", 400),
])
def test_what_gunicorn_answers_itself_is_in_the_envelope(sunucular, istek, status):
    kod, basliklar, govde = _ham(sunucular["gunicorn"], istek)
    assert kod == status, (kod, govde[:200])
    assert basliklar["content-type"] == "application/json" and int(basliklar["content-length"]) == len(govde)
    veri = json.loads(govde)
    assert veri["basarili"] is False and veri["hata"]["kod"] == "GECERSIZ_ISTEK" and veri["hata"]["mesaj"]
    # And the server goes on answering.
    assert requests.get(sunucular["gunicorn"] + "/api/v1/saglik", timeout=10).status_code == 200
