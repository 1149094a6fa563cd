"""Test settings and shared fixtures. Tests talk to the real database (PostgreSQL in CI)."""
import pytest

pytest_plugins = ["supportdesk.testing.fixtures"]


def _altyapi() -> str:
    from django.conf import settings

    from supportdesk.testing.altyapi import ozet

    return ozet(settings.DATABASES, settings.REDIS_URL)


def pytest_sessionstart(session):
    # The translation catalogs (.mo) are built, not kept in git (`make derle`; CONTRACT 19): a bare
    # `pytest` in a fresh checkout compiles the stale or missing ones before any test reads them.
    from pathlib import Path

    from django.conf import settings

    kok = Path(settings.BASE_DIR)
    bayat = [po for po in kok.glob("locale/*/LC_MESSAGES/*.po")
             if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]
    if bayat:
        from django.core.management import call_command

        call_command("compilemessages", locale=sorted({po.parts[-3] for po in bayat}), verbosity=0,
                     ignore_patterns=[".venv", "node_modules", "staticfiles", "media", "tmp", "bench"])


def pytest_report_header(config):
    return _altyapi()


def pytest_terminal_summary(terminalreporter):
    # Last thing before the result line: which database and Redis this run tested against.
    terminalreporter.write_line(_altyapi())


@pytest.fixture(autouse=True)
def _hizli_ayarlar(settings, tmp_path):
    # Throttling state and media never leak between tests.
    settings.MEDIA_ROOT = str(tmp_path / "media")
    from django.core.cache import cache

    from chat import son_gorulme
    from supportdesk.core import varlik
    from tenants import musteri_onbellegi

    cache.clear()
    varlik.sifirla()
    son_gorulme.sifirla()  # process-local notes about what the cache holds go with it
    musteri_onbellegi.sifirla()
    yield
    cache.clear()


class _PencereBasindakiSaat:
    """The `time` module as the request limiter reads it (supportdesk.core.throttling) during one
    test: real time moved back by a constant, so that the test begins half a second into a day,
    hence into a second, minute, hour and day window of the limiter, and runs on in real time."""

    def __init__(self, gercek):
        self._gercek = gercek
        self._fark = gercek.time() % 86400 - 0.5

    def time(self) -> float:
        return self._gercek.time() - self._fark

    def __getattr__(self, ad):
        return getattr(self._gercek, ad)


@pytest.fixture(autouse=True)
def _limit_penceresi_basinda(monkeypatch):
    # The limiter counts in fixed windows weighted by the previous one (CONTRACT 9): a request just
    # after a window's end passes where one just before it is refused. A test sending a limit's
    # worth and expecting the next refused failed when a minute ended between them (a loaded run:
    # portal/tests/test_kimlik.py, 302 for the 429 of "2/min"). Each test starts at a window's
    # start instead; the limiter's own tests of a window's end give it the instant (`simdi`).
    import time

    from supportdesk.core import throttling

    monkeypatch.setattr(throttling, "time", _PencereBasindakiSaat(time))


def pytest_configure(config):
    # The test database is a copy of a migrated mould on PostgreSQL (supportdesk/testing/kalip.py).
    from supportdesk.testing import kalip

    kalip.kur()

    # `make test`'s workers take the slow files first (supportdesk/testing/planlayici.py).
    if (config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "loadfile"
            and not hasattr(config, "workerinput")):
        from supportdesk.testing.planlayici import PlanlayiciEklentisi

        config.pluginmanager.register(PlanlayiciEklentisi(), "agir-once-planlayici")

    # A transactional test ends by emptying every table: on PostgreSQL the tables it wrote, with
    # DELETE, keeping the content types and permissions (supportdesk.testing.bosalt; Django's
    # flush TRUNCATEd all of them and wrote those rows again, 1.5-2 s a test on a loaded machine),
    # elsewhere with Django's flush. A live server's request still in flight when its test returns
    # (a browser's last poll, a periodic sweep of the in-process runner) can hold a row lock the
    # emptying waits for while waiting for one it holds: PostgreSQL then kills one side ("deadlock
    # detected") and the emptying fails, failing a test that passed. It is retried then, after the
    # in-flight work is over; a third failure is raised as it is.
    import time

    from django.core.management.base import CommandError
    from django.db import DatabaseError
    from django.test import TransactionTestCase

    from supportdesk.testing import bosalt as hizli

    flush = TransactionTestCase._fixture_teardown

    def bosalt(self):
        if self.available_apps is not None or self.serialized_rollback:
            return flush(self)
        aliaslar = list(self._databases_names(include_mirrors=False))
        if not all(hizli.bosalt(alias) for alias in aliaslar):
            return flush(self)

    def _fixture_teardown(self):
        for deneme in range(3):
            try:
                return bosalt(self)
            except (CommandError, DatabaseError) as hata:
                if deneme == 2 or "deadlock" not in str(hata.__cause__ or hata):
                    raise
                time.sleep(0.5)

    TransactionTestCase._fixture_teardown = _fixture_teardown

