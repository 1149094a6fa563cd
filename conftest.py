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
