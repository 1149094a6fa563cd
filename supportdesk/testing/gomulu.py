"""A migrated SQLite database of the embedded default (`make run`: uvicorn on a SQLite file, no
Redis), for the tests that start a server of their own on one.

`migrate` on a fresh SQLite file is ~12 s of CPU (30-40 s of wall time on a loaded machine) and
ends in the same file for one set of migrations, so it is done once: the first test builds the
file in a cache folder keyed by the migrations' hash (as `.ci/runtime` keys its virtualenv by the
lock's), under a lock that parallel workers share, and every test gets a copy of its own. A new
or changed migration, another Django or another SQLite makes another key, hence a fresh
`migrate`. `GOMULU_ONBELLEK` names the folder (default ~/.cache/supportdesk/gomulu-sqlite).
"""
import fcntl
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from django.conf import settings

from .kalip import goc_anahtari


def _onbellek() -> Path:
    varsayilan = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "supportdesk" / "gomulu-sqlite"
    return Path(os.environ.get("GOMULU_ONBELLEK", varsayilan))


def _migrate(hedef: Path) -> None:
    tam = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", "DATABASE_URL": f"sqlite:///{hedef}",
           "REDIS_URL": ""}
    tam.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    sonuc = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=settings.BASE_DIR,
                           env=tam, capture_output=True, text=True, timeout=300)
    assert sonuc.returncode == 0, sonuc.stdout[-2000:] + sonuc.stderr[-3000:]


def gocmus_sqlite(hedef: Path) -> str:
    """`hedef`: a SQLite file with every migration applied, as `manage.py migrate` leaves a fresh
    one; returns its DATABASE_URL."""
    klasor = _onbellek()
    klasor.mkdir(parents=True, exist_ok=True)
    kalip = klasor / f"{goc_anahtari(Path(settings.BASE_DIR), sqlite3.sqlite_version)}.sqlite3"
    with open(klasor / ".kilit", "w") as kilit:
        fcntl.flock(kilit, fcntl.LOCK_EX)  # one build while the other workers wait for it
        if not kalip.exists():
            gecici = klasor / f"{kalip.stem}.{os.getpid()}.yapiliyor"
            for eski in klasor.glob(f"{gecici.name}*"):
                eski.unlink()
            _migrate(gecici)
            # One self-contained file (no -wal beside it): the backup API copies a consistent state.
            with closing(sqlite3.connect(gecici)) as kaynak, closing(sqlite3.connect(f"{gecici}.tam")) as kopya:
                kaynak.backup(kopya)
            os.replace(f"{gecici}.tam", kalip)
            for eski in klasor.glob(f"{gecici.name}*"):
                eski.unlink()
    shutil.copyfile(kalip, hedef)
    return f"sqlite:///{hedef}"
