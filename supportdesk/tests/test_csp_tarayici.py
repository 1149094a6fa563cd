"""The Django admin and the API's Swagger page carry a Content-Security-Policy (issue 38) and
still work under it, in real headless Chromium: the page's scripts run (Swagger lists the
operations and opens one; the admin logs in, opens a tenant and adds an inline row) and the
browser reports no violation of the policy."""
import pytest

from supportdesk.testing.factories import TEST_SIFRE, KullaniciFactory, MusteriFactory
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

pytestmark = TARAYICI_ISARETLERI

# Every violation the page sees, as the browser reports it (the event, not only the console).
IHLAL_DINLEYICISI = """
window.__cspIhlalleri = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspIhlalleri.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


@pytest.fixture(scope="module")
def tarayici():
    # One Chromium for the module (~2 s to start and stop on a loaded machine); each test has a
    # browser context of its own, closed after it (cookies, storage and pages never shared).
    with chromium() as browser:
        yield browser


@pytest.fixture
def sayfa(tarayici):
    context = tarayici.new_context(viewport={"width": 1280, "height": 860}, locale="tr-TR")
    context.add_init_script(IHLAL_DINLEYICISI)
    page = context.new_page()
    page.set_default_timeout(30000)
    konsol = []
    page.on("console", lambda m: konsol.append(m.text) if "Content Security Policy" in m.text else None)
    page.konsol = konsol
    yield page
    context.close()


def _ihlaller(page) -> list:
    return page.evaluate("window.__cspIhlalleri") + page.konsol


def _politika(yanit) -> str:
    politika = yanit.headers.get("content-security-policy", "")
    assert "script-src 'self'" in politika and "unsafe-inline" not in politika, politika
    return politika


def test_the_swagger_page_has_a_policy_and_works_under_it(live_server, sayfa):
    _politika(sayfa.goto(f"{live_server.url}/api/v1/docs/"))
    sayfa.wait_for_selector(".opblock-tag-section")  # the schema was fetched and rendered by the scripts
    sayfa.locator(".opblock").first.click()
    sayfa.wait_for_selector(".opblock.is-open")
    assert sayfa.locator(".opblock").count() > 50
    assert _ihlaller(sayfa) == []


def test_the_admin_has_a_policy_and_works_under_it(live_server, sayfa):
    kok = KullaniciFactory(is_staff=True, is_superuser=True)
    musteri = MusteriFactory(firma_adi="Kuzey Kitap")
    _politika(sayfa.goto(f"{live_server.url}/admin/login/"))
    sayfa.fill("#id_username", kok.email)
    sayfa.fill("#id_password", TEST_SIFRE)
    sayfa.click("input[type=submit]")
    sayfa.wait_for_selector("#site-name")
    _politika(sayfa.goto(f"{live_server.url}/admin/tenants/musteri/{musteri.id}/change/"))
    # The inline's "add another" link is made by the admin's script (inlines.js), and adds a row.
    satirlar = sayfa.locator(".dynamic-uyelikler").count()
    sayfa.click(".add-row a")
    sayfa.wait_for_function(f"document.querySelectorAll('.dynamic-uyelikler').length > {satirlar}")
    # The user page's two-pane permission pickers (SelectFilter2.js) are built by script too.
    _politika(sayfa.goto(f"{live_server.url}/admin/tenants/kullanici/{kok.id}/change/"))
    sayfa.wait_for_selector(".selector-available")
    assert _ihlaller(sayfa) == []


def test_the_redoc_page_has_a_policy_and_works_under_it(live_server, sayfa):
    # It had none (an inline init script); now its scripts are this origin's only. Its run-time
    # <style> elements and search worker are the two things its policy adds.
    politika = sayfa.goto(f"{live_server.url}/api/v1/redoc/").headers.get("content-security-policy", "")
    assert "script-src 'self';" in politika and "worker-src blob:" in politika, politika
    assert "script-src 'self' 'unsafe" not in politika
    sayfa.wait_for_selector("[data-section-id]")  # the schema was fetched and rendered by the scripts
    assert sayfa.locator("[data-section-id]").count() > 50
    assert _ihlaller(sayfa) == []
