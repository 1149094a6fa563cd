"""Test settings and shared fixtures. Tests talk to the real database (PostgreSQL in CI)."""
import pytest

pytest_plugins = ["supportdesk.testing.fixtures"]


def _altyapi() -> str:
    from django.conf import settings

    from supportdesk.testing.altyapi import ozet

    return ozet(settings.DATABASES, settings.REDIS_URL)


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
