"""The console's language in headless Chromium (CONTRACT 19): before login the page's (the browser's),
after login the member's own `dil` (else still the browser's). Words, `<html lang>`, dates and the
`Accept-Language` of the console's API calls follow it; Turkish stays as it was."""
import re

import pytest

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap, widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_tarayici import ok, sohbet_baslat

pytestmark = TARAYICI_ISARETLERI
# 26.11.2026 14:05 (tr) / 11/26/2026, 2:05 PM (en): the same moment in each language's own format.
TR_TARIH = re.compile(r"\b\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}")
EN_TARIH = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}, \d{1,2}:\d{2}:\d{2} (AM|PM)")


class DilliKonsol:
    def __init__(self, tarayici, url, locale):
        self.context = tarayici.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.hatalar: list[str] = []
        self.page.on("pageerror", lambda e: self.hatalar.append(str(e)))
        # The Accept-Language of every API call the console makes.
        self.api_dilleri: list[tuple[str, str]] = []
        self.page.on("request", lambda r: self.api_dilleri.append((r.url, r.headers.get("accept-language", "")))
                     if "/api/v1/" in r.url else None)
        self.url = url

    def giris(self, user, eposta, sifre, dugme, sekme):
        self.page.goto(self.url)
        self.page.get_by_label(eposta, exact=True).fill(user.email)
        self.page.get_by_label(sifre, exact=True).fill(TEST_SIFRE)
        self.page.get_by_role("button", name=dugme).click()
        self.page.get_by_role("tab", name=re.compile(sekme)).wait_for()
        return self

    def lang(self):
        return self.page.evaluate("document.documentElement.lang")

    def kapat(self):
        assert not self.hatalar, self.hatalar
        self.context.close()


@pytest.fixture
def ortam(asgi_sunucu, tarayici):
    from supportdesk.celery import app as celery_app

    # Search rows are written by a task after each commit: run it in the committing thread.
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    konsollar = []

    class Ortam:
        musteri = MusteriFactory(firma_adi="Anadolu Yazılım", renk_primary="#2563EB")

        def uye(self, email, dil):
            user = operator_yap(self.musteri, email=email)
            user.dil = dil
            user.save(update_fields=["dil"])
            return user

        def konsol(self, locale):
            k = DilliKonsol(tarayici, f"{asgi_sunucu}/panel/", locale)
            konsollar.append(k)
            return k

    try:
        yield Ortam()
        for k in konsollar:
            k.kapat()
    finally:
        celery_app.conf.task_always_eager = onceki


def ticket_ac(musteri, ziyaretci_id="z-talep"):
    return ok(widget_client(musteri).post("/api/v1/widget/ticket/create", {
        "ziyaretci_id": ziyaretci_id, "konu": "Fatura sorunu", "mesaj": "Faturam gelmedi.", "email": "t@ornek.com"},
        format="json"))["ticket"]


