"""Issue 24 ("Trust") in headless Chromium. The widget: the logo alone in the avatar, full screen
on a phone in either corner, a chat ends only after the visitor confirms it in the widget. The
portal: the look page's preview shows what the widget shows; the menu fits at 1366, 1280 and on
a phone."""
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap, ulasilabilir_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .test_widget_e2e import _png

pytestmark = TARAYICI_ISARETLERI


@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser


@pytest.fixture
def site(live_server):
    """The tenant's site on another origin: `/` embeds the widget of `site.musteri`, `/logo.png` is a logo."""
    durum = {"musteri": None}
    logo = _png(64, 64)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/logo.png":
                govde, tip = logo, "image/png"
            else:
                govde, tip = (
                    f"<!doctype html><html lang='tr'><head><meta charset='utf-8'>"
                    f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>Mağaza</title></head>"
                    f"<body><h1>Mağaza</h1><script src='{live_server.url}/static/widget/widget.js' "
                    f"data-api-key='{durum['musteri'].api_key}' async></script></body></html>").encode(), "text/html"
            self.send_response(200)
            self.send_header("Content-Type", tip)
            self.send_header("Content-Length", str(len(govde)))
            self.end_headers()
            self.wfile.write(govde)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    class Site:
        url = f"http://127.0.0.1:{server.server_address[1]}/"

        @staticmethod
        def kur(**alanlar):
            durum["musteri"] = MusteriFactory(firma_adi="Anadolu Yazılım", renk_primary="#2563EB", **alanlar)
            # Someone online: the widget shows the tenant's greeting, not the closed text (CONTRACT 15).
            ulasilabilir_yap(operator_yap(durum["musteri"]))
            return durum["musteri"]

    yield Site()
    server.shutdown()
    server.server_close()


