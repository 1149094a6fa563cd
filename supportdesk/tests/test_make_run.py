"""`make run` (issue 39.8, 39.9): the demo data's mails link to the address the service serves, and
what make prints follows the shell's language. Read from `make -n` (nothing is run)."""
import os
import shutil
import subprocess

import pytest
from django.conf import settings

make_yok = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _make_n(*degiskenler: str, dil: str) -> list[str]:
    ortam = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LANGUAGE", "LANG", "SITE_URL")}
    ortam["LANG"] = dil
    cikti = subprocess.run(["make", "-n", "run", *degiskenler], cwd=settings.BASE_DIR, env=ortam,
                           capture_output=True, text=True, timeout=60, check=True).stdout
    return cikti.splitlines()


@make_yok
def test_demo_data_is_written_with_the_site_url_of_the_port_served():
    satirlar = _make_n("PORT=8123", dil="en_US.UTF-8")
    demo = [s for s in satirlar if "manage.py demo_verisi" in s]
    assert demo and demo[0].startswith("SITE_URL=http://127.0.0.1:8123 "), demo
    sunucu = [s for s in satirlar if "uvicorn" in s]
    assert sunucu and sunucu[0].startswith("SITE_URL=http://127.0.0.1:8123 ") and "--port 8123" in sunucu[0]
    # An explicit SITE_URL reaches both.
    satirlar = _make_n("PORT=8123", "SITE_URL=https://destek.ornek.com", dil="en_US.UTF-8")
    assert any(s.startswith("SITE_URL=https://destek.ornek.com ") and "demo_verisi" in s for s in satirlar)


@make_yok
@pytest.mark.parametrize(("dil", "beklenen", "olmayan"), [
    ("en_US.UTF-8", ["Incoming mail addresses", "Service: http://127.0.0.1:8123/", "Operator console:"],
     ["Gelen e-posta", "Servis:", "Operatör konsolu"]),
    ("C.UTF-8", ["Service: http://127.0.0.1:8123/"], ["Servis:"]),
    ("tr_TR.UTF-8", ["Gelen e-posta adresleri", "Servis: http://127.0.0.1:8123/", "Operatör konsolu:"],
     ["Incoming mail", "Service:", "Operator console"]),
])
def test_what_make_run_prints_follows_the_shells_language(dil, beklenen, olmayan):
    yankilar = "\n".join(s for s in _make_n("PORT=8123", dil=dil) if s.startswith("echo "))
    for metin in beklenen:
        assert metin in yankilar, yankilar
    for metin in olmayan:
        assert metin not in yankilar, yankilar
