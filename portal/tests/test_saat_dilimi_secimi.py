"""Issue 39.8: the time-zone choice is not an unfiltered list of hundreds: common zones first, the
rest grouped by region with their offsets (a plain grouped select without script), and a search box
over it in the browser."""
import re

import pytest

from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium
from tenants.models import Musteri
from tenants.takvim import saat_dilimi_listesi

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
URL = "/portal/yonlendirme"


def _secim(html: str) -> str:
    bas = html.index('<select id="saat_dilimi"')
    return html[bas:html.index("</select>", bas)]


@pytest.mark.parametrize(("dil", "sik", "avrupa"), [("tr", "Sık kullanılanlar", "Avrupa"), ("en", "Common", "Europe")])
def test_common_zones_first_then_regions_each_zone_once(musteri, dil, sik, avrupa):
    user = operator_yap(musteri, rol="sahip")
    user.dil = dil
    user.save(update_fields=["dil"])
    secim = _secim(giris_yapmis(user).get(URL).content.decode())
    gruplar = re.findall(r'<optgroup label="([^"]+)">', secim)
    assert gruplar[0] == sik and avrupa in gruplar and len(gruplar) >= 8
    degerler = re.findall(r'<option value="([^"]+)"', secim)
    assert sorted(degerler) == sorted(saat_dilimi_listesi())  # every zone, once
    ilk_grup = secim[:secim.index("</optgroup>")]
    assert '<option value="Europe/Istanbul" selected>Europe/Istanbul (UTC+03:00)</option>' in ilk_grup
    assert 'value="America/New_York"' in ilk_grup and 'value="Pacific/Fiji"' not in ilk_grup
    assert 'data-suzgec="' in secim


def test_a_zone_outside_the_common_ones_stays_selected(musteri):
    Musteri.objects.filter(pk=musteri.pk).update(saat_dilimi="Pacific/Fiji")
    secim = _secim(giris_yapmis(operator_yap(musteri, rol="sahip")).get(URL).content.decode())
    assert secim.count(" selected") == 1 and re.search(r'<option value="Pacific/Fiji" selected>Pacific/Fiji \(UTC', secim)


@TARAYICI_ISARETLERI[0]
@TARAYICI_ISARETLERI[1]
@TARAYICI_ISARETLERI[2]
def test_in_chromium_typing_filters_the_zones_and_the_choice_is_saved(live_server, musteri):
    user = operator_yap(musteri, rol="sahip")
    with chromium() as tarayici:
        context = tarayici.new_context(viewport={"width": 390, "height": 844}, locale="tr-TR")
        context.set_default_timeout(10_000)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/portal/giris")
            page.fill("#id_email", user.email)
            page.fill("#id_sifre", TEST_SIFRE)
            page.click("button[type=submit]")
            page.wait_for_url(f"{live_server.url}/portal/")
            page.goto(f"{live_server.url}{URL}")
            kutu = page.locator("input.suzgec-kutusu")
            assert kutu.get_attribute("placeholder").startswith("Saat dilimi ara")
            gorunen = "() => [...document.querySelectorAll('#saat_dilimi option')].filter(o => !o.hidden).map(o => o.value)"
            assert len(page.evaluate(gorunen)) > 300
            kutu.fill("berl")
            assert page.evaluate(gorunen) == ["Europe/Berlin"]
            assert not page.is_visible("text=Eşleşen saat dilimi yok.")
            assert page.input_value("#saat_dilimi") == "Europe/Berlin"
            kutu.fill("+03")
            assert "Europe/Istanbul" in page.evaluate(gorunen) and "Europe/Berlin" not in page.evaluate(gorunen)
            kutu.fill("İSTANBUL")  # Turkish casing folds
            assert page.evaluate(gorunen) == ["Europe/Istanbul", "Asia/Istanbul"]  # common first
            kutu.fill("new york")
            assert page.evaluate(gorunen) == ["America/New_York"]
            assert page.evaluate("() => [...document.querySelectorAll('#saat_dilimi optgroup')]"
                                 ".filter(g => !g.hidden).length") == 1
            kutu.fill("qqq")
            assert page.evaluate(gorunen) == [] and page.is_visible("text=Eşleşen saat dilimi yok.")
            kutu.fill("tokyo")
            page.click("form[data-test=yonlendirme-formu] button[type=submit]")
            page.wait_for_url(f"{live_server.url}{URL}")
            assert Musteri.objects.get(pk=musteri.pk).saat_dilimi == "Asia/Tokyo"
        finally:
            context.close()
