"""The contact in the console's profile pane (CONTRACT 25), in headless Chromium against the live
service: an operator edits the contact's fields and typed attributes; a refused value shows its
message under its field and saves nothing; a good save shows at once and is what the API holds."""
import re

from playwright.sync_api import expect

from kisiler.models import Kisi, NitelikTanimi
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_tarayici import ok, ortam, sohbet_baslat  # noqa: F401  (ortam: the fixture)

pytestmark = TARAYICI_ISARETLERI


def test_profilde_kisiyi_duzenleme(ortam):  # noqa: F811
    for sira, (anahtar, ad, tur, secenekler) in enumerate([
            ("plan", "Plan", "secim", ["Temel", "Pro"]), ("koltuk", "Koltuk", "sayi", []),
            ("vip", "VIP", "evet_hayir", []), ("yenileme", "Yenileme", "tarih", [])]):
        NitelikTanimi.objects.create(musteri=ortam.a, anahtar=anahtar, ad=ad, tur=tur, secenekler=secenekler, sira=sira)
    _, oturum = sohbet_baslat(ortam.a, "z-kisi", ad="Ayşe Yılmaz")
    kisi = Kisi.objects.get(musteri=ortam.a)

    k = ortam.konsol(ortam.ben)
    page = k.page
    k.satir(oturum["id"]).get_by_role("button", name=re.compile("Kabul et")).click()
    profil = page.locator('[data-test="profil"]')
    bolum = profil.locator('[data-test="kisi"]')
    expect(bolum).to_contain_text("z-kisi")
    expect(bolum).to_contain_text("Koltuk")

    bolum.locator('[data-test="kisi-duzenle"]').click()
    form = bolum.locator('[data-test="kisi-form"]')
    form.locator('input[name="email"]').fill("eposta-degil")
    form.locator('input[name="telefon"]').fill("+90 555 000 11 22")
    form.locator('select[name="nitelikler.plan"]').select_option("Pro")
    form.locator('input[name="nitelikler.koltuk"]').fill("12")
    form.locator('input[name="nitelikler.vip"]').check()
    form.locator('input[name="nitelikler.yenileme"]').fill("2027-01-31")
    form.locator('[data-test="kisi-kaydet"]').click()
    expect(form.locator('[data-alan="email"] .alan-hata')).to_contain_text("e-posta")
    kisi.refresh_from_db()
    assert kisi.telefon == "" and kisi.nitelikler == {}

    form.locator('input[name="email"]').fill("ayse@ornek.com")
    form.locator('input[name="ad"]').fill("Ayşe Yılmaz Kaya")
    form.locator('[data-test="kisi-kaydet"]').click()
    expect(bolum.locator('[data-alan="nitelikler.plan"] dd')).to_have_text("Pro")
    expect(bolum.locator('[data-alan="telefon"] dd')).to_have_text("+90 555 000 11 22")
    expect(profil.locator("dl").first).to_contain_text("Ayşe Yılmaz Kaya")
    expect(profil.locator("dl").first).to_contain_text("ayse@ornek.com")
    kisi.refresh_from_db()
    assert (kisi.ad, kisi.email, kisi.telefon) == ("Ayşe Yılmaz Kaya", "ayse@ornek.com", "+90 555 000 11 22")
    assert kisi.nitelikler == {"plan": "Pro", "koltuk": 12, "vip": True, "yenileme": "2027-01-31"}
