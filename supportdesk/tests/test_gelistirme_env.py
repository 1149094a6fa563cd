"""A development checkout just works; production still refuses to start without a secret key
(issue 13). Real subprocesses: `make env`, then `python manage.py` with the environment a shell
on a fresh checkout would have (no DEBUG, no SECRET_KEY, the project's own settings module)."""
import os
import shutil
import subprocess
import sys

import pytest
from django.conf import settings

KOK = settings.BASE_DIR
GOSTER = "from django.conf import settings as s; print(s.DEBUG, len(s.SECRET_KEY))"


def _ortam(env_dosyasi) -> dict:
    ortam = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"}}
    ortam["DJANGO_ENV_FILE"] = str(env_dosyasi)
    return ortam


def _manage(env_dosyasi, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=KOK, env=_ortam(env_dosyasi),
                          capture_output=True, text=True, timeout=120)


def test_uretimde_env_dosyasi_yoksa_secret_key_istenir(tmp_path):
    sonuc = _manage(tmp_path / "yok.env", "check")
    assert sonuc.returncode != 0
    assert "ImproperlyConfigured: Set the SECRET_KEY" in sonuc.stderr and "make env" in sonuc.stderr


@pytest.mark.skipif(not shutil.which("make"), reason="make yok")
def test_make_env_gelistirme_checkoutunu_calisir_kilar(tmp_path):
    dosya = tmp_path / ".env"
    yaz = subprocess.run(["make", "-s", "env", f"ENV_FILE={dosya}", f"PYTHON={sys.executable}"], cwd=KOK,
                         capture_output=True, text=True, timeout=60)
    assert yaz.returncode == 0, yaz.stderr
    icerik = dosya.read_text()
    assert "DEBUG=true" in icerik and "SECRET_KEY=" in icerik
    sonuc = _manage(dosya, "shell", "-v", "0", "-c", GOSTER)
    assert sonuc.returncode == 0, sonuc.stderr
    assert sonuc.stdout.split() == ["True", "67"]  # token_urlsafe(50)
    # written once: a second `make env` keeps the key (sessions and tokens survive)
    subprocess.run(["make", "-s", "env", f"ENV_FILE={dosya}"], cwd=KOK, check=True, capture_output=True, timeout=60)
    assert dosya.read_text() == icerik
    # the environment still wins over the file
    ortam = {**_ortam(dosya), "DEBUG": "false", "SECURE_SSL_REDIRECT": "false"}
    sonuc = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", GOSTER], cwd=KOK, env=ortam,
                           capture_output=True, text=True, timeout=120)
    assert sonuc.returncode == 0 and sonuc.stdout.split() == ["False", "67"], sonuc.stderr
