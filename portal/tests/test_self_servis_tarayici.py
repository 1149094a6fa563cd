"""Owners' self-service in real headless Chromium (issue 16, "Must show"): the look set in the
portal reaches the widget, and an article's script never runs in the preview or in the widget."""
import re

import pytest
from playwright.sync_api import expect

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap, ulasilabilir_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .test_hazir_yanit_kampanya import PNG

pytestmark = TARAYICI_ISARETLERI
XSS = "**Ödeme** adımları.\n\n<script>window.__xss=1</script>\n\n<img src=x onerror=\"window.__xss=2\">"


@pytest.fixture(scope="module")
def tarayici():
    # One Chromium for the module (~2 s to start and stop on a loaded machine); each test has a
    # browser context of its own, closed after it (cookies, storage and pages never shared).
    with chromium() as browser:
        yield browser


@pytest.fixture
def sayfa(tarayici, live_server, settings, tmp_path):
    settings.DEBUG = True  # the /demo/ host page
    context = tarayici.new_context(viewport={"width": 1280, "height": 860}, locale="tr-TR")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(f"dialog: {d.message}")))
    yield page
    context.close()


def portala_gir(page, url, user):
    page.goto(f"{url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/portal/")


def test_widget_takes_the_colour_logo_and_greeting_set_in_the_portal(sayfa, live_server, tmp_path):
    url, page = live_server.url, sayfa
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    portala_gir(page, url, operator_yap(musteri, rol="sahip"))
    page.goto(f"{url}/portal/gorunum")
    page.locator("#id_renk_primary").evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }",
                                              "#166534")
    page.fill("#id_karsilama_metni", "Kargo sorularınız için buradayız")
    (tmp_path / "logo.png").write_bytes(PNG)
    page.set_input_files("#id_logo", str(tmp_path / "logo.png"))
    page.check("input[name=baslatici_konum][value=sol]")
    # Live preview follows the form before anything is saved.
    onizleme = page.frame_locator("[data-test=gorunum-onizleme]").locator("supportdesk-widget")
    expect(onizleme.locator(".hg p.kr")).to_have_text("Kargo sorularınız için buradayız")
    expect(onizleme.locator(".l")).to_have_css("background-color", "rgb(22, 101, 52)")
    page.get_by_role("button", name="Kaydet").click()
    page.get_by_text("Görünüm kaydedildi").wait_for()

    ulasilabilir_yap(operator_yap(musteri))  # someone online: the greeting, not the closed text (CONTRACT 15)
    with page.expect_response(lambda r: "/api/v1/widget/init" in r.url):
        page.goto(f"{url}/demo/")
    baslatici = page.get_by_role("button", name=re.compile("Destek penceresini aç"))
    baslatici.wait_for()
    page.wait_for_function("""() => {
        const k = document.querySelector('supportdesk-widget').shadowRoot.querySelector('.k');
        return k && k.style.getPropertyValue('--r') === '#166534';
    }""")
    renk = baslatici.evaluate("e => getComputedStyle(e).backgroundColor")
    assert renk == "rgb(22, 101, 52)"
    kutu = baslatici.bounding_box()
    assert kutu["x"] < 200  # bottom left
    baslatici.click()
    page.get_by_text("Kargo sorularınız için buradayız").wait_for()
    logo = page.locator("supportdesk-widget .lg img")
    logo.wait_for()
    assert "/media/logolar/" in logo.get_attribute("src")
    assert logo.evaluate("img => img.complete && img.naturalWidth") == 1
    page.screenshot(path=str(tmp_path / "widget-gorunum.png"))


def test_article_script_never_runs_in_the_preview_or_the_widget(sayfa, live_server):
    url, page = live_server.url, sayfa
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    portala_gir(page, url, operator_yap(musteri, rol="sahip"))
    page.goto(f"{url}/portal/bilgi-bankasi/makale/yeni")
    page.fill("#id_baslik", "Fatura")
    page.fill("#id_icerik_markdown", XSS)
    onizleme = page.locator("#kb-onizleme")
    onizleme.locator("strong", has_text="Ödeme").wait_for()
    assert onizleme.locator("script").count() == 0
    page.check("#id_yayinda")
    page.click("#makale-form button[type=submit]")
    page.get_by_text("kaydedildi ve yayında").wait_for()
    assert page.evaluate("window.__xss") is None

    page.goto(f"{url}/demo/")
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("tab", name="Yardım").click()
    page.get_by_label("Yardım merkezinde ara").press_sequentially("faturamı", delay=30)
    sonuc = page.get_by_role("button", name=re.compile("Fatura"))
    sonuc.wait_for()
    sonuc.click()
    makale = page.get_by_role("article")
    makale.get_by_text("Ödeme", exact=True).wait_for()
    page.wait_for_timeout(300)  # a window for what must not happen: an onerror handler running
    assert makale.locator("script").count() == 0
    assert page.evaluate("window.__xss") is None
