"""The search behaves the same on SQLite (`make run`'s default) as on PostgreSQL (the suite's
default): `test_arama.py` run again, whole, against a throw-away SQLite database."""
import os
import subprocess
import sys

import pytest
from django.conf import settings


@pytest.mark.slow
def test_the_search_module_passes_on_sqlite(tmp_path):
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("the suite itself runs on SQLite: test_arama.py already ran here")
    ortam = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    sonuc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "arama/tests/test_arama.py",
         "arama/tests/test_mesaj_ekleme.py"],
        cwd=settings.BASE_DIR, env=ortam, capture_output=True, text=True, timeout=600,
    )
    assert sonuc.returncode == 0, sonuc.stdout[-4000:] + sonuc.stderr[-2000:]
    assert "sqlite3" in sonuc.stdout and " passed" in sonuc.stdout, sonuc.stdout[-2000:]
