"""CONTRACT 19 in headless Chromium: the portal's script speaks the page's language. The confirm
questions come from the page (rendered in the member's language); the copy button's "copied" word
comes from the script's small catalog, chosen by `<html lang>`."""
import pytest

from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

pytestmark = TARAYICI_ISARETLERI


@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser


def _portal(tarayici, live_server, musteri, dil, locale):
    user = operator_yap(musteri, rol="sahip")
    user.dil = dil
    user.save(update_fields=["dil"])
    context = tarayici.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/")
    return context, page


def _onay_sorusu(page) -> str:
    """The question of the widget key's "Regenerate" button, answered "no"."""
    sorular = []

    def reddet(dialog):
        sorular.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", reddet)
    page.locator("form:has(input[value=anahtar_yenile]) button").click()
    for _ in range(100):  # until the question has come (and been dismissed)
        if sorular:
            break
        page.wait_for_timeout(50)
    return sorular[0] if sorular else ""


def _kopyala(page) -> str:
    dugme = page.locator("button[data-kopyala=widget-anahtari]")
    dugme.click()
    page.wait_for_function("b => b.textContent.includes('✓')", arg=dugme.element_handle())
    return dugme.inner_text()


@pytest.mark.parametrize("dil, locale, soru, kopyalandi", [
    ("en", "en-US", "Regenerate the widget key? The old key stops working at once.", "Copied ✓"),
    ("tr", "tr-TR", "Widget anahtarı yenilensin mi? Eski anahtar hemen çalışmaz olur.", "Kopyalandı ✓"),
])
def test_the_portal_script_speaks_the_members_language(tarayici, live_server, musteri, dil, locale, soru, kopyalandi):
    context, page = _portal(tarayici, live_server, musteri, dil, locale)
    try:
        page.goto(f"{live_server.url}/portal/widget")
        assert _onay_sorusu(page) == soru
        musteri.refresh_from_db()
        assert page.locator("#widget-anahtari").inner_text() == musteri.api_key  # nothing regenerated
        assert page.evaluate("document.documentElement.lang") == dil
        assert _kopyala(page) == kopyalandi
    finally:
        context.close()
