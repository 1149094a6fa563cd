"""Test settings and shared fixtures. Tests talk to the real database (PostgreSQL in CI)."""
import pytest

pytest_plugins = ["supportdesk.testing.fixtures"]


@pytest.fixture(autouse=True)
def _hizli_ayarlar(settings, tmp_path):
    # Throttling state and media never leak between tests.
    settings.MEDIA_ROOT = str(tmp_path / "media")
    from django.core.cache import cache

    from chat import varlik as ziyaretci_varligi
    from supportdesk.core import varlik
    from tenants import onbellek

    cache.clear()
    varlik.sifirla()
    ziyaretci_varligi.sifirla()  # process-local notes about what the cache holds go with it
    onbellek.sifirla()
    yield
    cache.clear()
