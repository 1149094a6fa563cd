"""CONTRACT 23 in the console (headless Chromium, live service): the macro menu of an open chat,
by its button and by the key `u`; a macro applies as the operator (claims the waiting chat, its
message and label show), and a refused one shows the service's message and changes nothing."""
import re

from chat.models import Oturum
from otomasyon.models import Makro
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants.etiketler import etiket_olustur

from .test_konsol_tarayici import bekle, ortam, sohbet_baslat  # noqa: F401 (the fixture)

pytestmark = TARAYICI_ISARETLERI


def test_makro_menusu_bekleyen_sohbete_uygular_reddi_gosterir(ortam):  # noqa: F811
    vip = etiket_olustur(musteri_id=ortam.a.id, ad="VIP")
    Makro.objects.create(musteri=ortam.a, ad="Karşıla", sahip=ortam.ben, eylemler=[
        {"tur": "etiket_ekle", "etiket_id": vip.id}, {"tur": "mesaj", "icerik": "Merhaba, hemen bakıyorum."}])
    Makro.objects.create(musteri=ortam.a, ad="Çöz", sahip=ortam.ben, paylasimli=True, eylemler=[
        {"tur": "etiket_ekle", "etiket_id": vip.id}, {"tur": "durum", "durum": "cozuldu"}])  # a chat refuses `durum`
    Makro.objects.create(musteri=ortam.a, ad="Başkasının", sahip=ortam.meslektas, eylemler=[{"tur": "kapat"}])
    _, oturum = sohbet_baslat(ortam.a, "z-makro")
    k = ortam.konsol(ortam.ben)
    page = k.page
    k.satir(oturum["id"]).locator(".satir-ac").click()
    page.get_by_role("log").get_by_text("Merhaba, faturam hakkında bir sorum var.").wait_for()

    # The refused macro: its message in the dialog, the chat as it was.
    page.locator("[data-test=makro-ac]").click()
    menu = page.locator("[data-test=makrolar]")
    menu.get_by_role("button", name="Çöz").wait_for()
    assert menu.get_by_role("button").count() == 2  # a colleague's personal macro is not offered
    menu.get_by_role("button", name="Çöz").click()
    page.locator(".makro-menu .hata").filter(has_text=re.compile(".+")).wait_for()
    assert Oturum.objects.get(pk=oturum["id"]).etiketler.count() == 0
    page.get_by_role("button", name="Vazgeç").click()

    # The key `u` opens it too; "Karşıla" claims the waiting chat and writes as the operator.
    page.locator("body").press("u")
    menu.get_by_role("button", name=re.compile("Karşıla")).click()
    menu.wait_for(state="hidden")
    page.get_by_role("log").get_by_text("Merhaba, hemen bakıyorum.").wait_for()
    page.locator(".baslik-etiketler").get_by_text("VIP").wait_for()
    page.locator("#aktifler").locator(f'.satir[data-id="{oturum["id"]}"]').wait_for()
    bekle(lambda: Oturum.objects.get(pk=oturum["id"]).operator_id == ortam.ben.id)
