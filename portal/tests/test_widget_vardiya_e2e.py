"""Issue 39 (a shift without surprises), the widget's points, in real headless Chromium against the
running service: closed hours with automatic routing say closed everywhere (Turkish and English, a
phone too), operators' avatars and names on chat messages and ticket replies, files staged until
Send, and the focus moving into the widget when it opens."""
import base64
import datetime as dt
import re
from zoneinfo import ZoneInfo

from django.utils import timezone

from portal.tests.test_widget_e2e import (  # noqa: F401
    DOSYA_OLAYI,
    _png,
    acik_oturum_id,
    demo,
    ok,
    sayfa,
    sohbet_baslat,
    tarayici,
)
from supportdesk.testing.fixtures import giris_yap, operator_yap, ulasilabilir_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants.services import kullanici_profil_guncelle

pytestmark = TARAYICI_ISARETLERI
HER_GUN = {g: [["00:00", "24:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}
AVATAR = "https://avatar.example/elif.png"


def _bugun_tatil(musteri, **alanlar):
    bugun = timezone.now().astimezone(ZoneInfo(musteri.saat_dilimi)).date()
    musteri.calisma_saatleri, musteri.tatiller = HER_GUN, [bugun.isoformat()]
    for ad, deger in alanlar.items():
        setattr(musteri, ad, deger)
    musteri.save()
    return bugun + dt.timedelta(days=1)


def _operator(musteri, ad="Elif Kaya", avatar=""):
    from rest_framework.test import APIClient

    user = operator_yap(musteri)
    kullanici_profil_guncelle(kullanici=user, ad=ad, avatar=avatar)
    ulasilabilir_yap(user)  # `cevrimici` and reachable: eligible for automatic assignment
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return user, client


def _panel(page):
    return page.locator("supportdesk-widget")


def test_closed_with_automatic_routing_says_closed_everywhere_until_taken_by_hand(sayfa, demo):  # noqa: F811
    musteri, url = demo
    _bugun_tatil(musteri, atama_modu="sirayla", mesai_disi_mesaji="Bugün tatildeyiz.")
    user, operator = _operator(musteri)
    page = sayfa.page
    page.goto(url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    panel = page.get_by_role("dialog")
    panel.get_by_text("Şu an çevrimdışıyız").wait_for()
    selamlama = panel.locator(".hg p").inner_text()
    assert "Bugün tatildeyiz." in selamlama and "Yeniden açılış" in selamlama, selamlama
    assert "en kısa sürede yanıtlasın" not in panel.inner_text()
    page.get_by_label("Mesajınız").fill("Siparişim nerede?")
    page.get_by_role("button", name="Sohbeti başlat").click()
    log = page.get_by_role("log")
    log.get_by_text("Siparişim nerede?").wait_for()
    page.get_by_role("status").get_by_text("Bugün tatildeyiz.").wait_for()
    assert "katıldı" not in log.inner_text()  # nobody was assigned while closed
    assert page.get_by_label("Mesajınız").get_attribute("placeholder") == "Mesajınızı bırakın; size döneceğiz…"
    assert panel.get_by_text("Şu an çevrimdışıyız").is_visible()
    sayfa.ekran("widget-mesai-disi-otomatik.png")

    # taken by hand: from then on the widget shows the operator as with any accepted chat
    oturum_id = acik_oturum_id(operator)
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/accept", format="json"))
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/message", {"icerik": "Bakıyorum."}, format="json"))
    log.get_by_text("Bakıyorum.").wait_for(timeout=15_000)
    page.get_by_role("status").get_by_text("Bir temsilciyle görüşüyorsunuz.").wait_for()
    panel.get_by_text("Temsilcilerimiz çevrimiçi").wait_for()
    assert page.get_by_label("Mesajınız").get_attribute("placeholder") == "Mesajınızı yazın…"
    assert not sayfa.hatalar


def test_closed_in_english_on_a_phone(tarayici, demo):  # noqa: F811
    musteri, url = demo
    _bugun_tatil(musteri, atama_modu="en_az_yuklu", dil="en")
    _operator(musteri)
    context = tarayici.new_context(viewport={"width": 390, "height": 844}, locale="en-US", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    hatalar = []
    page.on("pageerror", lambda e: hatalar.append(str(e)))
    page.goto(url)
    page.get_by_role("button", name=re.compile("Open support window")).click()
    panel = page.get_by_role("dialog")
    panel.get_by_text("We're offline right now").wait_for()
    metin = panel.inner_text()
    assert "our team will reply" not in metin and "as soon as possible" not in metin, metin
    selamlama = panel.locator(".hg p").inner_text()
    assert "We're currently outside our working hours." in selamlama and "We open again" in selamlama, selamlama
    page.get_by_label("Your message").fill("Where is my order?")
    page.get_by_role("button", name="Start chat").click()
    page.get_by_role("log").get_by_text("Where is my order?").wait_for()
    assert "joined" not in page.get_by_role("log").inner_text()
    assert page.get_by_label("Your message").get_attribute("placeholder") == "Leave your message; we'll get back to you…"
    # nothing Turkish on the English visitor's screen (the tenant's own name aside)
    ekran = panel.inner_text().replace(musteri.firma_adi, "")
    assert not re.search(r"[çğışöüÇĞİŞÖÜ]", ekran), ekran
    import os

    from portal.tests.test_widget_e2e import EKRAN_DIZINI
    if os.environ.get("WIDGET_EKRAN_KAYDET") == "1":
        page.screenshot(path=str(EKRAN_DIZINI / "widget-telefon-kapali-en.png"))
    assert not hatalar
    context.close()


def test_operator_avatar_and_name_on_chat_messages_and_ticket_replies(sayfa, demo):  # noqa: F811
    musteri, url = demo
    user, operator = _operator(musteri, avatar=AVATAR)
    page = sayfa.page
    page.route(AVATAR, lambda r: r.fulfill(body=_png(48, 48), content_type="image/png"))
    page.goto(url)
    sohbet_baslat(page)
    oturum_id = acik_oturum_id(operator)
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/accept", format="json"))
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/message", {"icerik": "Merhaba, ben Elif."}, format="json"))
    log = page.get_by_role("log")
    log.get_by_text("Merhaba, ben Elif.").wait_for(timeout=15_000)
    mesaj = log.locator(".m.o", has_text="Merhaba, ben Elif.")
    assert mesaj.locator(".oa").inner_text() == "Elif Kaya"
    avatar = mesaj.locator("img.av")
    assert avatar.get_attribute("src") == AVATAR
    page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=avatar.element_handle())

    # a ticket reply names the operator too (it said "Temsilci")
    page.get_by_role("tab", name="Talepler").click()
    page.get_by_role("button", name="Yeni talep").click()
    page.get_by_label("Konu").fill("İade")
    page.get_by_label("Açıklama").fill("Ürünü iade etmek istiyorum.")
    page.get_by_role("button", name="Talebi gönder").click()
    akis = page.get_by_role("log", name="İade")
    akis.get_by_text("Ürünü iade etmek istiyorum.").wait_for()
    [ticket] = ok(operator.get("/api/v1/operator/tickets"))["ticketlar"]
    ok(operator.post(f"/api/v1/operator/ticket/{ticket['id']}/reply", {"icerik": "İadeniz onaylandı."}, format="json"))
    page.get_by_role("button", name="Geri").click()
    page.get_by_role("button", name=re.compile("İade")).click()
    yanit = page.get_by_role("log", name="İade").locator(".m.o", has_text="İadeniz onaylandı.")
    yanit.wait_for()
    assert yanit.locator(".oa").inner_text() == "Elif Kaya"
    assert yanit.locator(".gz").inner_text() == "Elif Kaya:"
    assert yanit.locator("img.av").get_attribute("src") == AVATAR
    sayfa.ekran("widget-avatar.png")
    assert not sayfa.hatalar


def test_files_are_staged_until_send_several_at_once_and_removable(sayfa, demo):  # noqa: F811
    musteri, url = demo
    _, operator = _operator(musteri)
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    page.locator("supportdesk-widget input[type=file]").first.set_input_files(files=[
        {"name": "bir.png", "mimeType": "image/png", "buffer": _png()},
        {"name": "iki.pdf", "mimeType": "application/pdf", "buffer": pdf},
    ])
    kutu = page.get_by_label("Mesajınız")
    kutu.evaluate(DOSYA_OLAYI, ["paste", base64.b64encode(_png(80, 40)).decode(), "uc.png", "image/png"])
    for ad in ("bir.png", "iki.pdf", "uc.png"):
        page.get_by_text(re.compile(re.escape(ad) + r" · \d+ (KB|B)")).wait_for()
    page.get_by_role("button", name="Eki kaldır: iki.pdf").click()
    assert page.get_by_text(re.compile(r"iki\.pdf · ")).count() == 0
    assert sayfa.istekler("widget/upload") == []  # nothing is uploaded before Send
    sayfa.ekran("widget-ekler.png")
    kutu.fill("İki ekran görüntüsü.")
    page.get_by_role("button", name="Gönder").click()
    log = page.get_by_role("log")
    log.get_by_role("img", name="bir.png").wait_for()
    log.get_by_role("img", name="uc.png").wait_for()
    assert page.locator("supportdesk-widget .el .ec").count() == 0
    assert len(sayfa.istekler("widget/upload")) == 2

    oturum_id = acik_oturum_id(operator)
    mesajlar = ok(operator.get(f"/api/v1/operator/chat/{oturum_id}/messages"))["mesajlar"]
    ekli = [(m["icerik"], m["ek"]["ad"]) for m in mesajlar if m["ek"]]
    assert ekli == [("İki ekran görüntüsü.", "bir.png"), ("Ekler: uc.png", "uc.png")], ekli
    assert not sayfa.hatalar


def _odak(page) -> str:
    return page.evaluate("""() => { const k = document.querySelector('supportdesk-widget').shadowRoot;
      const el = k.activeElement; return el ? (el.getAttribute('aria-label') || el.name || el.tagName) : ''; }""")


def test_opening_moves_focus_into_the_widget_and_escape_gives_it_back(sayfa, demo):  # noqa: F811
    musteri, url = demo
    page = sayfa.page
    page.goto(url)
    acici = page.get_by_role("button", name=re.compile("Destek penceresini aç"))
    acici.focus()
    page.keyboard.press("Enter")
    page.get_by_role("dialog").wait_for()
    assert _odak(page) == "ad"  # the start form's first empty field
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="hidden")
    assert _odak(page).startswith("Destek penceresini aç")
    sohbet_baslat(page)
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="hidden")
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("dialog").wait_for()
    assert _odak(page) == "Mesajınız"  # an open chat: its composer, not "Sohbeti bitir"
