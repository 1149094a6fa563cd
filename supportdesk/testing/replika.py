"""A streaming replica for tests (CONTRACT 26): two PostgreSQL clusters of our own on free loopback
ports, in a temporary folder, made with the machine's binaries: a primary (`initdb`, replication
allowed from 127.0.0.1) holding one database with every migration applied, and a hot standby of it
(`pg_basebackup -R`, streaming). The machine's shared server (127.0.0.1:5432) is left alone: its
pg_hba has no replication entry, and a base backup of it would copy every other database.

PostgreSQL refuses to run as root: as root (CI) the clusters belong to the `postgres` user.
Skipped, with the reason, when the binaries are missing.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from .sunucu import kapali_port

_ARAMA = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin", "/usr/local/bin",
          "/usr/bin"]


def _ikili(ad: str) -> str | None:
    for klasor in _ARAMA:
        yol = Path(klasor) / ad
        if yol.exists():
            return str(yol)
    return shutil.which(ad)


class ReplikaliKume:
    """`birincil_url` and `replika_url` name the database `supportdesk` on each."""

    VERITABANI = "supportdesk"

    def __init__(self) -> None:
        ikililer = {ad: _ikili(ad) for ad in ("initdb", "pg_ctl", "pg_basebackup")}
        if None in ikililer.values():
            pytest.skip(f"Replika testleri PostgreSQL sunucu programlarını ister: {ikililer}")
        self.bin = ikililer
        self.kok = Path(tempfile.mkdtemp(prefix="replika-"))
        self.root = os.geteuid() == 0
        if self.root:
            shutil.chown(self.kok, "postgres", "postgres")
        self.birincil_port, self.replika_port = kapali_port(), kapali_port()
        self.birincil = self.kok / "birincil"
        self.replika = self.kok / "replika"
        self.birincil_url = f"postgres://postgres@127.0.0.1:{self.birincil_port}/{self.VERITABANI}"
        self.replika_url = f"postgres://postgres@127.0.0.1:{self.replika_port}/{self.VERITABANI}"
        try:
            self._birincil_kur()
            self._replika_kur()
        except BaseException:
            self.kapat()
            raise

    def _calistir(self, *komut: str) -> None:
        onek = ["runuser", "-u", "postgres", "--"] if self.root else []
        sonuc = subprocess.run([*onek, *komut], capture_output=True, text=True, timeout=120)
        if sonuc.returncode:
            raise RuntimeError(f"{' '.join(komut)}: {sonuc.stdout}{sonuc.stderr}")

    def _birincil_kur(self) -> None:
        self._calistir(self.bin["initdb"], "-D", str(self.birincil), "-U", "postgres", "-A", "trust", "--no-sync",
                       "-E", "UTF8", "--locale", "C.UTF-8")
        with open(self.birincil / "postgresql.conf", "a") as conf:
            conf.write(f"port = {self.birincil_port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.kok}'\nwal_level = replica\nmax_wal_senders = 4\n"
                       # a test cluster: durability is not what it tests, speed is
                       "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
        with open(self.birincil / "pg_hba.conf", "a") as hba:
            hba.write("host replication all 127.0.0.1/32 trust\n")
        self._calistir(self.bin["pg_ctl"], "-D", str(self.birincil), "-l", str(self.kok / "birincil.log"), "-w", "start")
        with psycopg.connect(self.birincil_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as baglanti:
            baglanti.execute(f"CREATE DATABASE {self.VERITABANI}")
        self.manage("migrate", "-v0")

    def _replika_kur(self) -> None:
        self._calistir(self.bin["pg_basebackup"], "-h", "127.0.0.1", "-p", str(self.birincil_port), "-U", "postgres",
                       "-D", str(self.replika), "-R", "-X", "stream", "-c", "fast")
        with open(self.replika / "postgresql.auto.conf", "a") as conf:
            conf.write(f"port = {self.replika_port}\n")
        self.replika_baslat()

    def manage(self, *argumanlar: str) -> str:
        """`manage.py` on the primary; returns what it printed."""
        ortam = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", "DATABASE_URL": self.birincil_url}
        ortam.pop("DATABASE_REPLICA_URL", None)
        sonuc = subprocess.run([sys.executable, "manage.py", *argumanlar], cwd=settings.BASE_DIR, env=ortam,
                               capture_output=True, text=True, timeout=300)
        if sonuc.returncode:
            raise RuntimeError(f"manage.py {' '.join(argumanlar)}: {sonuc.stdout}{sonuc.stderr}")
        return sonuc.stdout

    def replikada(self, sql: str):
        with psycopg.connect(self.replika_url, autocommit=True) as baglanti:
            return baglanti.execute(sql).fetchone()

    def replika_baslat(self) -> None:
        self._calistir(self.bin["pg_ctl"], "-D", str(self.replika), "-l", str(self.kok / "replika.log"), "-w", "start")
        bitis = time.monotonic() + 30
        while not self._yetisti():
            if time.monotonic() > bitis:
                raise RuntimeError("Replika birincile yetişmedi")
            time.sleep(0.05)

    def _yetisti(self) -> bool:
        try:
            with psycopg.connect(self.birincil_url, autocommit=True) as b:
                lsn = b.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
            return bool(self.replikada(f"SELECT pg_last_wal_replay_lsn() >= '{lsn}'::pg_lsn")[0])
        except psycopg.OperationalError:
            return False

    def replika_durdur(self) -> None:
        """As a crash: connections cut, nothing flushed."""
        self._calistir(self.bin["pg_ctl"], "-D", str(self.replika), "-m", "immediate", "-w", "stop")

    def oynatmayi_duraklat(self) -> None:
        self.replikada("SELECT pg_wal_replay_pause()")

    def oynatmayi_surdur(self) -> None:
        self.replikada("SELECT pg_wal_replay_resume()")

    def kapat(self) -> None:
        for kume in (self.replika, self.birincil):
            if (kume / "postmaster.pid").exists():
                try:
                    self._calistir(self.bin["pg_ctl"], "-D", str(kume), "-m", "immediate", "-w", "stop")
                except (RuntimeError, subprocess.TimeoutExpired):
                    pass
        shutil.rmtree(self.kok, ignore_errors=True)


@pytest.fixture(scope="module")
def replikali_kume():
    kume = ReplikaliKume()
    yield kume
    kume.kapat()
