"""Issue 39.5 (portal): the canned-response form shows the variables the service fills in, each
with what it becomes, in the member's language, and a click puts one at the caret."""
import pytest

from chat.models import HazirYanit
from chat.services import HAZIR_YANIT_DEGISKENLERI
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
HY = "/portal/hazir-yanitlar"


def _degiskenler_blogu(html: str) -> str:
    bas = html.index('data-test="degiskenler"')
    return html[bas:html.index("</ul>", bas)]


@pytest.mark.parametrize(("dil", "aciklama"), [("tr", "yanıtlayan operatörün görünen adı"),
                                               ("en", "the answering operator's display name")])
def test_new_and_edit_forms_list_every_variable_the_service_fills(musteri, dil, aciklama):
    user = operator_yap(musteri, rol="sahip")
    user.dil = dil
    user.save(update_fields=["dil"])
    t = giris_yapmis(user)
    yanit = HazirYanit.objects.create(musteri=musteri, kisayol="/selam", baslik="Selam", icerik="Merhaba")
    for yol in (HY, f"{HY}/{yanit.id}"):
        blok = _degiskenler_blogu(t.get(yol).content.decode())
        for ad in HAZIR_YANIT_DEGISKENLERI:
            assert f'data-degisken-ekle="{{{ad}}}"' in blok, (yol, ad)
        assert aciklama.replace("'", "&#x27;") in blok


def test_an_operator_member_sees_no_form_and_no_variables(musteri):
    t = giris_yapmis(operator_yap(musteri, rol="operator"))
    res = t.get(HY)
    assert 'data-test="degiskenler"' not in res.content.decode()


@TARAYICI_ISARETLERI[0]
@TARAYICI_ISARETLERI[1]
@TARAYICI_ISARETLERI[2]
def test_in_chromium_a_click_puts_the_variable_at_the_caret_and_it_is_saved(live_server, musteri):
    user = operator_yap(musteri, rol="sahip")
    with chromium() as tarayici:
        context = tarayici.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
        context.set_default_timeout(10_000)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/portal/giris")
            page.fill("#id_email", user.email)
            page.fill("#id_sifre", TEST_SIFRE)
            page.click("button[type=submit]")
            page.wait_for_url(f"{live_server.url}/portal/")
            page.goto(f"{live_server.url}{HY}")
            page.fill("#id_kisayol", "/merhaba")
            page.fill("#id_baslik", "Hello")
            page.fill("#id_icerik", "Hello , I am here.")
            page.evaluate("() => { const a = document.getElementById('id_icerik'); a.setSelectionRange(6, 6); }")
            page.click("[data-degisken-ekle='{ziyaretci_adi}']")
            assert page.input_value("#id_icerik") == "Hello {ziyaretci_adi}, I am here."
            page.click("form:has(#id_icerik) button[type=submit]")
            page.wait_for_url(f"{live_server.url}{HY}")
            assert HazirYanit.objects.get(musteri=musteri, kisayol="/merhaba").icerik == "Hello {ziyaretci_adi}, I am here."
        finally:
            context.close()
