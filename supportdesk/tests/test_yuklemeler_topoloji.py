"""Uploads, one design per topology (issue 37; docs/production.md "Uploads"): on the single-host
compose install the web service serves /media/ from the volume every app container shares. Run with
exactly the settings the guide documents: `.env.example` as `production.env` (the operator fills in
EMAIL_URL, as the guide says), then compose's own `environment` over it, only the addresses of the
database, Redis and folders swapped for the test's. `check --deploy` passes on them, and a file
uploaded through the widget API downloads through the same gunicorn, behind the proxy's headers.
(`make prod`, the other single-host topology, is proved in test_uretim_topolojisi.py.)"""
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
import yaml
from django.conf import settings

from dosyalar.tests.yardimci import png_bayt
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.sunucu import gunicorn_sureci, surec_ortami

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
KOK = Path(settings.BASE_DIR)
SITE = "support.example.com"  # .env.example's ALLOWED_HOSTS
PROXY = {"Host": SITE, "X-Forwarded-Proto": "https"}  # what the nginx sample sends


def _env_dosyasi(yol: Path) -> dict[str, str]:
    """KEY=VALUE lines as compose's `env_file` reads them (comments and blanks skipped)."""
    degerler = {}
    for satir in yol.read_text().splitlines():
        satir = satir.strip()
        if satir and not satir.startswith("#"):
            ad, _, deger = satir.partition("=")
            degerler[ad.strip()] = deger.strip()
    return degerler


def compose_ortami(servis: str, tmp: Path) -> dict[str, str]:
    test = surec_ortami()  # the test database and Redis (skips without them)
    compose = yaml.safe_load((KOK / "compose.yaml").read_text())
    ortam = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    ortam |= _env_dosyasi(KOK / ".env.example")  # env_file: production.env, copied from it
    ortam |= {"EMAIL_URL": "smtp://127.0.0.1:25"}  # the guide: "edit: SECRET_KEY, …, EMAIL_URL"
    ortam |= {k: str(v) for k, v in compose["services"][servis]["environment"].items()}
    (tmp / "metrikler").mkdir(exist_ok=True)
    ortam |= {"DATABASE_URL": test["DATABASE_URL"], "REDIS_URL": test["REDIS_URL"], "MEDIA_ROOT": str(tmp / "media"),
              "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrikler"), "DJANGO_ENV_FILE": "/dev/null",
              "DJANGO_SETTINGS_MODULE": "supportdesk.settings"}
    return ortam


def test_compose_ayarlari_check_deploydan_gecer_ve_yuklenen_dosya_webden_iner(tmp_path):
    ortam = compose_ortami("web", tmp_path)
    assert ortam["SERVE_MEDIA"] == "true" and ortam["DEBUG"] == "false"
    denetim = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=KOK, env=ortam,
                             capture_output=True, text=True, timeout=300)
    assert denetim.returncode == 0, denetim.stderr + denetim.stdout

    musteri = MusteriFactory()
    png = png_bayt()
    with gunicorn_sureci(ortam, tmp_path / "gunicorn.log") as url:
        yukleme = requests.post(f"{url}/api/v1/widget/upload", headers={**PROXY, "X-API-Key": musteri.api_key},
                                data={"ziyaretci_id": "z-compose"}, files={"dosya": ("fatura.png", png, "image/png")},
                                timeout=30)
        assert yukleme.status_code == 201, yukleme.text
        adres = urlsplit(yukleme.json()["data"]["dosya"]["url"])
        assert (adres.scheme, adres.netloc) == ("https", SITE) and adres.path.startswith("/media/"), adres
        indirilen = requests.get(f"{url}{adres.path}", headers=PROXY, timeout=30)
        assert indirilen.status_code == 200, indirilen.text[:500]
        assert indirilen.content == png
        assert indirilen.headers["Content-Security-Policy"] == "sandbox"
    assert any((tmp_path / "media").rglob("*.png"))  # on the shared volume, not elsewhere
