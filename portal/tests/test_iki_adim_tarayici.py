"""In real headless Chromium (CONTRACT 18): turning TOTP on from the account page and logging in
with a code, and the lockout page after repeated wrong passwords."""
import base64

import pytest
from django_otp.oath import totp

from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

pytestmark = TARAYICI_ISARETLERI


def _kod(gizli: str, adim: int = 0) -> str:
    anahtar = base64.b32decode(gizli + "=" * (-len(gizli) % 8))
    return str(totp(anahtar, drift=adim)).zfill(6)


@pytest.fixture(scope="module")
def tarayici():
    # One Chromium for the module (~2 s to start and stop on a loaded machine); each test has a
    # browser context of its own, closed after it (cookies, storage and pages never shared).
    with chromium() as browser:
        yield browser


@pytest.fixture
def sayfa(tarayici):
    context = tarayici.new_context(viewport={"width": 1200, "height": 860}, locale="tr-TR")
    page = context.new_page()
    page.set_default_timeout(30000)
    yield page
    context.close()


def _giris(page, url, email, sifre):
    page.goto(f"{url}/portal/giris")
    page.fill("#id_email", email)
    page.fill("#id_sifre", sifre)
    page.click("button[type=submit]")


def test_two_factor_setup_and_login(live_server, sayfa, musteri):
    user = operator_yap(musteri, rol="sahip")
    url = live_server.url
    _giris(sayfa, url, user.email, TEST_SIFRE)
    sayfa.goto(f"{url}/portal/hesap")
    sayfa.click("[data-test=iki-adim]")
    assert sayfa.locator("[data-test=qr] svg").count() == 1
    gizli = sayfa.inner_text("[data-test=gizli]").strip()
    sayfa.fill("#id_kod", _kod(gizli))
    sayfa.click("main button[type=submit]")
    sayfa.wait_for_selector("[data-test=iki-adim-acik]")

    sayfa.context.clear_cookies()
    _giris(sayfa, url, user.email, TEST_SIFRE)
    sayfa.wait_for_url(f"{url}/portal/giris/kod")
    sayfa.fill("#id_kod", _kod(gizli, 1))
    sayfa.click("form button[type=submit]")
    sayfa.wait_for_url(lambda adres: "/portal/giris" not in adres)
    assert sayfa.locator("text=Portala giriş").count() == 0


def test_lockout_page_after_repeated_failures(live_server, sayfa, musteri, settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    user = operator_yap(musteri, rol="sahip")
    for _ in range(3):
        _giris(sayfa, live_server.url, user.email, "yanlis-sifre")
    sayfa.wait_for_selector("[data-test=kilitli]")
    _giris(sayfa, live_server.url, user.email, TEST_SIFRE)  # the right password: still locked
    sayfa.wait_for_selector("[data-test=kilitli]")
