"""The test database on PostgreSQL: a copy of a migrated mould (`kalip`) instead of a `migrate` per
worker; and the migrations' hash that names every mould of the tests (this one, and the embedded
default's SQLite file, `supportdesk/testing/gomulu.py`).

Each pytest-xdist worker makes a test database of its own (`test_supportdesk_gwK`), and Django
makes it by running every migration: ~10 s of CPU in the worker and as much in PostgreSQL, three
times at once at the start of a three-worker run (~24 s each on two cores). The result is the same
database for one set of migrations, so it is built once, as a database of its own named by the
migrations' hash (`test_kalip_<hash>`, kept on the server as `.ci/runtime` keeps its virtualenv
and `supportdesk/testing/gomulu.py` its SQLite file), and each worker's database is created from it as
from a template (`CREATE DATABASE … TEMPLATE`: a file copy, under a second). A new or changed migration, another
Django or another PostgreSQL makes another name, hence a fresh build; the older templates are
dropped then. Builds and copies take turns under an advisory lock (a template database may have no
other session while it is copied). `KOPYALAR` records which mould each alias was copied from.

Only the plain case is taken: PostgreSQL, a new database (not `--reuse-db`), no serialized
rollback, migrations on. Anything else is Django's `create_test_db` unchanged.
"""
import hashlib
import sys
from pathlib import Path

import django
from django.conf import settings
from django.db.backends.base.creation import BaseDatabaseCreation

ONEK = "test_kalip_"
KILIT = 0x5D_7E57  # pg_advisory_lock key of the builds and copies


KOPYALAR: dict[str, str] = {}  # alias -> the mould its test database was copied from


def goc_anahtari(kok: Path, surum: str) -> str:
    """A mould's name part: the hash of every migration under `kok` (path and text), Django's and
    Python's versions and `surum`, the database server's or library's version."""
    ozet = hashlib.sha256(f"{django.__version__} {surum} {sys.version_info[:2]}".encode())
    for goc in sorted(kok.glob("*/migrations/*.py")):
        ozet.update(str(goc.relative_to(kok)).encode() + b"\0" + goc.read_bytes())
    return ozet.hexdigest()[:16]


def kur() -> None:
    """Put the mould's copy in place of Django's `create_test_db` for PostgreSQL connections."""
    asil = BaseDatabaseCreation.create_test_db

    def create_test_db(self, verbosity=1, autoclobber=False, serialize=True, keepdb=False):
        baglanti = self.connection
        if (baglanti.vendor != "postgresql" or keepdb or serialize
                or baglanti.settings_dict["TEST"].get("MIGRATE") is False):
            return asil(self, verbosity, autoclobber, serialize, keepdb)
        from django.core.management import call_command

        ad = self._get_test_db_name()
        qn = baglanti.ops.quote_name
        with self._nodb_cursor() as c:
            c.execute("SELECT pg_advisory_lock(%s)", [KILIT])
            try:
                c.execute("SHOW server_version_num")
                kalip = ONEK + goc_anahtari(Path(settings.BASE_DIR), c.fetchone()[0])
                c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [kalip])
                if c.fetchone() is None:
                    _yap(self, asil, kalip, c, verbosity)
                if verbosity >= 1:
                    self.log(f"Creating test database for alias '{baglanti.alias}' from {kalip}...")
                c.execute(f"DROP DATABASE IF EXISTS {qn(ad)}")
                c.execute(f"CREATE DATABASE {qn(ad)} TEMPLATE {qn(kalip)}")
            finally:
                c.execute("SELECT pg_advisory_unlock(%s)", [KILIT])
        # What Django's create_test_db does after its migrate.
        baglanti.close()
        settings.DATABASES[baglanti.alias]["NAME"] = ad
        baglanti.settings_dict["NAME"] = ad
        call_command("createcachetable", database=baglanti.alias)
        baglanti.ensure_connection()
        KOPYALAR[baglanti.alias] = kalip
        return ad

    BaseDatabaseCreation.create_test_db = create_test_db


def _yap(creation, asil, kalip: str, c, verbosity: int) -> None:
    """Build `kalip` with Django's own create_test_db under a working name, then rename it (a
    build cut short leaves only the working name, dropped by the next build)."""
    baglanti = creation.connection
    qn = baglanti.ops.quote_name
    c.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [ONEK.replace("_", r"\_") + "%"])
    for (eski,) in c.fetchall():
        c.execute(f"DROP DATABASE IF EXISTS {qn(eski)}")
    yapim = f"{kalip}_yapim"
    test_ayari = baglanti.settings_dict["TEST"]
    eski_ad, eski_test_adi = baglanti.settings_dict["NAME"], test_ayari.get("NAME")
    test_ayari["NAME"] = yapim
    try:
        asil(creation, verbosity, True, False, False)
    finally:
        baglanti.close()
        test_ayari["NAME"] = eski_test_adi
        settings.DATABASES[baglanti.alias]["NAME"] = baglanti.settings_dict["NAME"] = eski_ad
    c.execute(f"ALTER DATABASE {qn(yapim)} RENAME TO {qn(kalip)}")
