"""Issue 24 ("Trust") in headless Chromium. The widget: the logo alone in the avatar, full screen
on a phone in either corner, a chat ends only after the visitor confirms it in the widget. The
portal: the look page's preview is the widget itself (issue 39) and shows what the embedded one
shows; the menu fits at 1366, 1280 and on a phone."""
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from chat.models import Oturum
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap, ulasilabilir_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .test_widget_e2e import _png

pytestmark = TARAYICI_ISARETLERI
EKRAN_DIZINI = Path(django_settings.BASE_DIR) / "docs" / "screenshots"  # PORTAL_EKRAN_KAYDET=1 writes there


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
            durum["musteri"] = MusteriFactory(**{"firma_adi": "Anadolu Yazılım", "renk_primary": "#2563EB", **alanlar})
            # Someone online: the widget shows the tenant's greeting, not the closed text (CONTRACT 15).
            ulasilabilir_yap(operator_yap(durum["musteri"]))
            return durum["musteri"]

        @staticmethod
        def musteri_sec(musteri):
            durum["musteri"] = musteri

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
def _portal(tarayici, live_server, musteri, genislik=1280, yukseklik=800, locale="tr-TR"):
    user = operator_yap(musteri, rol="sahip")
    context = tarayici.new_context(viewport={"width": genislik, "height": yukseklik}, locale=locale)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/")
    return context, page


# What a visitor reads and sees in the opened widget: the same selectors in the embedded widget and
# in the portal's preview (the real widget in a frame, issue 39).
GORUNEN = {"firma": "#sd-baslik", "durum": ".u p", "sekmeler": "[role=tab]", "baslik": ".hg h3", "karsilama": ".hg p.kr",
           "etiketler": ".hg ~ form label", "dugme": ".hg ~ form .d", "harf": ".lg", "kapali_notu": ".ic > .bl:visible"}
RENKLI = {"ust": ".u", "baslatici": ".l", "dugme": ".hg ~ form .d"}


def _gorunen(kok):
    """`kok`: a page (the embedded widget) or the preview's frame."""
    w = kok.locator("supportdesk-widget")
    w.locator(".hg h3").wait_for()
    expect(w.locator(".lg")).not_to_have_text("?")
    metinler = {ad: " | ".join(w.locator(secici).all_inner_texts()) for ad, secici in GORUNEN.items()}
    renkler = {ad: w.locator(secici).evaluate("e => getComputedStyle(e).backgroundColor") for ad, secici in RENKLI.items()}
    return {**metinler, **renkler}


def _onizleme(page):
    return page.frame_locator("[data-test=gorunum-onizleme]")


def _ekran(page, tmp_path, ad):
    page.screenshot(path=str(tmp_path / ad), full_page=True)
    if os.environ.get("PORTAL_EKRAN_KAYDET") == "1":
        EKRAN_DIZINI.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(EKRAN_DIZINI / ad), full_page=True)


@pytest.mark.parametrize("karsilama", ["", "Kargo sorularınız için buradayız"])
def test_look_preview_shows_what_the_widget_shows(tarayici, site, live_server, tmp_path, karsilama):
    musteri = site.kur(karsilama_metni=karsilama, renk_primary="#166534")
    musteri.firma_adi = "ılık Çay Evi"  # the avatar's letter is upper-cased the Turkish way, as in the widget
    musteri.save()
    context, page = _portal(tarayici, live_server, musteri)
    istekler = []
    page.on("request", lambda r: istekler.append(r.url) if "/api/v1/" in r.url or "/ws/" in r.url else None)
    page.goto(f"{live_server.url}/portal/gorunum")
    onizleme = _gorunen(_onizleme(page))
    page.screenshot(path=str(tmp_path / "onizleme.png"))
    # The widget itself, opened, without a word to the visitor API (no visitor, no socket).
    assert _onizleme(page).locator("supportdesk-widget #sd-panel").is_visible()
    assert page.evaluate("document.activeElement.tagName") != "IFRAME"  # opening took no focus from the page
    context.close()
    assert istekler == []

    context, page, _, _ = _ac(tarayici, site.url)
    widget = _gorunen(page)
    page.screenshot(path=str(tmp_path / "widget.png"))
    context.close()
    assert onizleme == widget
    assert widget["harf"] == "I"
    assert widget["sekmeler"] == "Sohbet | Talepler | Yardım"
    assert widget["ust"] == widget["baslatici"] == "rgb(22, 101, 52)"


