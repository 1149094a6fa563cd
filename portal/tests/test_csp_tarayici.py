"""The portal under its Content-Security-Policy (issue 24), in real headless Chromium: every page an
owner reaches from the demo data (crawled from the portal's own links) and the logged-out ones
carry the console's policy, and none of them trips it (no inline script or style attribute left)
or logs any other error; what the inline script did (project colours, the copy button, the
confirmation of destructive buttons) still works from the external file."""
import io
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command

from panel.views import CSP as KONSOL_CSP
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

pytestmark = TARAYICI_ISARETLERI

# The console's policy with `connect-src 'self'` (the portal opens no socket).
BEKLENEN_CSP = KONSOL_CSP.replace("connect-src 'self' ws: wss:", "connect-src 'self'")
IHLAL_DINLEYICISI = """
window.__ihlaller = [];
document.addEventListener('securitypolicyviolation', e =>
    window.__ihlaller.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
ATLANAN = ("/portal/cikis", "/portal/projeler/sec/")  # POST-only, or the end of the walk


@pytest.fixture
def sayfa(live_server):
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="tr-TR")
        context.set_default_timeout(30_000)
        context.add_init_script(IHLAL_DINLEYICISI)
        page = context.new_page()
        hatalar = []
        page.on("console", lambda m: hatalar.append(f"{page.url}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: hatalar.append(f"{page.url}: {e}"))
        page.hatalar = hatalar
        yield page


def _ac(page, url: str, beklenen_durum=200) -> None:
    yanit = page.goto(url)
    assert yanit.status == beklenen_durum, url
    assert yanit.headers.get("content-security-policy") == BEKLENEN_CSP, url
    page.wait_for_load_state("load")
    assert page.evaluate("window.__ihlaller") == [], url


def test_portal_sayfalari_csp_ile_calisir(sayfa, live_server):
    call_command("demo_verisi", stdout=io.StringIO())
    url, page = live_server.url, sayfa

    for yol in ("/portal/giris", "/portal/kayit", "/portal/sifremi-unuttum"):
        _ac(page, url + yol)
    _ac(page, url + "/portal/boyle-bir-sayfa-yok", beklenen_durum=404)
    page.hatalar.clear()  # Chromium logs the 404 of the page itself

    page.goto(f"{url}/portal/giris")
    page.fill("#id_email", "sahip@demo.local")
    page.fill("#id_sifre", "Destek2026!")
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/portal/projeler")
    page.locator("form.proje-kart button").first.click()
    page.wait_for_url(f"{url}/portal/")

    # Walk the portal's own links from the dashboard (first link of each path).
    gorulen, sira = set(), [f"{url}/portal/"]
    while sira:
        adres = sira.pop(0)
        _ac(page, adres)
        for href in page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)"):
            parca = urlsplit(href)
            if (href.startswith(f"{url}/portal/") and parca.path not in gorulen and "bicim=csv" not in href
                    and not parca.path.startswith(ATLANAN)):
                gorulen.add(parca.path)
                sira.append(href.split("#")[0])
    assert len(gorulen) >= 20, sorted(gorulen)  # list and detail pages of every part
    assert page.hatalar == [], "\n".join(page.hatalar)

    # Project colours come from data attributes now (the header's dot: the demo's #2563EB).
    page.goto(f"{url}/portal/projelerim")
    nokta = page.locator(".proje-secici .proje-nokta").first
    assert nokta.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(37, 99, 235)"
    # The user menu's e-mail is drawn as typed, never in the menu headers' upper case.
    eposta = page.locator(".menu-baslik.eposta")
    assert eposta.count() == 1 and "sahip@demo.local" in eposta.text_content()
    assert eposta.evaluate("e => getComputedStyle(e).textTransform") == "none"
    # Destructive buttons still ask first (dismissed: nothing is removed).
    page.goto(f"{url}/portal/widget")
    sorular = []
    page.on("dialog", lambda d: (sorular.append(d.message), d.dismiss()))
    page.locator("button[data-onay]").first.click()
    for _ in range(100):  # the question comes (and is dismissed) by the click's handler
        if sorular:
            break
        page.wait_for_timeout(50)
    assert sorular and page.url == f"{url}/portal/widget"
    assert page.evaluate("window.__ihlaller") == [] and page.hatalar == []
