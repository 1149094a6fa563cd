"""End to end in real headless Chromium against the running service (issue 7, "Must show").

Sign up (and open the mailed link) -> create a second project -> choose between them after login -> switch with the header
dropdown -> add an allowed origin -> a widget call from another origin gets 403.
Screenshots go to a temporary directory, or to docs/screenshots/ with PORTAL_EKRAN_GORUNTULERI=1.
"""
import os
import re
from pathlib import Path

import pytest

from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium
from tenants.models import Kullanici, Musteri

from .yardimci import kayit_baglantisi

pytestmark = TARAYICI_ISARETLERI
SIFRE = "Mavi-Deniz-2026"


@pytest.fixture
def ekran_dizini(tmp_path):
    if os.environ.get("PORTAL_EKRAN_GORUNTULERI"):
        return Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    return tmp_path


@pytest.fixture(scope="module")
def tarayici():
    # One Chromium for the module (~2 s to start and stop on a loaded machine); each test has a
    # browser context of its own, closed after it (cookies, storage and pages never shared).
    with chromium() as browser:
        yield browser


def _widget_cagrisi(page, api_key: str) -> dict:
    """A widget call made by the page itself: the browser sets Origin to the page's origin."""
    return page.evaluate(
        """async (key) => {
            const r = await fetch('/api/v1/widget/init', {method: 'POST',
                headers: {'Content-Type': 'application/json', 'X-API-Key': key},
                body: JSON.stringify({ziyaretci_id: 'e2e-ziyaretci'})});
            return {status: r.status, body: await r.json()};
        }""",
        api_key,
    )


