"""The console's transfer dialog offers the chat's tenant's teams (CONTRACT 22, static/panel/ekipler.js):
a transfer to a team sends the chat back to that team's queue, in headless Chromium."""
import re

from chat.models import Oturum
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants import ekipler

from .test_konsol_tarayici import bekle, ortam, sohbet_baslat  # noqa: F401 (fixture)

pytestmark = TARAYICI_ISARETLERI


def test_transfer_to_a_team_from_the_console(ortam):  # noqa: F811
    satis = ekipler.ekip_olustur(musteri_id=ortam.a.id, ad="Satış", uyeler=[ortam.meslektas.id])
    ekipler.ekip_olustur(musteri_id=ortam.b.id, ad="Başka Proje")  # another tenant's: never offered
    k = ortam.konsol(ortam.ben)
    page = k.page
    _, oturum = sohbet_baslat(ortam.a, "z-ekip")
    k.satir(oturum["id"]).get_by_role("button", name=re.compile("Kabul et")).click()
    page.locator("#aktifler").locator(f'.satir[data-id="{oturum["id"]}"]').wait_for()
    page.get_by_role("button", name="Aktar", exact=True).click()
    hedef = page.get_by_label("Hedef")
    hedef.locator(f"option[value='ekip:{satis.id}']").wait_for(state="attached")
    assert "Başka Proje" not in hedef.inner_text()
    hedef.select_option(f"ekip:{satis.id}")
    page.get_by_role("dialog").get_by_role("button", name="Aktar").click()
    page.locator("#aktifler").locator(f'.satir[data-id="{oturum["id"]}"]').wait_for(state="detached")
    bekle(lambda: Oturum.objects.filter(pk=oturum["id"], ekip=satis, durum="bekliyor", operator=None).exists())
