"""/portal/kisiler in headless Chromium (CONTRACT 25): reached from the menu, searched with Turkish
folding, a CSV imported through the file field (then shown), and the export downloaded with its
formula-like cells neutralised (CONTRACT 13)."""
import csv
import io

import pytest
from playwright.sync_api import expect

from kisiler.models import Kisi, KisiZiyaretci
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

pytestmark = TARAYICI_ISARETLERI


@pytest.fixture
def tarayici():
    with chromium() as browser:
        yield browser


def test_kisiler_menu_arama_ice_ve_disa_aktarma(live_server, tarayici, tmp_path):
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    b = MusteriFactory(firma_adi="Ege Turizm")
    user = operator_yap(a, rol="sahip", email="kisi-sahip@ornek.com")
    k = Kisi.objects.create(musteri=a, ad="Ayşe Öztürk", email="ayse@ornek.com", email_anahtari="ayse@ornek.com")
    KisiZiyaretci.objects.create(musteri=a, kisi=k, ziyaretci_id="z-ayse")
    Kisi.objects.create(musteri=b, ad="Başka Öztürk")

    page = tarayici.new_page(viewport={"width": 1280, "height": 800}, locale="tr-TR", accept_downloads=True)
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/portal/giris")
    page.fill("input[name=email]", user.email)
    page.fill("input[type=password]", TEST_SIFRE)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/portal/")
    page.click("[data-test=menu-kisiler]")
    page.wait_for_url(f"{live_server.url}/portal/kisiler")
    tablo = page.locator("[data-test=kisiler]")
    expect(tablo).to_contain_text("Ayşe Öztürk")
    expect(tablo).not_to_contain_text("Başka")

    page.fill("input[name=q]", "OZTURK")
    page.get_by_role("button", name="Ara").click()
    expect(tablo.locator("tbody tr")).to_have_count(1)
    expect(tablo).to_contain_text("z-ayse")

    dosya = tmp_path / "yeni.csv"
    dosya.write_text("ad,email,sirket\n=Mehmet Can,mehmet@ornek.com,@Firma\n", encoding="utf-8")
    page.set_input_files("input[name=dosya]", str(dosya))
    page.get_by_role("button", name="İçe aktar").click()
    expect(page.locator(".bildirim")).to_contain_text("1 yeni kişi")
    expect(tablo).to_contain_text("=Mehmet Can")

    with page.expect_download() as indirme:
        page.click("[data-test=kisiler-csv]")
    yol = indirme.value.path()
    satirlar = list(csv.reader(io.StringIO(open(yol, encoding="utf-8-sig").read())))
    adlar = {s[1] for s in satirlar[1:]}
    assert adlar == {"Ayşe Öztürk", "'=Mehmet Can"}, satirlar
    assert any(s[4] == "'@Firma" for s in satirlar[1:]), satirlar

    # A bad file: the page says which row, and writes nothing.
    dosya.write_text("ad,email\nBir,eposta-degil\n", encoding="utf-8")
    page.set_input_files("input[name=dosya]", str(dosya))
    page.get_by_role("button", name="İçe aktar").click()
    expect(page.locator("[data-test=kisiler-hatalar]")).to_contain_text("Satır 2")
    assert Kisi.objects.filter(musteri=a).count() == 2
    page.close()
