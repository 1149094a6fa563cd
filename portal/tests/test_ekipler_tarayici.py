"""The portal's teams page in real headless Chromium (CONTRACT 22): an owner reaches it from the
members page, creates a team with a member, a mode and the widget flag, and renames it."""
from playwright.sync_api import expect

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants.models import Ekip

from .test_self_servis_tarayici import portala_gir, sayfa, tarayici  # noqa: F401 (fixtures)

pytestmark = TARAYICI_ISARETLERI


def test_an_owner_creates_and_renames_a_team_in_the_portal(sayfa, live_server):  # noqa: F811
    url, page = live_server.url, sayfa
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
    sahip = operator_yap(musteri, rol="sahip")
    uye = operator_yap(musteri, email="ayse@ornek.com")
    portala_gir(page, url, sahip)
    page.goto(f"{url}/portal/ekip")
    page.locator("[data-test=ekipler-baglantisi]").click()
    page.wait_for_url(f"{url}/portal/ekipler")
    yeni = page.locator("[data-test=yeni-ekip]")
    yeni.locator("input[name=ad]").fill("Satış")
    yeni.locator("select[name=atama_modu]").select_option("sirayla")
    yeni.locator("input[name=widgetta_secilir]").check()
    yeni.locator(f"input[name=uyeler][value='{uye.id}']").check()
    yeni.get_by_role("button", name="Ekip oluştur").click()
    expect(page.get_by_text("“Satış” ekibi eklendi.")).to_be_visible()
    ekip = Ekip.objects.get(musteri=musteri)
    assert (ekip.atama_modu, ekip.widgetta_secilir) == ("sirayla", True)
    assert list(ekip.uyelikler.values_list("kullanici_id", flat=True)) == [uye.id]
    kart = page.locator(f"[data-ekip='{ekip.id}']")
    expect(kart.locator(f"input[name=uyeler][value='{uye.id}']")).to_be_checked()
    kart.locator("input[name=ad]").fill("Satış Ekibi")
    kart.get_by_role("button", name="Kaydet").click()
    expect(page.get_by_text("“Satış Ekibi” ekibi kaydedildi.")).to_be_visible()
    ekip.refresh_from_db()
    assert ekip.ad == "Satış Ekibi" and ekip.widgetta_secilir is True
