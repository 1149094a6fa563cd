"""The test database on PostgreSQL is a copy of a migrated mould (supportdesk.testing.kalip): this
run's database was copied from the mould its migrations name, the copy holds exactly the migrations
on disk (a mould that missed a new migration would run the suite on an old schema) and the rows
migrate writes, and the name follows the migrations, so a changed one makes a new mould."""
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from supportdesk.testing import kalip

pytestmark = pytest.mark.django_db


def _sunucu_surumu() -> str:
    with connection.cursor() as c:
        c.execute("SHOW server_version_num")
        return c.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL'e özgü")
def test_test_veritabani_diskteki_her_gocu_tasiyan_kaliptan_kopyalanir():
    ad = kalip.ONEK + kalip.goc_anahtari(Path(settings.BASE_DIR), _sunucu_surumu())
    assert kalip.KOPYALAR.get("default") == ad, "test veritabanı göçlerin adlandırdığı kalıptan kopyalanmadı"
    with connection.cursor() as c:
        c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [ad])
        assert c.fetchone() is not None, f"{ad} yok"
        c.execute("SELECT app, name FROM django_migrations")
        uygulanan = set(c.fetchall())
    assert uygulanan == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    # What migrate's post_migrate writes came with the copy.
    assert ContentType.objects.filter(app_label="chat", model="oturum").exists()
    assert Permission.objects.filter(codename="add_oturum").exists()


def test_kalibin_adi_goclerle_degisir(tmp_path):
    kok = Path(settings.BASE_DIR)
    for goc in kok.glob("chat/migrations/*.py"):
        hedef = tmp_path / goc.relative_to(kok)
        hedef.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(goc, hedef)
    once = kalip.goc_anahtari(tmp_path, '150000')
    assert kalip.goc_anahtari(tmp_path, '150000') == once
    assert kalip.goc_anahtari(tmp_path, '160000') != once
    (tmp_path / "chat" / "migrations" / "9999_yeni.py").write_text("# yeni bir göç\n")
    assert kalip.goc_anahtari(tmp_path, '150000') != once
