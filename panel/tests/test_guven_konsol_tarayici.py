"""Issue 24 ("Trust") in the operator console, headless Chromium: the empty middle pane says what
to do; banner icons are drawn as SVG (emoji show as empty boxes without an emoji font, as on this
machine), chosen by the item's icon value or kind, while the API keeps its `icon` values."""
import re

import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap, widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_tarayici import Konsol, ok, sohbet_baslat

pytestmark = TARAYICI_ISARETLERI
EMOJI = "[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]"


@pytest.fixture
def konsol(live_server, tarayici, tmp_path):
    acik = []

    def ac(user, viewport=(1280, 800)):
        k = Konsol(tarayici, f"{live_server.url}/panel/", tmp_path, viewport).giris(user)
        acik.append(k)
        return k

    yield ac
    for k in acik:
        k.kapat()


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_empty_pane_says_what_to_do(konsol, viewport):
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    k = konsol(operator_yap(musteri), viewport)
    page = k.page
    if viewport[0] < 500:
        page.get_by_role("button", name="Sohbet", exact=True).click()
    bos = page.locator("[data-test=bos-bolme]")
    bos.wait_for()
    metin = bos.inner_text()
    assert "Bir sohbet seçin" in metin and "Kuyruk" in metin, metin
    assert bos.locator("kbd", has_text="?").count() == 1  # the shortcut list is one key away
    k.ekran(f"panel-bos-{viewport[0]}.png")
    page.keyboard.press("?")
    page.get_by_role("dialog", name="Klavye kısayolları").wait_for()
    page.keyboard.press("Escape")
    if viewport[0] < 500:
        return
    page.get_by_role("button", name="Talepler", exact=True).click()
    page.locator("[data-test=bos-bolme]", has_text="Bir talep seçin").wait_for()


def test_banner_icons_are_svg_chosen_by_icon_or_kind(konsol):
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    w = widget_client(musteri)
    ok(w.post("/api/v1/context/customer-info", {
        "ziyaretci_id": "z-ikon", "ad": "Ayşe", "paket": "Pro", "kontor": 0,
        "ekstra": {"trial_kalan_gun": 2, "depolama_kullanilan_gb": 10, "depolama_toplam_gb": 50}}, format="json"))
    _, oturum = sohbet_baslat(musteri, "z-ikon")
    k = konsol(operator_yap(musteri))
    k.satir(oturum["id"]).locator(".satir-ac").click()
    banner = k.page.locator(".banner li")
    banner.first.wait_for()
    ikonlar = {b.get_attribute("data-tip"): b.locator(".ikon svg").get_attribute("data-ikon") for b in banner.all()}
    assert ikonlar == {"paket": "paket", "kontor": "kontor", "trial": "trial", "depolama": "depolama"}, ikonlar
    serit = k.page.locator(".kritik-serit")
    assert serit.locator("svg").count() == 2  # kontor 0 and 2 days of trial are critical
    assert not re.search(EMOJI, k.page.locator(".baglam").inner_text())
    # What is drawn has ink: a visible, non-empty box.
    kutu = banner.first.locator(".ikon svg").bounding_box()
    assert kutu and kutu["width"] >= 14 and kutu["height"] >= 14
    k.ekran("panel-banner-ikonlari.png")