def test_ingilizce_uye_turkce_tarayicida_konsolu_ingilizce_gorur(ortam):
    uye = ortam.uye("en@ornek.com", "en")
    _, oturum = sohbet_baslat(ortam.musteri, "z-dil", ad="Jane Doe", mesaj="Hello, my invoice is missing.")
    ticket_ac(ortam.musteri)
    k = ortam.konsol("tr-TR")
    page = k.page
    # Before login: the page's language (the browser's Turkish).
    page.goto(k.url)
    assert k.lang() == "tr"
    page.get_by_role("heading", name="Operatör girişi").wait_for()
    k.giris(uye, "E-posta", "Şifre", "Giriş yap", "^All")
    # After login: the member's English, everywhere at once.
    assert k.lang() == "en"
    assert re.fullmatch(r"(\(\d+\) )?Operator console", page.title()), page.title()
    for ad in ("Chats", "Tickets", "Search", "Sign out"):
        page.get_by_role("button", name=ad, exact=True).wait_for()
    page.get_by_role("heading", name="My chats (0)").wait_for()
    page.get_by_role("heading", name="Queue (1)").wait_for()
    page.get_by_text("You have no chats.").wait_for()
    page.get_by_role("heading", name="Pick a chat").wait_for()
    assert page.locator("#durum option").all_inner_texts() == ["Online", "Busy", "Offline"]
    assert "Dashboard" == page.locator(".pano").get_attribute("aria-label")
    page.locator(".pano dt").get_by_text("Avg. rating").wait_for()
    satir = page.locator(f'.satir[data-id="{oturum["id"]}"]')
    assert re.search(r"waiting \d+ (sec|min)", satir.inner_text()), satir.inner_text()
    assert "Sohbet" not in page.locator("body").inner_text()

    # The conversation: senders, statuses, times in English; the server's own text as sent.
    satir.get_by_role("button", name=re.compile("^Accept")).click()
    log = page.get_by_role("log")
    log.get_by_text("Hello, my invoice is missing.").wait_for()
    kim = log.locator(".mesaj.ziyaretci .kim").first.inner_text()
    assert re.fullmatch(r"Visitor · \d{2}:\d{2} (AM|PM)", kim), kim
    page.get_by_role("button", name="Transfer", exact=True).wait_for()
    assert page.locator("#yazi").get_attribute("placeholder").startswith("Type a message…")
    page.get_by_role("group", name="What you're writing").get_by_role("button", name="Internal note").wait_for()

    # The shortcuts list.
    page.locator("#yazi").press("Escape")
    page.keyboard.press("?")
    yardim = page.get_by_role("dialog", name="Keyboard shortcuts")
    yardim.get_by_text("Accept the chat").wait_for()
    yardim.get_by_role("button", name="Close").click()

    # The search dialog: its words, a count, a result's date in the English format.
    page.get_by_role("button", name="Search", exact=True).click()
    arama = page.get_by_role("dialog", name="Search")
    kutu = arama.get_by_role("searchbox", name="Search")
    assert kutu.get_attribute("placeholder") == "Name, email, message, note or ticket subject…"
    assert arama.locator("#arama-tur option").all_inner_texts() == ["Everything", "Chat", "Ticket"]
    kutu.fill("i")
    arama.get_by_text("Type at least 2 characters.").wait_for()
    kutu.fill("invoice")
    arama.get_by_text("1 result", exact=True).wait_for()
    assert EN_TARIH.search(arama.locator(".arama-zaman").first.inner_text()), arama.locator(".arama-zaman").first.inner_text()
    assert arama.locator(".arama-tur").first.inner_text() == "Chat"
    kutu.fill("zzzyok")
    arama.get_by_text("No results.").wait_for()
    arama.get_by_role("button", name="Close").click()

    # Tickets: the filters, the statuses and priorities as words, the empty state of a filter.
    page.get_by_role("button", name="Tickets", exact=True).click()
    talep = page.locator("#talepler .satir").first
    talep.wait_for()
    assert "Open · Normal" in talep.inner_text()
    assert page.locator("#talep-durum option").all_inner_texts() == ["All statuses", "Open", "Pending", "Solved", "Closed"]
    page.locator("#talep-durum").select_option("cozuldu")
    page.get_by_text("No tickets.").wait_for()
    page.locator("#talep-durum").select_option("acik")
    talep.locator(".satir-ac").click()
    page.locator(".orta").get_by_text("Faturam gelmedi.").wait_for()
    assert EN_TARIH.search(page.locator(".orta .mesaj .kim").first.inner_text())
    page.get_by_role("button", name="Send reply", exact=True).wait_for()

    # The console's API calls asked for English (server messages match the console).
    sonra = [d for u, d in k.api_dilleri if "/panel/giris" not in u and "/panel/oturum" not in u]
    assert sonra and set(sonra) == {"en"}, set(sonra)


def test_dil_secmemis_uye_ingilizce_tarayicida_ingilizce(ortam):
    uye = ortam.uye("hic@ornek.com", "")
    k = ortam.konsol("en-US")
    k.page.goto(k.url)
    assert k.lang() == "en"
    k.page.get_by_role("heading", name="Operator sign-in").wait_for()
    k.giris(uye, "Email", "Password", "Sign in", "^All")
    assert k.lang() == "en"
    k.page.get_by_role("heading", name="My chats (0)").wait_for()
    k.page.get_by_role("heading", name="Queue (0)").wait_for()
    k.page.get_by_text("No chats waiting.").wait_for()
    assert {d for _u, d in k.api_dilleri} == {"en"}


def test_turkce_uye_konsolu_bugunku_turkcesiyle_gorur(ortam):
    """Even with an English browser: the login form in English, then the member's Turkish."""
    uye = ortam.uye("tr@ornek.com", "tr")
    _, oturum = sohbet_baslat(ortam.musteri, "z-tr")
    k = ortam.konsol("en-US")
    page = k.page
    k.giris(uye, "Email", "Password", "Sign in", "^Tümü")
    assert k.lang() == "tr"
    for ad in ("Sohbetler", "Talepler", "Ara", "Çıkış"):
        page.get_by_role("button", name=ad, exact=True).wait_for()
    page.get_by_role("heading", name="Sohbetlerim (0)").wait_for()
    page.get_by_role("heading", name="Kuyruk (1)").wait_for()
    page.get_by_text("Üzerinizde sohbet yok.").wait_for()
    page.get_by_role("heading", name="Bir sohbet seçin").wait_for()
    assert page.locator("#durum option").all_inner_texts() == ["Çevrimiçi", "Meşgul", "Çevrimdışı"]
    satir = page.locator(f'.satir[data-id="{oturum["id"]}"]')
    assert re.search(r"\d+ (sn|dk) bekliyor", satir.inner_text()), satir.inner_text()
    satir.get_by_role("button", name=re.compile("^Kabul et")).click()
    kim = page.get_by_role("log").locator(".mesaj.ziyaretci .kim").first
    kim.wait_for()
    assert re.fullmatch(r"Ziyaretçi · \d{2}:\d{2}", kim.inner_text()), kim.inner_text()
    page.locator("#yazi").press("Escape")
    page.keyboard.press("/")
    arama = page.get_by_role("dialog", name="Ara")
    arama.get_by_role("searchbox", name="Ara").fill("faturam")
    arama.get_by_text("1 sonuç", exact=True).wait_for()
    assert TR_TARIH.search(arama.locator(".arama-zaman").first.inner_text())
    assert {d for u, d in k.api_dilleri if "/panel/" not in u} == {"tr"}
