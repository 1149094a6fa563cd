"""Headless Chromium for the browser tests: Debian's build driven by Playwright's sync API (Playwright
may not download a browser of its own here).

The browser is Debian's `chromium-headless-shell` where it is installed (`make browser` installs it),
else `/usr/bin/chromium`; `TEST_CHROMIUM` names another. The shell is the same Chromium release
built as Chromium's headless shell, the browser Playwright itself runs for `headless=True`: the same
Blink and V8 without the full browser's user interface, profile and services, which the tests never
look at. On the console's browser file it spends 14 CPU seconds where `chromium --headless` spends
38 (docs/performance.md, "Suite time: the headless shell and a third worker"), and the browser files are half the
suite's time on two cores.

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

KABUK = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("TEST_CHROMIUM") or (KABUK if os.path.exists(KABUK) else "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TARAYICI_ISARETLERI = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} yok (make browser kurar)"),
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