def test_preview_follows_the_form_as_typed_and_falls_back_like_the_widget(tarayici, site, live_server, tmp_path):
    musteri = site.kur(karsilama_metni="Eski karşılama")
    context, page = _portal(tarayici, live_server, musteri)
    page.goto(f"{live_server.url}/portal/gorunum")
    w = _onizleme(page).locator("supportdesk-widget")
    expect(w.locator(".hg p.kr")).to_have_text("Eski karşılama")
    page.fill("#id_karsilama_metni", "Yeni karşılama")
    expect(w.locator(".hg p.kr")).to_have_text("Yeni karşılama")
    page.locator("#id_renk_primary").evaluate(
        "(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", "#9d174d")
    expect(w.locator(".u")).to_have_css("background-color", "rgb(157, 23, 77)")
    expect(w.locator(".l")).to_have_css("background-color", "rgb(157, 23, 77)")
    page.check("input[name=baslatici_konum][value=sol]")
    expect(w.locator(".k")).to_have_class(re.compile(r"\bsol\b"))
    cerceve_x = page.locator("[data-test=gorunum-onizleme]").bounding_box()["x"]
    assert w.locator(".l").bounding_box()["x"] - cerceve_x < 100  # the launcher in the bottom left of the frame
    (tmp_path / "logo.png").write_bytes(_png(64, 64))
    page.set_input_files("#id_logo", str(tmp_path / "logo.png"))
    expect(w.locator(".lg img")).to_have_attribute("src", re.compile("^blob:"))
    page.fill("#id_karsilama_metni", "   ")
    expect(w.locator(".hg p.kr")).not_to_have_text("Yeni karşılama")
    bos = w.locator(".hg p.kr").inner_text()
    musteri.refresh_from_db()
    assert (musteri.karsilama_metni, musteri.renk_primary, musteri.baslatici_konum) == ("Eski karşılama", "#2563EB", "sag")
    context.close()
    musteri.karsilama_metni = ""
    musteri.save()
    context, page, _, _ = _ac(tarayici, site.url)
    assert bos == _gorunen(page)["karsilama"] == "Bir mesaj yazın, ekibimiz en kısa sürede yanıtlasın."
    context.close()


def test_preview_shows_the_closed_states_as_the_widget_does(tarayici, site, live_server, tmp_path):
    musteri = site.kur(mesai_disi_mesaji="Hafta içi 09:00-18:00 arası buradayız.")
    context, page = _portal(tarayici, live_server, musteri)
    page.goto(f"{live_server.url}/portal/gorunum")
    w = _onizleme(page).locator("supportdesk-widget")
    expect(w.locator(".u p")).to_have_text("Temsilcilerimiz çevrimiçi")
    page.get_by_label("Mesai dışı").check()
    expect(w.locator(".hg p.kr")).to_have_text("Hafta içi 09:00-18:00 arası buradayız.")
    expect(w.locator(".u p")).to_have_text("Şu an çevrimdışıyız")
    expect(w.get_by_role("button", name="Destek talebi oluştur")).to_be_visible()
    page.get_by_label("Çevrimiçi kimse yok").check()
    expect(w.locator(".hg p.kr")).to_have_text("Şu an çevrimiçi temsilcimiz yok.")
    kapali = _gorunen(_onizleme(page))
    # A start in the preview sends nothing: the widget says it is a preview. (The widget is fixed in
    # its frame: the frame is brought into the page's view first.)
    page.locator("[data-test=gorunum-onizleme]").evaluate("e => e.scrollIntoView({block: 'end'})")
    w.locator("textarea[name=mesaj]").fill("Merhaba")
    w.get_by_role("button", name="Sohbeti başlat").click()
    expect(w.get_by_role("alert")).to_have_text("Bu bir önizleme: gönderilen bir şey yok.")
    page.get_by_label("Açık", exact=True).check()
    expect(w.locator(".hg p.kr")).to_have_text("Bir mesaj yazın, ekibimiz en kısa sürede yanıtlasın.")
    context.close()
    assert not Oturum.objects.filter(musteri=musteri).exists()

    # The embedded widget of a tenant with nobody online says the same.
    bos = MusteriFactory(firma_adi=musteri.firma_adi, renk_primary=musteri.renk_primary)
    site.musteri_sec(bos)
    context, page, _, _ = _ac(tarayici, site.url)
    assert _gorunen(page) == kapali
    context.close()


@pytest.mark.parametrize(("dil", "genislik", "yukseklik", "ad"), [
    ("tr", 1280, 1000, "portal-gorunum-onizleme.png"), ("tr", 390, 844, "portal-gorunum-onizleme-telefon.png"),
    ("en", 1280, 1000, "portal-gorunum-onizleme-en.png"), ("en", 390, 844, "portal-gorunum-onizleme-en-telefon.png")])
def test_preview_on_desktop_and_phone_in_both_languages(tarayici, live_server, tmp_path, dil, genislik, yukseklik, ad):
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım", renk_primary="#166534", dil="otomatik",
                             karsilama_metni="Kargo sorularınız için buradayız" if dil == "tr" else "Ask us about shipping")
    context, page = _portal(tarayici, live_server, musteri, genislik, yukseklik, locale="en-GB" if dil == "en" else "tr-TR")
    page.goto(f"{live_server.url}/portal/gorunum")
    w = _onizleme(page).locator("supportdesk-widget")
    sekmeler = ["Chat", "Requests", "Help"] if dil == "en" else ["Sohbet", "Talepler", "Yardım"]
    expect(w.get_by_role("tab")).to_have_text(sekmeler)
    panel = w.locator("#sd-panel").bounding_box()
    cerceve = page.locator("[data-test=gorunum-onizleme]").bounding_box()
    if genislik < 480:
        assert panel["width"] == pytest.approx(cerceve["width"] - 2, abs=2)  # the phone layout: the whole frame
    else:
        assert panel["width"] == pytest.approx(384, abs=1)  # the desktop panel
    assert page.evaluate("document.documentElement.scrollWidth") <= genislik
    _ekran(page, tmp_path, ad)
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
    assert all(ad in adlar for ad in ("E-posta", "Yönlendirme", "SLA", "Etiketler", "Gizlilik", "Projelerim",
                                      "Kişiler", "Kurallar")), adlar
    assert len(adlar) == 18, adlar
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
