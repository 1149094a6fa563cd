"""Views, multi-select and bulk changes in the console (CONTRACT 24), headless Chromium against the
live service: the views sidebar's counts follow the socket; two chats selected with `x` get a
label in one bulk action; an open chat is snoozed from its header and counts as snoozed."""
from playwright.sync_api import expect

from chat.models import Oturum
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants.etiketler import etiket_olustur

from .test_konsol_tarayici import bekle, ortam, sohbet_baslat  # noqa: F401  (the fixture)

pytestmark = TARAYICI_ISARETLERI


def test_select_two_chats_with_x_and_label_them_in_bulk(ortam):  # noqa: F811
    etiket = etiket_olustur(musteri_id=ortam.a.id, ad="VIP")
    _, bir = sohbet_baslat(ortam.a, "z-toplu-1", ad="Bir")
    _, iki = sohbet_baslat(ortam.a, "z-toplu-2", ad="İki")
    k = ortam.konsol(ortam.ben)
    page = k.page
    atanmamis = page.locator('[data-sayi="sohbet-atanmamis"]')
    expect(atanmamis).to_have_text("2")
    for o in (bir, iki):
        k.satir(o["id"]).wait_for()

    # `j` moves to a row, `x` selects it: both rows, then the bar says so.
    for _ in range(2):
        page.keyboard.press("j")
        page.keyboard.press("x")
    cubuk = page.get_by_role("toolbar", name="Toplu eylemler")
    expect(cubuk.locator(".secili-sayisi")).to_have_text("2 seçili")
    for o in (bir, iki):
        expect(k.satir(o["id"]).locator(".secim-kutusu")).to_be_checked()
    expect(cubuk.locator(f'#toplu-etiket option[value="{etiket.id}"]')).to_have_count(1)
    cubuk.locator("#toplu-etiket").select_option(str(etiket.id))
    cubuk.get_by_role("button", name="Etiket ekle").click()
    for o in (bir, iki):
        expect(k.satir(o["id"]).locator(".etiket-cip")).to_have_text("VIP")
    expect(cubuk).to_be_hidden()  # what changed leaves the selection
    assert set(Oturum.objects.filter(etiketler=etiket).values_list("id", flat=True)) == {bir["id"], iki["id"]}

    # The mouse selects too (and unselects).
    kutu = k.satir(bir["id"]).locator(".secim-kutusu")
    kutu.check()
    expect(cubuk.locator(".secili-sayisi")).to_have_text("1 seçili")
    kutu.uncheck()
    expect(cubuk).to_be_hidden()

    # A new chat reaches the sidebar's count through the socket, no reload.
    sohbet_baslat(ortam.a, "z-toplu-3", ad="Üç")
    expect(atanmamis).to_have_text("3")

    # Snooze an open chat from its header: it leaves the queue and counts as snoozed.
    k.satir(iki["id"]).locator(".satir-ac").click()
    page.locator(".sohbet-baslik").get_by_role("button", name="Ertele").click()
    page.get_by_role("dialog").get_by_role("button", name="Ziyaretçi yazana dek").click()
    expect(page.locator('[data-sayi="sohbet-ertelenen"]')).to_have_text("1")
    expect(atanmamis).to_have_text("2")
    expect(page.locator("#kuyruk").locator(f'.satir[data-id="{iki["id"]}"]')).to_have_count(0)
    bekle(lambda: Oturum.objects.get(pk=iki["id"]).ertelendi_ziyaretci)
    # The snoozed view lists it.
    page.locator('button.gorunum[data-tur="sohbet"][data-gorunum="ertelenen"]').click()
    expect(page.locator("#gorunum-listesi .satir")).to_have_count(1)
    expect(page.locator(f'#gorunum-listesi .satir[data-id="{iki["id"]}"]')).to_have_count(1)
    k.ekran("gorunumler-toplu.png")


def test_shift_click_selects_a_range_and_the_bar_fits_a_phone(ortam):  # noqa: F811
    """Shift-click takes every row between the last one toggled and this one (as in every inbox);
    a second Shift-click with the box going off takes them off again. On a phone the bar fits."""
    sohbetler = [sohbet_baslat(ortam.a, f"z-aralik-{i}", ad=f"Ziyaretçi {i}")[1] for i in range(4)]
    k = ortam.konsol(ortam.ben)
    page = k.page
    for o in sohbetler:
        k.satir(o["id"]).wait_for()
    kuyruk = page.locator("#kuyruk")
    sira = [int(i) for i in kuyruk.locator(".satir").evaluate_all("els => els.map(e => e.dataset.id)")]
    kutu = lambda oid: k.satir(oid).locator(".secim-kutusu")  # noqa: E731
    kutu(sira[0]).click()
    kutu(sira[2]).click(modifiers=["Shift"])
    cubuk = page.get_by_role("toolbar", name="Toplu eylemler")
    expect(cubuk.locator(".secili-sayisi")).to_have_text("3 seçili")
    for oid in sira[:3]:
        expect(kutu(oid)).to_be_checked()
    expect(kutu(sira[3])).not_to_be_checked()
    kutu(sira[1]).click(modifiers=["Shift"])  # off: the range from the anchor (sira[2]) to it goes off
    expect(cubuk.locator(".secili-sayisi")).to_have_text("1 seçili")
    expect(kutu(sira[0])).to_be_checked()
    # A plain click still toggles one row only.
    kutu(sira[3]).click()
    expect(cubuk.locator(".secili-sayisi")).to_have_text("2 seçili")
    k.ekran("gorunumler-shift-secim.png")

    # A phone: the rows and the bar stay inside the screen.
    telefon = ortam.konsol(ortam.ben, viewport=(390, 844))
    tp = telefon.page
    for o in sohbetler[:2]:
        telefon.satir(o["id"]).wait_for()
        telefon.satir(o["id"]).locator(".secim-kutusu").click()
    tcubuk = tp.get_by_role("toolbar", name="Toplu eylemler")
    expect(tcubuk.locator(".secili-sayisi")).to_have_text("2 seçili")
    genislik = tp.evaluate("() => document.documentElement.scrollWidth")
    assert genislik <= 390, genislik
    telefon.ekran("gorunumler-toplu-telefon.png")