def test_signup_projects_switch_origin_whitelist(live_server, tarayici, ekran_dizini, webhook_alici):
    url = live_server.url
    context = tarayici.new_context(viewport={"width": 1280, "height": 860}, locale="tr-TR")
    page = context.new_page()
    page.set_default_timeout(30000)  # a loaded CI box is slow, not broken

    # Sign up: the user and a first project with a 14-day trial.
    page.goto(f"{url}/portal/kayit")
    page.fill("#id_ad", "Ayşe Yılmaz")
    page.fill("#id_email", "ayse@kuzeykitap.com")
    page.fill("#id_sifre", SIFRE)
    page.fill("#id_firma_adi", "Kuzey Kitap")
    page.screenshot(path=str(ekran_dizini / "portal-kayit.png"))
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/portal/kayit/gonderildi")  # the same page for a taken address
    page.goto(url + kayit_baglantisi("ayse@kuzeykitap.com"))  # the link of the mail
    page.click("[data-test=kayit-onayla]")
    page.wait_for_url(f"{url}/portal/")
    assert "14 gün" in page.inner_text("[data-test=trial]")
    user = Kullanici.objects.get(email="ayse@kuzeykitap.com")
    ilk = Musteri.objects.get(olusturan=user)

    # A second project through the self-service page.
    page.goto(f"{url}/portal/projelerim/yeni")
    page.fill("#id_firma_adi", "Güney Market")
    page.screenshot(path=str(ekran_dizini / "portal-proje-yeni.png"))
    page.click("form.kart button[type=submit]")
    page.wait_for_url(f"{url}/portal/")
    ikinci = Musteri.objects.get(firma_adi="Güney Market")
    assert page.inner_text(".proje-secici") .strip().startswith("Güney Market")
    page.screenshot(path=str(ekran_dizini / "portal-pano.png"), full_page=True)

    # Log out and in again: with two projects the choice comes first.
    page.click(".kullanici-menu summary")
    page.click("text=Çıkış yap")
    page.wait_for_url(f"{url}/portal/giris")
    page.screenshot(path=str(ekran_dizini / "portal-giris.png"))
    page.fill("#id_email", "ayse@kuzeykitap.com")
    page.fill("#id_sifre", SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/portal/projeler")
    page.screenshot(path=str(ekran_dizini / "portal-projeler.png"), full_page=True)
    page.click(f".proje-kart button[data-proje='{ilk.id}']")
    page.wait_for_url(f"{url}/portal/")
    assert "Kuzey Kitap" in page.inner_text(".proje-secici")
    user.refresh_from_db()
    assert user.musteri_id == ilk.id

    # Switch with the header dropdown, on the widget page (the switch keeps the page).
    page.goto(f"{url}/portal/widget")
    page.click("[data-test=proje-menu] summary")
    page.screenshot(path=str(ekran_dizini / "portal-proje-menusu.png"))
    page.click(f"[data-test=proje-menu] button[data-proje='{ikinci.id}']")
    page.wait_for_url(f"{url}/portal/widget")
    assert "Güney Market" in page.inner_text(".proje-secici")
    user.refresh_from_db()
    assert user.musteri_id == ikinci.id

    # A malformed origin is refused with a form error, nothing stored.
    page.fill("#id_origin", "shop.example.com/yol")
    page.click("#originler button:has-text('Ekle')")
    assert page.locator("#originler .alan-hata").is_visible()
    ikinci.refresh_from_db()
    assert ikinci.izinli_originler == []

    # With the list still empty, the widget answers this page's origin ...
    api_key = page.inner_text("#widget-anahtari").strip()
    assert api_key == ikinci.api_key
    assert _widget_cagrisi(page, api_key)["status"] == 200

    # ... then an allowed origin is added, and a call from any other origin gets 403.
    page.fill("#id_origin", "https://shop.example.com")
    page.click("#originler button:has-text('Ekle')")
    page.wait_for_url(f"{url}/portal/widget")
    assert "https://shop.example.com" in page.inner_text("[data-test=originler]")
    ikinci.refresh_from_db()
    assert ikinci.izinli_originler == ["https://shop.example.com"]
    page.click("text=Göster")
    page.wait_for_selector("[data-test=api-secret]")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ekran_dizini / "portal-widget.png"), full_page=True)
    sonuc = _widget_cagrisi(page, api_key)
    assert sonuc["status"] == 403, sonuc
    assert sonuc["body"]["hata"]["kod"] == "ORIGIN_IZINSIZ"
    # The first project's list is untouched: the setting went to the active project only.
    ilk.refresh_from_db()
    assert ilk.izinli_originler == []

    # Adding this page's own origin lets its widget calls through again.
    page.goto(f"{url}/portal/widget")
    page.fill("#id_origin", re.sub(r"/$", "", url))
    page.click("#originler button:has-text('Ekle')")
    page.wait_for_url(f"{url}/portal/widget")
    assert _widget_cagrisi(page, api_key)["status"] == 200

    # Webhooks: add an endpoint, send a test event, see the attempt in the log.
    from webhooks.teslimat import teslimatlari_simdi_gonder

    page.click("nav.sekmeler >> text=Webhook'lar")
    page.wait_for_url(f"{url}/portal/webhooks")
    page.fill("#id_url", webhook_alici.adres("/supportdesk"))
    page.check("input[value=yeni_chat]")
    page.check("input[value=chat_kapandi]")
    page.click("text=Webhook ekle")
    page.wait_for_url(re.compile(r".*/portal/webhooks/\d+$"))
    page.click("text=Test olayı gönder")
    page.wait_for_selector("[data-test=teslimatlar] >> text=webhook_test")
    page.click("details.gizli-kutu summary")
    page.screenshot(path=str(ekran_dizini / "portal-webhook-detay.png"), full_page=True)
    teslimatlari_simdi_gonder(musteri=ikinci)
    [istek] = webhook_alici.bekle(1)
    assert istek.headers["x-webhook-olay"] == "webhook_test"
    page.goto(f"{url}/portal/webhooks")
    page.click("[data-test=teslimatlar] details summary")
    assert "HTTP 200" in page.inner_text("[data-test=teslimatlar]")
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header belongs at the top of a full-page shot
    page.screenshot(path=str(ekran_dizini / "portal-webhooks.png"), full_page=True)
    context.close()


