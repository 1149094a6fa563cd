"""Headless Chromium for the browser tests: Debian's `/usr/bin/chromium` driven by Playwright's sync
API (Playwright may not download a browser of its own here).

`TARAYICI_ISARETLERI` marks a browser test module (`pytestmark`): the `browser` marker, a skip
when Chromium is not installed, and a transactional database (the browser talks to a live server
in another thread or process, which sees only committed rows). `chromium()` is the one way to start
the browser: Playwright's sync API keeps an event loop in the test's thread, so Django's
async-unsafe check is relaxed while it runs, and the ORM connections opened meanwhile (asgiref
gives them their own context) are closed before it stops, or the test database stays in use.
"""
import os
from contextlib import contextmanager

import pytest
from django.db import connections
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TARAYICI_ISARETLERI = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="/usr/bin/chromium yok (make browser kurar)"),
    pytest.mark.django_db(transaction=True),
]


@contextmanager
def chromium():
    eski = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            connections.close_all()
            browser.close()
    finally:
        pw.stop()
        if eski is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = eski
