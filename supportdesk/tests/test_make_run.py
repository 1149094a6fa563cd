"""What `make run` starts (issue 24), read from make's own dry run: the port given (`PORT=8100 make
run`) is the one mails link to (SITE_URL, for mails sent outside a request), the reloader watches
the project's folders only (not .venv) through watchfiles, and the socket frame limit is set."""
import importlib.util
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

KOK = Path(settings.BASE_DIR)
pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="make yok")


def _uvicorn_komutu(*degiskenler: str, ortam: dict | None = None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "HOST", "PORT"}} | (ortam or {})
    calis = subprocess.run(["make", "-n", "run", *degiskenler], cwd=KOK, env=env, capture_output=True, text=True,
                           timeout=60)
    assert calis.returncode == 0, calis.stderr
    satirlar = calis.stdout.replace("\\\n", " ").splitlines()
    [satir] = [s for s in satirlar if "uvicorn supportdesk.asgi:application" in s]
    return shlex.split(satir)


def test_port_verilince_site_url_o_porta_isaret_eder():
    komut = _uvicorn_komutu("PORT=8123")
    assert "SITE_URL=http://127.0.0.1:8123" in komut
    assert komut[komut.index("--port") + 1] == "8123"
    assert "SITE_URL=http://10.0.0.5:9000" in _uvicorn_komutu("HOST=10.0.0.5", "PORT=9000")
    # A SITE_URL of the environment wins (a name the service is reached by).
    assert "SITE_URL=https://destek.example.com" in _uvicorn_komutu("PORT=8123", ortam={"SITE_URL": "https://destek.example.com"})


def test_yeniden_yukleyici_yalniz_proje_klasorlerini_izler():
    komut = _uvicorn_komutu()
    klasorler = {komut[i + 1] for i, k in enumerate(komut) if k == "--reload-dir"}
    uygulamalar = {p.parent.name for p in KOK.glob("*/apps.py")}
    assert uygulamalar | {"supportdesk", "templates", "static", "locale"} == klasorler
    assert not {".venv", "media", "tmp", "."} & klasorler
    assert "--reload" in komut and "*.html" in komut
    # uvicorn reloads with watchfiles (inotify) when it is installed, and polls every file otherwise.
    assert importlib.util.find_spec("watchfiles") is not None
    assert any(s.startswith("watchfiles==") for s in (KOK / "requirements" / "dev.txt").read_text().splitlines())


def test_soket_cerceve_siniri():
    komut = _uvicorn_komutu()
    assert komut[komut.index("--ws-max-size") + 1] == "65536"
