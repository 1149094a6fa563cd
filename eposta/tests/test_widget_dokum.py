"""The widget's "sohbet dökümünü e-postayla gönder" after a chat ends, in headless Chromium, with
the mail received by the loopback SMTP server."""
import re

from portal.tests import test_widget_e2e as e2e
from portal.tests.test_widget_e2e import acik_oturum_id, ok, operator_istemcisi, sohbet_baslat
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

# The browser, page and demo-page fixtures of the widget's own browser tests.
tarayici, sayfa, demo = e2e.tarayici, e2e.sayfa, e2e.demo

pytestmark = TARAYICI_ISARETLERI


def test_widget_sends_the_transcript_to_the_address_given_at_start(sayfa, demo, smtp):
    musteri, url = demo
    operator = operator_istemcisi(musteri)
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page, mesaj="Kargom nerede kaldı?")
    oturum_id = acik_oturum_id(operator)
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/accept", {}, format="json"))
    page.get_by_role("button", name="Sohbeti bitir").click()
    page.get_by_role("button", name="Evet, bitir").click()  # issue 24: the widget asks first
    girdi = page.get_by_label("E-posta adresiniz")
    assert girdi.input_value() == "ayse@example.com"
    page.get_by_role("button", name="Sohbet dökümünü e-postayla gönder").click()
    page.get_by_text("Döküm e-posta adresinize gönderildi.").wait_for()
    [mail] = smtp.alicinin("ayse@example.com")
    assert "Sohbet dökümünüz" in mail["Subject"]
    assert re.search(r"Ayşe Yılmaz: Kargom nerede kaldı\?", mail.get_body(("plain",)).get_content())
    assert not sayfa.hatalar
