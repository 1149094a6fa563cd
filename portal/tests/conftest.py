import pytest


@pytest.fixture(autouse=True)
def _playwright_icin_async_izni(request, monkeypatch):
    """Playwright's sync API runs an event loop in the test thread, so Django would refuse the
    test's own (plain synchronous) ORM calls. Allowed only for browser tests and only while they
    run: the variable must never leak into other tests or subprocesses (`check --deploy` flags it)."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
