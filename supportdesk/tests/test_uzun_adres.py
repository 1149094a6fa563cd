"""An over-long address gets the API's envelope, not a server's HTML page (issue 13): through the
service's own check, and against a real gunicorn started as README says."""
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_uzun_sorgu_dizesi_zarfla_414(client):
    sinir = settings.ISTEK_ADRESI_SINIRI
    res = client.get("/api/v1/widget/kb/search", {"q": "a" * (sinir + 10)})
    assert res.status_code == 414 and res.json() == {
        "basarili": False, "hata": {"kod": "GECERSIZ_ISTEK", "mesaj": "İstek adresi çok uzun."}}
    # just under the limit the request goes on (here: no widget key, 401 in the envelope)
    res = client.get("/api/v1/widget/kb/search", {"q": "a" * (sinir - 100)})
    assert res.status_code == 401 and res.json()["hata"]["kod"] == "KIMLIK_GEREKLI"
    assert client.get("/portal/giris?x=" + "a" * (sinir + 10)).status_code == 414


def _iste(port: int, yol: str) -> tuple[int, str, bytes]:
    baglanti = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    baglanti.request("GET", yol, headers={"Host": "127.0.0.1"})
    yanit = baglanti.getresponse()
    return yanit.status, yanit.getheader("Content-Type", ""), yanit.read()


@pytest.mark.skipif(not shutil.which("gunicorn", path=os.path.dirname(sys.executable)), reason="gunicorn yok")
def test_gercek_gunicorn_uzun_adresi_zarfla_yanitlar(tmp_path):
    soket = socket.socket()
    soket.bind(("127.0.0.1", 0))  # an ephemeral port, handed to gunicorn as an open socket
    soket.listen(16)
    port = soket.getsockname()[1]
    ortam = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "REDIS_URL"}}
    ortam.update(DEBUG="false", SECRET_KEY="k" * 50, SECURE_SSL_REDIRECT="false", ALLOWED_HOSTS="127.0.0.1",
                 DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DJANGO_ENV_FILE=str(tmp_path / "yok.env"),
                 WEBHOOK_LOCAL_WORKER="false")
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    surec = subprocess.Popen([gunicorn, "supportdesk.wsgi", "--bind", f"fd://{soket.fileno()}", "--workers", "1"],
                             cwd=settings.BASE_DIR, env=ortam, pass_fds=[soket.fileno()],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                durum, _, _ = _iste(port, "/api/v1/yok")
                break
            except OSError:
                time.sleep(0.1)
        assert durum == 404
        for uzunluk in (9000, 20000):  # beyond gunicorn's default 4094 and even its maximum 8190
            durum, tur, govde = _iste(port, "/api/v1/widget/kb/search?q=" + "a" * uzunluk)
            assert (durum, tur) == (414, "application/json"), govde[:200]
            assert json.loads(govde)["hata"]["kod"] == "GECERSIZ_ISTEK"
    finally:
        surec.terminate()
        surec.wait(timeout=10)
        soket.close()
