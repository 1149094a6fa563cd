import os

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(autouse=True)
def _playwright_icin_async_izni(request, monkeypatch):
    """As in portal/tests: Playwright's sync API keeps an event loop in the test thread; allowed
    for browser tests only, and only while they run."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def tarayici():
    from playwright.sync_api import sync_playwright

    eski = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield browser
    browser.close()
    pw.stop()
    if eski is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = eski
