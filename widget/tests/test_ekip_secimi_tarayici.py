"""The widget's "which department?" (CONTRACT 22) in headless Chromium: `widget/init` lists the teams
marked `widgetta_secilir`, the chat and ticket forms offer them, and what the visitor picks routes
the chat inside that team (its mode, its members only); in English too, and on a phone."""
import pytest

from chat.models import Oturum
from portal.tests import test_widget_e2e as e2e
from portal.tests.test_widget_e2e import Sayfa, yukle
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap, ulasilabilir_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants import ekipler
from tickets.models import Ticket

tarayici = e2e.tarayici

pytestmark = TARAYICI_ISARETLERI


@pytest.fixture
def sayfa_ac(tarayici, tmp_path):
    acilan = []

    def ac(locale: str, viewport=(1280, 800)) -> Sayfa:
        context = tarayici.new_context(viewport={"width": viewport[0], "height": viewport[1]}, locale=locale,
                                       is_mobile=viewport[0] < 500, has_touch=viewport[0] < 500)
        context.set_default_timeout(10_000)
        acilan.append(context)
        return Sayfa(context.new_page(), tmp_path)

    yield ac
    for context in acilan:
        context.close()


def _proje(live_server, settings, **alanlar):
    """The demo page's tenant with two teams offered in the widget (each with one member, both
    online, `sirayla`: a chat of a team goes to its member at once) and one that is not offered."""
    settings.DEBUG = True
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım", renk_primary="#2563EB", **alanlar)
    ayse, mehmet = operator_yap(musteri), operator_yap(musteri)
    ulasilabilir_yap(ayse, mehmet)
    satis = ekipler.ekip_olustur(musteri_id=musteri.id, ad="Satış", uyeler=[ayse.id], atama_modu="sirayla",
                                 widgetta_secilir=True)
    destek = ekipler.ekip_olustur(musteri_id=musteri.id, ad="Destek", uyeler=[mehmet.id], atama_modu="sirayla",
                                  widgetta_secilir=True)
    ekipler.ekip_olustur(musteri_id=musteri.id, ad="Muhasebe İç", uyeler=[ayse.id])  # not offered
    return musteri, satis, destek, ayse, mehmet, f"{live_server.url}/demo/"


def _secenekler(secim) -> list[str]:
    return secim.locator("option").all_inner_texts()


def test_the_visitor_picks_a_department_and_the_chat_is_routed_inside_it(sayfa_ac, live_server, settings):
    musteri, satis, destek, ayse, mehmet, url = _proje(live_server, settings)
    sayfa = sayfa_ac("tr-TR")
    page = sayfa.page
    yukle(page, url)
    page.get_by_role("button", name="Destek penceresini aç").click()
    secim = page.get_by_label("Hangi departman?")
    secim.wait_for()
    assert _secenekler(secim) == ["Seçiniz", "Destek", "Satış"]  # by name; the team not offered is not listed
    # Keyboard: the department is the form's first field.
    page.get_by_label("Mesajınız").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.querySelector('supportdesk-widget').shadowRoot.activeElement.name") == "ekip_id"
    secim.select_option(label="Destek")
    page.get_by_label("Mesajınız").fill("Siparişim gelmedi.")
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.get_by_role("log").get_by_text("Siparişim gelmedi.").wait_for()
    oturum = Oturum.objects.get(musteri=musteri)
    # Routed inside the team: its one member has it, the other member never had a chance.
    assert (oturum.ekip_id, oturum.operator_id, oturum.durum) == (destek.id, mehmet.id, "aktif")
    page.get_by_role("status").get_by_text("Bir temsilciyle görüşüyorsunuz.").wait_for()

    # The ticket form asks too.
    page.get_by_role("tab", name="Talepler").click()
    page.get_by_role("button", name="Yeni talep").click()
    panel = page.locator("#sd-g-talepler")
    talep_secim = panel.get_by_label("Hangi departman?")
    assert _secenekler(talep_secim) == ["Seçiniz", "Destek", "Satış"]
    talep_secim.select_option(label="Satış")
    panel.get_by_label("Konu", exact=True).fill("Fiyat teklifi")
    panel.get_by_label("Açıklama", exact=True).fill("100 lisans için.")
    panel.get_by_role("button", name="Talebi gönder").click()
    page.get_by_text("100 lisans için.").wait_for()
    assert Ticket.objects.get(musteri=musteri).ekip_id == satis.id
    assert sayfa.hatalar == []


def test_an_english_widget_on_a_phone_asks_which_department(sayfa_ac, live_server, settings):
    musteri, satis, destek, ayse, mehmet, url = _proje(live_server, settings, dil="en")
    sayfa = sayfa_ac("en-US", viewport=(390, 844))
    page = sayfa.page
    yukle(page, url)
    page.get_by_role("button", name="Open support window").click()
    secim = page.get_by_label("Which department?")
    secim.wait_for()
    assert _secenekler(secim) == ["Choose", "Destek", "Satış"]
    sayfa.ekran("widget-ekip-telefon-form-en.png")
    # It fits the phone: within the screen, no sideways scrolling, large enough to tap.
    kutu = secim.bounding_box()
    assert kutu["x"] >= 0 and kutu["x"] + kutu["width"] <= 390 and kutu["height"] >= 32
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    secim.select_option(label="Satış")
    page.get_by_label("Your message").fill("I need a quote.")
    page.get_by_role("button", name="Start chat").click()
    page.get_by_role("log").get_by_text("I need a quote.").wait_for()
    oturum = Oturum.objects.get(musteri=musteri)
    assert (oturum.ekip_id, oturum.operator_id) == (satis.id, ayse.id)
    sayfa.ekran("widget-ekip-telefon-en.png")
    assert sayfa.hatalar == []


def test_without_offered_teams_the_widget_asks_nothing(sayfa_ac, live_server, settings):
    settings.DEBUG = True
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    ekipler.ekip_olustur(musteri_id=musteri.id, ad="Muhasebe")  # a team, but not offered in the widget
    sayfa = sayfa_ac("tr-TR")
    page = sayfa.page
    yukle(page, f"{live_server.url}/demo/")
    page.get_by_role("button", name="Destek penceresini aç").click()
    page.get_by_label("Mesajınız").wait_for()
    assert page.get_by_label("Hangi departman?").is_hidden()
    page.get_by_label("Mesajınız").fill("Merhaba")
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.get_by_role("log").get_by_text("Merhaba").wait_for()
    assert Oturum.objects.get(musteri=musteri).ekip_id is None