def test_pages_on_a_phone(live_server, tarayici, ekran_dizini):
    """The portal reads on a narrow screen: no horizontal scrolling, the menu still works."""
    from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
    from supportdesk.testing.fixtures import operator_yap

    a, b = MusteriFactory(firma_adi="Anadolu Yazılım"), MusteriFactory(firma_adi="Ege Turizm")
    user = operator_yap(a, b, rol="sahip", email="mobil@ornek.com")
    context = tarayici.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                   has_touch=True, locale="tr-TR")
    page = context.new_page()
    page.goto(f"{live_server.url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/projeler")
    page.click(f".proje-kart button[data-proje='{a.id}']")
    page.wait_for_url(f"{live_server.url}/portal/")
    for ad, yol in (("pano", "/portal/"), ("widget", "/portal/widget"), ("projelerim", "/portal/projelerim")):
        page.goto(f"{live_server.url}{yol}")
        genislik = page.evaluate("document.documentElement.scrollWidth")
        assert genislik <= 390, (yol, genislik)
        page.screenshot(path=str(ekran_dizini / f"portal-mobil-{ad}.png"), full_page=True)
    page.click("[data-test=proje-menu] summary")
    page.click(f"[data-test=proje-menu] button[data-proje='{b.id}']")
    page.wait_for_url(f"{live_server.url}/portal/projelerim")
    assert "Ege Turizm" in page.inner_text(".proje-secici")
    context.close()


def test_fourth_project_shows_the_limit_in_the_page(live_server, tarayici, ekran_dizini):
    from portal.services import proje_olustur
    from supportdesk.testing.factories import TEST_SIFRE, KullaniciFactory

    user = KullaniciFactory(email="hizli@ornek.com")
    for ad in ("Birinci", "İkinci", "Üçüncü"):
        proje_olustur(kullanici=user, firma_adi=ad)
    page = tarayici.new_page(viewport={"width": 1280, "height": 760}, locale="tr-TR")
    page.goto(f"{live_server.url}/portal/giris")
    page.fill("#id_email", user.email)
    page.fill("#id_sifre", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/projeler")
    page.goto(f"{live_server.url}/portal/projelerim/yeni")
    page.fill("#id_firma_adi", "Dördüncü")
    with page.expect_response(f"{live_server.url}/portal/projelerim") as yanit:
        page.click("form.kart button[type=submit]")
    assert yanit.value.status == 429
    uyari = page.locator("[data-test=limit]")
    assert uyari.is_visible() and "24 saat içinde en çok 3" in uyari.inner_text()
    page.screenshot(path=str(ekran_dizini / "portal-proje-limiti.png"))
    assert Musteri.objects.filter(olusturan=user).count() == 3
    page.close()


def test_choosing_by_the_projects_name_after_login(live_server, tarayici):
    """On the choice page the project's name is what one clicks; the header has no second copy."""
    from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
    from supportdesk.testing.fixtures import operator_yap

    a, b = MusteriFactory(firma_adi="Anadolu Yazılım"), MusteriFactory(firma_adi="Ege Turizm")
    user = operator_yap(a, b, rol="sahip", email="secim@ornek.com")
    page = tarayici.new_page(viewport={"width": 1280, "height": 760}, locale="tr-TR")
    page.goto(f"{live_server.url}/portal/login")
    page.fill("input[name=email]", user.email)
    page.fill("input[type=password]", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/projeler")
    assert page.locator("[data-test=proje-menu]").count() == 0
    page.click("text=Ege Turizm")
    page.wait_for_url(f"{live_server.url}/portal/")
    assert "Ege Turizm" in page.inner_text(".proje-secici")
    user.refresh_from_db()
    assert user.musteri_id == b.id
    page.close()
