"""The migrated SQLite file the embedded default's tests start on (supportdesk.testing.gomulu): each
test's copy has exactly the migrations on disk applied (a cache that missed a new migration would
start those servers on an old schema), and copies are files of their own."""
import sqlite3
from contextlib import closing

from django.db.migrations.loader import MigrationLoader

from supportdesk.testing.gomulu import gocmus_sqlite


def _uygulanan(yol) -> set[tuple[str, str]]:
    with closing(sqlite3.connect(yol)) as db:
        return set(db.execute("SELECT app, name FROM django_migrations"))


def test_kopya_diskteki_her_gocu_uygulanmis_ve_kendi_dosyasi(tmp_path):
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    assert gocmus_sqlite(a) == f"sqlite:///{a}"
    gocmus_sqlite(b)
    assert _uygulanan(a) == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    with closing(sqlite3.connect(a)) as db, db:
        db.execute("DELETE FROM django_migrations")
    assert _uygulanan(a) == set() and _uygulanan(b) == set(MigrationLoader(None).disk_migrations)
