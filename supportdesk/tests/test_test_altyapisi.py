"""`make test` runs what production runs (issue 25): the machine's PostgreSQL and Redis when they
answer, SQLite and in-memory stand-ins only where they do not, an explicit DATABASE_URL/REDIS_URL
first; and the run says which in its summary."""
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from supportdesk.testing import altyapi, sunucu
from supportdesk.testing.sunucu import bos_port, kapali_port

KOK = Path(__file__).resolve().parents[2]


def test_kapali_portta_ne_postgresql_ne_redis_bulunur():
    port = kapali_port()
    assert altyapi.postgres_hazir_mi(port=port) is False
    assert altyapi.redis_hazir_mi(port=port) is False


def test_bir_sunucuya_verilen_port_gecici_araligin_disinda_ve_bos():
    # A port handed to a process that binds it later is below the kernel's ephemeral range, where no
    # outgoing connection takes it meanwhile (`make prod`'s socket process met "address already in
    # use" on one from that range), and it is free with each offset asked for.
    alt, _ = sunucu._gecici_aralik()
    taban = bos_port(1, 100, 101)
    assert sunucu._ALT <= taban and taban + 101 < alt
    for ek in (0, 1, 100, 101):
        with socket.socket() as s:
            s.bind(("127.0.0.1", taban + ek))


def test_tutulan_bir_port_secilmez(monkeypatch):
    # A pick whose port (or an offset) somebody holds is passed over for the next one.
    with socket.socket() as tutulan:
        tutulan.bind(("127.0.0.1", bos_port(1)))
        tutulan.listen()
        dolu = tutulan.getsockname()[1]
        bos = bos_port(1)
        adaylar = iter([dolu, dolu - 1, bos])  # dolu itself, then dolu - 1 whose +1 is dolu
        monkeypatch.setattr(sunucu._SECICI, "randrange", lambda *a: next(adaylar))
        assert bos_port(1) == bos


def test_ikisi_de_yoksa_sqlite_ve_bellek_ici_kalir():
    ortam = {}
    secim = altyapi.ortami_hazirla(ortam, pg_port=kapali_port(), redis_port=kapali_port())
    assert "DATABASE_URL" not in ortam and "REDIS_URL" not in ortam
    assert secim["kaynak"] == {"veritabani": "yok", "redis": "yok"}
    ozet = altyapi.ozet({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "/x/db.sqlite3"}}, "", ortam)
    assert ozet.startswith("veritabanı: sqlite3 (db.sqlite3; bulunamadı), redis: yok")


def test_acik_ortam_degiskeni_kazanir():
    ortam = {"DATABASE_URL": "sqlite:///tek.sqlite3", "REDIS_URL": ""}
    secim = altyapi.ortami_hazirla(ortam)  # whatever this machine runs
    assert ortam == {"DATABASE_URL": "sqlite:///tek.sqlite3", "REDIS_URL": "", "SUPPORTDESK_TEST_ALTYAPI": "ortam,ortam"}
    assert secim["kaynak"] == {"veritabani": "ortam", "redis": "ortam"}


def test_her_paralel_isci_kendi_redis_veritabaninda():
    # `make test` runs pytest -n: worker gwK empties (FLUSHDB) the base database + K + 1, never another's
    # and never the base itself, where every connection is before its SELECT.
    ortamlar = [{"DATABASE_URL": "sqlite:///x", "REDIS_URL": "redis://127.0.0.1:6379/4", "PYTEST_XDIST_WORKER": f"gw{k}"}
                for k in range(4)]
    assert [altyapi.ortami_hazirla(o)["redis"] for o in ortamlar] == [f"redis://127.0.0.1:6379/{n}" for n in (5, 6, 7, 8)]
    # A server or Celery worker the test process starts inherits the environment: the same database.
    cocuk = dict(ortamlar[1])
    altyapi.ortami_hazirla(cocuk)
    assert cocuk["REDIS_URL"] == "redis://127.0.0.1:6379/6" and cocuk[altyapi.ISCI_ISARETI] == "gw1"
    # Without xdist (a serial run) the database is the one given.
    tek = {"DATABASE_URL": "sqlite:///x", "REDIS_URL": "redis://127.0.0.1:6379/4"}
    assert altyapi.ortami_hazirla(tek)["redis"] == "redis://127.0.0.1:6379/4"
    # The `?db=` form, a password and no number at all (database 0).
    assert altyapi.isci_redis_url("redis://:gizli@h:6380?db=2", "gw3") == "redis://:gizli@h:6380?db=6"
    assert altyapi.isci_redis_url("redis://h:6379", "gw2") == "redis://h:6379/3"


def test_isci_sabit_test_veritabanlarina_tasmaz():
    # 12 (background work), 13 (beat) and 14 (CI runtime) belong to single tests: refused, with why.
    with pytest.raises(RuntimeError, match="12"):
        altyapi.ortami_hazirla({"DATABASE_URL": "sqlite:///x", "REDIS_URL": "redis://h:6379/10", "PYTEST_XDIST_WORKER": "gw1"})
    assert altyapi.isci_redis_url("redis://h:6379/10", "gw0") == "redis://h:6379/11"


@pytest.mark.skipif(not altyapi.postgres_hazir_mi() or not altyapi.redis_hazir_mi(),
                    reason="bu makinede PostgreSQL ya da Redis yok")
def test_makinedeki_postgresql_ve_redis_kullanilir():
    ortam = {}
    altyapi.ortami_hazirla(ortam)
    assert ortam["DATABASE_URL"] == "postgres://postgres@127.0.0.1:5432/supportdesk"
    assert ortam["REDIS_URL"] == "redis://127.0.0.1:6379/0"


@pytest.mark.skipif(not altyapi.postgres_hazir_mi() or not altyapi.redis_hazir_mi(),
                    reason="bu makinede PostgreSQL ya da Redis yok")
def test_ortamsiz_calisan_pytest_ozetinde_postgresql_ve_redisi_soyler():
    """A bare `pytest` (no DATABASE_URL, no REDIS_URL) as `make test` runs it: its summary names
    the machine's PostgreSQL and Redis."""
    ortam = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "REDIS_URL", "SUPPORTDESK_TEST_ALTYAPI", altyapi.ISCI_ISARETI)
             and not k.startswith("PYTEST_XDIST_")}  # a run of its own, not one of this run's workers
    sonuc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "supportdesk/tests/test_saglik.py"],
                           cwd=KOK, env=ortam, capture_output=True, text=True, timeout=120)
    assert sonuc.returncode == 0, sonuc.stdout + sonuc.stderr
    assert ("veritabanı: postgresql (127.0.0.1:5432/supportdesk; bu makinede bulundu), "
            "redis: 127.0.0.1:6379/0 (bu makinede bulundu)") in sonuc.stdout
