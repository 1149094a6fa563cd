import pytest

from supportdesk.testing.tarayici import chromium


@pytest.fixture(autouse=True)
def _playwright_icin_async_izni(request, monkeypatch):
    """As in portal/tests: Playwright's sync API keeps an event loop in the test thread; allowed
    for browser tests only, and only while they run."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser
