"""Daily use of the widget in real headless Chromium (issue 13): a reload keeps the chat that just
ended (transcript, rating), the name and e-mail are remembered, operators' names show on their
messages, and a chat nobody can answer is turned into a ticket from the widget."""
import re
from datetime import timedelta

from django.utils import timezone

from chat.models import Mesaj, Oturum
from chat.tasks import zaman_asimlari
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants.models import Kullanici
from tickets.models import Ticket

from .test_widget_e2e import (  # noqa: F401  (fixtures: the browser, a page, the demo host page)
    acik_oturum_id,
    demo,
    ok,
    operator_istemcisi,
    sayfa,
    sohbet_baslat,
    tarayici,
    yukle,
)

pytestmark = TARAYICI_ISARETLERI


def test_yenileyince_son_sohbet_okunur_puanlanir_ad_eposta_hatirlanir(sayfa, demo):  # noqa: F811
    musteri, url = demo
    operator = operator_istemcisi(musteri)
    page = sayfa.page
    yukle(page, url)
    sohbet_baslat(page)
    oturum_id = acik_oturum_id(operator)
    kullanici = Kullanici.objects.get(uyelikler__musteri=musteri)
    kullanici.ad = "Mert Kaya"
    kullanici.save(update_fields=["ad"])
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/accept", {}, format="json"))
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/message", {"icerik": "Faturanız düzeltildi."}, format="json"))
    log = page.get_by_role("log")
    log.get_by_text("Mert Kaya sohbete katıldı.").wait_for()
    log.get_by_text("Faturanız düzeltildi.").wait_for()
    # the operator's name is shown on its message
    mesaj = page.locator("supportdesk-widget .m.o").filter(has_text="Faturanız düzeltildi.")
    assert mesaj.locator(".oa").inner_text() == "Mert Kaya"
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/close", {}, format="json"))
    page.get_by_role("button", name="5 yıldız").wait_for()

    # reload: the transcript and the rating card come back
    yukle(page, url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    log.get_by_text("Faturanız düzeltildi.").wait_for()
    log.get_by_text("Merhaba, faturam hakkında bir sorum var.").wait_for()
    page.get_by_role("button", name="4 yıldız").click()
    page.get_by_role("button", name="Değerlendirmeyi gönder").click()
    page.get_by_text("Değerlendirmeniz için teşekkürler!").wait_for()
    assert Oturum.objects.get(pk=oturum_id).puan == 4

    # a new chat: name and e-mail typed once are filled in
    page.get_by_role("button", name="Yeni sohbet başlat").first.click()
    assert page.get_by_label("Adınız").input_value() == "Ayşe Yılmaz"
    assert page.get_by_label("E-posta adresiniz").input_value() == "ayse@example.com"
    yukle(page, url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("button", name="Yeni sohbet başlat").first.click()
    assert page.get_by_label("E-posta adresiniz").input_value() == "ayse@example.com"
    assert not sayfa.dialoglar and not sayfa.hatalar, sayfa.hatalar


def test_kimse_yokken_sohbet_widgettan_ticketa_donusur(sayfa, demo):  # noqa: F811
    musteri, url = demo
    page = sayfa.page
    yukle(page, url)
    sohbet_baslat(page, mesaj="Kargom nerede?")
    oturum = Oturum.objects.get(musteri=musteri)
    # Nobody reachable: offered at once, with one sistem line (CONTRACT 15), and not again by the
    # periodic rule once the wait is over.
    assert oturum.ticket_onerildi is not None
    assert list(Mesaj.objects.filter(oturum=oturum).values_list("gonderen", flat=True)) == ["ziyaretci", "sistem"]
    Oturum.objects.filter(pk=oturum.pk).update(baslangic=timezone.now() - timedelta(minutes=11))
    assert zaman_asimlari()["ticket_onerilen"] == 0
    page.get_by_role("button", name="Destek talebine dönüştür").click(timeout=15_000)
    assert page.get_by_label("Konu").input_value() == "Kargom nerede?"
    metin = page.get_by_label("Açıklama").input_value()
    assert "Ayşe Yılmaz: Kargom nerede?" in metin
    assert page.get_by_label("E-posta adresiniz").input_value() == "ayse@example.com"
    sayfa.ekran("widget-ticket-onerisi.png")
    page.get_by_role("button", name="Talebi gönder").click()
    page.get_by_role("heading", name="Kargom nerede?").wait_for()
    ticket = Ticket.objects.get(musteri=musteri)
    assert (ticket.email, ticket.konu) == ("ayse@example.com", "Kargom nerede?")
    oturum.refresh_from_db()
    assert (oturum.durum, oturum.kapatan) == ("kapandi", "sistem")
    assert not sayfa.hatalar, sayfa.hatalar
