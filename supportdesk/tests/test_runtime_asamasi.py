"""The runtime-lock stage (.ci/runtime, run by CI before the suite) fails on a lock that lacks a
package the service needs at run time (slow: it builds a virtualenv of its own, cached by the
lock's hash).

The lock here is requirements/base.txt without `packaging`: exactly the lock of issue 37, where
`celery` was pinned without its `redis` extra, so nothing declared the package kombu's Redis
transport imports, and the worker and beat exited at start while web and sockets served.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = [pytest.mark.slow]

KOK = Path(settings.BASE_DIR)


def _paketsiz(kilit: str, paket: str) -> str:
    """`kilit` (a pip-compile lock) without the block of `paket` (its pin, hashes and comments)."""
    bloklar = re.split(r"\n(?=[A-Za-z0-9])", kilit)
    kalan = [b for b in bloklar if not b.lower().startswith(paket + "==")]
    assert len(kalan) == len(bloklar) - 1, f"{paket} kilitte yok"
    return "\n".join(kalan)


def test_eksik_calisma_zamani_paketi_asamayi_dusurur(tmp_path):
    db_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL")
    if not db_url.startswith("postgres") or not redis_url or not shutil.which("psql"):
        pytest.skip("Çalışma zamanı aşaması PostgreSQL ve Redis ister (CI her ikisini de verir).")
    kilit = tmp_path / "base-packaging-yok.txt"
    kilit.write_text(_paketsiz((KOK / "requirements" / "base.txt").read_text(), "packaging"))
    sonuc = subprocess.run(["bash", str(KOK / ".ci" / "runtime")], cwd=KOK, capture_output=True, text=True,
                           timeout=900, env={**os.environ, "RUNTIME_LOCK": str(kilit), "RUNTIME_SURE": "45"})
    cikti = sonuc.stdout + sonuc.stderr
    assert sonuc.returncode != 0, cikti[-3000:]
    assert "runtime: FAILED" in cikti and "No module named 'packaging'" in cikti, cikti[-5000:]
