"""The portal in each member's language, in real headless Chromium (CONTRACT 19): a browser set to
English gets the sign-in pages in English and, on its first login, makes English the member's
language; a Turkish member switches to English on /portal/hesap and the portal answers in English at
once and after logging out and in again."""
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium
from tenants.models import Kullanici

pytestmark = TARAYICI_ISARETLERI


@pytest.fixture
def tarayici():
    with chromium() as browser:
        yield browser


def _sayfa(tarayici, locale):
    context = tarayici.new_context(viewport={"width": 1280, "height": 860}, locale=locale)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    return page


def _uye(dil, email):
    musteri = MusteriFactory(firma_adi="Kuzey Kitap", trial_bitis=timezone.now() + timedelta(days=10))
    user = operator_yap(musteri, rol="sahip", email=email)
    Kullanici.objects.filter(pk=user.pk).update(dil=dil)
    return user


def _giris(page, url, user, dugme):
    page.goto(f"{url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.get_by_role("button", name=dugme).click()
    page.wait_for_url(f"{url}/portal/")


def _dil(page) -> str:
    return page.evaluate("document.documentElement.lang")


def _metin(page) -> str:
    return page.locator("body").text_content()


def test_an_english_browser_gets_english_pages_and_its_first_login_keeps_english(live_server, tarayici):
    url = live_server.url
    user = _uye("", "ada@ornek.com")
    page = _sayfa(tarayici, "en-US")

    page.goto(f"{url}/portal/giris")
    assert _dil(page) == "en"
    page.get_by_role("heading", name="Log in to the portal").wait_for()
    assert "Forgot my password" in _metin(page) and "Portala giriş" not in _metin(page)
    page.get_by_role("link", name="Try it free").click()
    page.get_by_role("heading", name="Try it free for 14 days").wait_for()
    page.go_back()

    _giris(page, url, user, "Log in")
    user.refresh_from_db()
    assert user.dil == "en"  # learnt from the browser on the first login

    # Dashboard → account → team → projects, all in English.
    assert _dil(page) == "en"
    page.get_by_role("heading", name="Add the widget to your site").wait_for()
    metin = _metin(page)
    assert "Widget key" in metin and "Chats today" in metin and "Widget'ı sitenize ekleyin" not in metin
    sekmeler = page.locator("nav.sekmeler")
    assert sekmeler.get_by_role("link", name="Overview").is_visible()
    assert "Genel bakış" not in sekmeler.inner_text()

    page.locator("summary.kullanici").click()
    page.get_by_role("link", name="My account").click()
    page.wait_for_url(f"{url}/portal/hesap")
    page.get_by_role("heading", name="My account").wait_for()
    assert page.get_by_label("Language").input_value() == "en"
    assert page.get_by_role("button", name="Save").is_visible() and "Kaydet" not in _metin(page)

    sekmeler.get_by_role("link", name="Team").click()
    page.wait_for_url(f"{url}/portal/ekip")
    page.get_by_role("heading", name="Members").wait_for()
    metin = _metin(page)
    assert "Pending invitations" in metin and "Invite to the team" in metin and "Üyeler" not in metin
    page.fill("#id_email", "yeni@ornek.com")
    page.get_by_role("button", name="Create an invitation link").click()
    page.get_by_role("heading", name="Invitation link").wait_for()
    assert "valid for 7 days" in _metin(page)

    sekmeler.get_by_role("link", name="My projects").click()
    page.wait_for_url(f"{url}/portal/projelerim")
    page.get_by_role("heading", name="My projects").wait_for()
    metin = _metin(page)
    assert re.search(r"\b(9|10) days left\b", metin), metin
    assert "gün kaldı" not in metin and "Projelerim" not in metin
    assert _dil(page) == "en"


def test_switching_the_language_on_the_account_page_takes_effect_at_once_and_persists(live_server, tarayici):
    url = live_server.url
    user = _uye("tr", "ayse@ornek.com")
    page = _sayfa(tarayici, "tr-TR")
    _giris(page, url, user, "Giriş yap")
    assert _dil(page) == "tr" and "Genel bakış" in _metin(page)

    page.goto(f"{url}/portal/hesap")
    page.get_by_label("Dil").select_option("en")
    page.get_by_role("button", name="Kaydet").click()
    page.get_by_text("Your account details were saved.").wait_for()
    assert _dil(page) == "en"
    page.get_by_role("heading", name="My account").wait_for()
    assert page.get_by_label("Language").input_value() == "en"
    user.refresh_from_db()
    assert user.dil == "en"

    # Log out through the menu, then back in: still English, from a Turkish browser.
    page.locator("summary.kullanici").click()
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{url}/portal/giris")
    assert _dil(page) == "tr"  # signed out: the browser's language
    _giris(page, url, user, "Giriş yap")
    assert _dil(page) == "en"
    page.get_by_role("heading", name="Add the widget to your site").wait_for()

    # Back to Turkish.
    page.goto(f"{url}/portal/hesap")
    page.get_by_label("Language").select_option("tr")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Hesap bilgileriniz kaydedildi.").wait_for()
    assert _dil(page) == "tr" and "Hesabım" in _metin(page)