def _ac(tarayici, url, tmp_path=None, genislik=1280, yukseklik=800):
    context = tarayici.new_context(viewport={"width": genislik, "height": yukseklik}, locale="tr-TR")
    context.set_default_timeout(10_000)
    page = context.new_page()
    api, dialoglar = [], []
    page.on("request", lambda r: api.append(r.url) if "/api/v1/" in r.url and r.method != "OPTIONS" else None)
    page.on("dialog", lambda d: (dialoglar.append(d.message), d.dismiss()))
    with page.expect_response(lambda r: "/api/v1/widget/campaigns" in r.url):
        page.goto(url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    return context, page, api, dialoglar


def test_logo_is_shown_alone_in_the_avatar(tarayici, site, tmp_path):
    site.kur(logo_url=site.url + "logo.png")
    context, page, _, _ = _ac(tarayici, site.url)
    kutu = page.locator("supportdesk-widget .lg")
    kutu.locator("img").wait_for()
    page.wait_for_function("() => document.querySelector('supportdesk-widget').shadowRoot"
                           ".querySelector('.lg img').naturalWidth > 0")
    page.screenshot(path=str(tmp_path / "logo.png"))
    assert kutu.evaluate("e => e.textContent.trim()") == ""  # no letter under or beside the image
    assert kutu.evaluate("e => e.childNodes.length") == 1
    context.close()


def test_without_a_logo_the_avatar_is_the_letter(tarayici, site):
    site.kur()
    context, page, _, _ = _ac(tarayici, site.url)
    kutu = page.locator("supportdesk-widget .lg")
    page.get_by_role("heading", name="Anadolu Yazılım").wait_for()
    assert kutu.evaluate("e => e.textContent") == "A" and kutu.locator("img").count() == 0
    context.close()


def test_a_logo_that_does_not_load_falls_back_to_the_letter(tarayici, site):
    site.kur(logo_url=site.url + "yok.png")  # the server answers HTML: not an image
    context, page, _, _ = _ac(tarayici, site.url)
    page.wait_for_function("() => document.querySelector('supportdesk-widget').shadowRoot"
                           ".querySelector('.lg').textContent === 'A'")
    assert page.locator("supportdesk-widget .lg img").count() == 0
    context.close()


@pytest.mark.parametrize("konum", ["sag", "sol"])
def test_panel_fills_a_phone_screen_in_either_corner(tarayici, site, tmp_path, konum):
    site.kur(baslatici_konum=konum)
    context, page, _, _ = _ac(tarayici, site.url, genislik=390, yukseklik=844)
    panel = page.get_by_role("dialog")
    panel.wait_for()
    panel.evaluate("e => Promise.all(e.getAnimations().map(a => a.finished))")  # the opening slide
    page.screenshot(path=str(tmp_path / f"telefon-{konum}.png"))
    assert panel.bounding_box() == {"x": 0, "y": 0, "width": 390, "height": 844}
    context.close()


def test_desktop_panel_keeps_its_corner(tarayici, site):
    site.kur(baslatici_konum="sol")
    context, page, _, _ = _ac(tarayici, site.url)
    page.get_by_role("dialog").evaluate("e => Promise.all(e.getAnimations().map(a => a.finished))")
    kutu = page.get_by_role("dialog").bounding_box()
    assert kutu["x"] == 20 and kutu["width"] == 384
    context.close()


def test_ending_a_chat_asks_first_in_the_widget(tarayici, site, tmp_path):
    site.kur()
    context, page, api, dialoglar = _ac(tarayici, site.url)
    page.get_by_label("Mesajınız").fill("Kargom nerede?")
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.get_by_role("log").get_by_text("Kargom nerede?").wait_for()

    page.get_by_role("button", name="Sohbeti bitir").click()
    page.get_by_role("status").get_by_text("Sohbet sonlandırılsın mı?").wait_for()
    page.screenshot(path=str(tmp_path / "bitir-sor.png"))
    assert page.get_by_role("button", name="Vazgeç").evaluate("e => e === e.getRootNode().activeElement")
    page.get_by_role("button", name="Vazgeç").click()
    page.get_by_role("button", name="Sohbeti bitir").wait_for()
    assert not [u for u in api if "/widget/chat/end" in u]

    page.get_by_role("button", name="Sohbeti bitir").click()
    with page.expect_response(lambda r: "/api/v1/widget/chat/end" in r.url):
        page.get_by_role("button", name="Evet, bitir").click()
    page.get_by_role("status").get_by_text("Görüşme sona erdi.").wait_for()
    assert not dialoglar  # never window.confirm
    context.close()


# --- the portal ------------------------------------------------------------------------------
def _portal(tarayici, live_server, musteri, genislik=1280, yukseklik=800):
    user = operator_yap(musteri, rol="sahip")
    context = tarayici.new_context(viewport={"width": genislik, "height": yukseklik}, locale="tr-TR")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/")
    return context, page


def _onizleme(page):
    kutu = page.locator("[data-test=gorunum-onizleme]")
    secim = {"firma": ".wg-firma", "baslik": ".wg-hosgeldin", "karsilama": ".wg-karsilama", "dugme": ".wg-dugme",
             "harf": ".wg-logo"}
    return {ad: kutu.locator(secici).inner_text() for ad, secici in secim.items()}


def _widget(page):
    w = "supportdesk-widget"
    page.locator(f"{w} .hg h3").wait_for()
    page.wait_for_function("() => document.querySelector('supportdesk-widget').shadowRoot.querySelector('.lg')"
                           ".textContent !== '?'")
    secim = {"firma": "#sd-baslik", "baslik": ".hg h3", "karsilama": ".hg p", "dugme": "form .d", "harf": ".lg"}
    return {ad: page.locator(f"{w} {secici}").inner_text() for ad, secici in secim.items()}


@pytest.mark.parametrize("karsilama", ["", "Kargo sorularınız için buradayız"])
def test_look_preview_shows_what_the_widget_shows(tarayici, site, live_server, tmp_path, karsilama):
    musteri = site.kur(karsilama_metni=karsilama)
    musteri.firma_adi = "ılık Çay Evi"  # the avatar's letter is upper-cased the Turkish way, as in the widget
    musteri.save()
    context, page = _portal(tarayici, live_server, musteri)
    page.goto(f"{live_server.url}/portal/gorunum")
    onizleme = _onizleme(page)
    page.screenshot(path=str(tmp_path / "onizleme.png"))
    context.close()

    context, page, _, _ = _ac(tarayici, site.url)
    widget = _widget(page)
    page.screenshot(path=str(tmp_path / "widget.png"))
    context.close()
    assert onizleme == widget
    assert widget["harf"] == "I"


def test_preview_follows_the_greeting_as_typed_and_falls_back_like_the_widget(tarayici, site, live_server):
    musteri = site.kur(karsilama_metni="Eski karşılama")
    context, page = _portal(tarayici, live_server, musteri)
    page.goto(f"{live_server.url}/portal/gorunum")
    page.fill("#id_karsilama_metni", "Yeni karşılama")
    assert _onizleme(page)["karsilama"] == "Yeni karşılama"
    page.fill("#id_karsilama_metni", "   ")
    bos = _onizleme(page)["karsilama"]
    context.close()
    musteri.karsilama_metni = ""
    musteri.save()
    context, page, _, _ = _ac(tarayici, site.url)
    assert bos == _widget(page)["karsilama"]
    context.close()


@pytest.mark.parametrize(("genislik", "yukseklik"), [(1366, 768), (1280, 800), (390, 844)])
def test_portal_menu_shows_every_section(tarayici, live_server, tmp_path, genislik, yukseklik):
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    context, page = _portal(tarayici, live_server, musteri, genislik, yukseklik)
    page.goto(f"{live_server.url}/portal/gorunum")
    page.screenshot(path=str(tmp_path / f"menu-{genislik}.png"))
    nav = page.get_by_role("navigation", name="Portal")
    baglantilar = nav.get_by_role("link")
    adlar = baglantilar.all_inner_texts()
    assert all(ad in adlar for ad in ("E-posta", "Yönlendirme", "SLA", "Etiketler", "Gizlilik", "Projelerim")), adlar
    assert len(adlar) == 16, adlar
    assert nav.evaluate("n => n.scrollWidth <= n.clientWidth"), "the menu scrolls sideways"
    for i in range(baglantilar.count()):
        kutu = baglantilar.nth(i).bounding_box()
        assert kutu and kutu["x"] >= 0 and kutu["x"] + kutu["width"] <= genislik, (adlar[i], kutu)
    assert page.evaluate("document.documentElement.scrollWidth") <= genislik
    # Each one is reachable by a click where it is drawn.
    with page.expect_navigation():
        nav.get_by_role("link", name="Projelerim").click()
    assert page.url.endswith("/portal/projelerim")
    context.close()
