"""The widget outside hours and inside them (CONTRACT 15), in real headless Chromium: closed, it
shows the tenant's closed text and the ticket offer and never promises a queue; open with someone
reachable, its queue text."""
import re

from portal.tests.test_widget_e2e import demo, ok, operator_istemcisi, sayfa, sohbet_baslat, tarayici  # noqa: F401
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

pytestmark = TARAYICI_ISARETLERI
KAPALI = "Şu an kapalıyız; yarın 09:00'da buradayız."


def test_closed_widget_shows_the_closed_text_and_the_ticket_form(sayfa, demo):  # noqa: F811
    musteri, url = demo
    musteri.calisma_saatleri, musteri.mesai_disi_mesaji = {}, KAPALI  # never open
    musteri.save()
    ok(operator_istemcisi(musteri).post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    page = sayfa.page
    page.goto(url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_text(KAPALI).wait_for()  # on the start screen, before any chat
    page.get_by_label("Mesajınız").fill("Merhaba")
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.get_by_role("log").get_by_text("Merhaba").wait_for()
    durum = page.get_by_role("status")
    durum.get_by_text(KAPALI).first.wait_for()
    assert "birazdan" not in durum.inner_text() and "Sıranız" not in durum.inner_text()
    # the server's sistem line with the offer, and the offer card opening the ticket form
    page.get_by_role("log").get_by_text(re.compile("destek talebi bırakabilirsiniz")).wait_for()
    page.locator("[data-oneri] button").click()
    page.get_by_label("Konu").wait_for()
    assert page.get_by_role("button", name="Talebi gönder").is_visible()
    sayfa.ekran("widget-mesai-disi.png")


def test_open_widget_with_someone_reachable_shows_its_queue_text(sayfa, demo):  # noqa: F811
    musteri, url = demo
    musteri.calisma_saatleri = {g: [["00:00", "24:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}
    musteri.save()
    ok(operator_istemcisi(musteri).post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    page.get_by_role("status").get_by_text("Sıranız: 1. Bir temsilci birazdan bağlanacak.").wait_for()
    assert page.locator("[data-oneri]").count() == 0


def test_open_but_nobody_reachable_offers_the_ticket_instead_of_the_queue(sayfa, demo):  # noqa: F811
    _, url = demo
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    durum = page.get_by_role("status")
    durum.get_by_text(re.compile("çevrimiçi temsilcimiz yok")).wait_for()
    assert "birazdan" not in durum.inner_text()
    page.locator("[data-oneri]").wait_for()
