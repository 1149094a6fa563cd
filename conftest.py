"""Test settings and shared fixtures. Tests talk to the real database (PostgreSQL in CI)."""
import pytest

pytest_plugins = ["supportdesk.testing.fixtures"]


@pytest.fixture(autouse=True)
def _hizli_ayarlar(settings, tmp_path):
    # Throttling state and media never leak between tests.
    settings.MEDIA_ROOT = str(tmp_path / "media")
    from django.core.cache import cache

    from supportdesk.core import varlik

    cache.clear()
    varlik.sifirla()
    yield
    cache.clear()
