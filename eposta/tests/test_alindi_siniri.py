"""The "ticket received" mail is no relay for strangers: anyone may open a ticket with anyone's
address (the widget key is public, an inbound mail's From is what its sender wrote), so receipts
to one address are limited per tenant and over the platform, and the visitor's own text in a
mail is never a link (found by an outside probe: 120 receipts a minute quoting a 200-character
subject full of links, to any address)."""
import logging
from email.message import EmailMessage

import pytest
from rest_framework.test import APIClient

from eposta import tokenlar
from supportdesk.testing.fixtures import widget_client
from tickets.models import Ticket
from tickets.tests.test_tickets import ac

from .test_giden import parcalar

pytestmark = pytest.mark.django_db
KURBAN = "kurban@ornek.com"
GIZLI = "test-inbound-gizli"


@pytest.fixture(autouse=True)
def _sinirlar(settings):
    settings.EPOSTA_ALINDI_ALICI_LIMITI = "2/h"
    settings.EPOSTA_ALINDI_PLATFORM_LIMITI = "3/h"
    settings.INBOUND_EMAIL_SECRET = GIZLI


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    def calistir(fonksiyon, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fonksiyon(*args, **kwargs)
    return calistir


def test_widget_receipts_to_one_address_are_limited_per_tenant_and_platform(smtp, commit, musteri, diger_musteri,
                                                                              widget, caplog):
    caplog.set_level(logging.INFO, logger="supportdesk.eposta")
    for i in range(4):
        commit(ac, widget, ziyaretci_id=f"z{i}", email=KURBAN)
    assert Ticket.objects.filter(musteri=musteri, email=KURBAN).count() == 4  # every ticket is opened
    assert len(smtp.alicinin(KURBAN)) == 2  # EPOSTA_ALINDI_ALICI_LIMITI for this tenant
    assert "sınırı doldu" in caplog.text
    diger = widget_client(diger_musteri)
    for i in range(3):
        commit(ac, diger, ziyaretci_id=f"d{i}", email=KURBAN.upper())
    assert Ticket.objects.filter(musteri=diger_musteri).count() == 3
    assert len(smtp.alicinin(KURBAN)) + len(smtp.alicinin(KURBAN.upper())) == 3  # the platform's limit
    commit(ac, widget, ziyaretci_id="baska", email="baska@ornek.com")
    assert len(smtp.alicinin("baska@ornek.com")) == 1  # another address has its own


def _gelen(musteri, gonderen: str, no: int) -> bytes:
    m = EmailMessage()
    m["From"], m["To"] = gonderen, tokenlar.musteri_gelen_adresi(musteri.id)
    m["Subject"], m["Message-ID"] = f"Sahte {no}: https://kotu.example.com", f"<sahte-{no}@saldirgan.test>"
    m.set_content("Tıklayın: www.kotu.example.com")
    return bytes(m)


def test_inbound_mail_with_a_forged_from_gets_limited_receipts(smtp, commit, musteri):
    for no in range(4):
        res = commit(APIClient().post, "/api/v1/inbound/email", data=_gelen(musteri, KURBAN, no),
                     content_type="message/rfc822", HTTP_X_INBOUND_SECRET=GIZLI)
        assert res.status_code == 201, res.content
    assert Ticket.objects.filter(musteri=musteri, kanal="eposta").count() == 4
    alinanlar = smtp.alicinin(KURBAN)
    assert len(alinanlar) == 2
    for mesaj in alinanlar:
        assert "kotu.example.com" not in str(mesaj["Subject"]) and "kotu[.]example[.]com" in str(mesaj["Subject"])


def test_visitor_text_in_a_receipt_is_never_a_link(smtp, commit, widget):
    konu = "Ödül kazandınız! https://kotu.example.com/odul?x=1 ya da www.kotu.com.tr <a href=\"http://x.test\">tıkla</a>"
    commit(ac, widget, email=KURBAN, konu=konu, ad="Bilgi için kotu.example.net")
    [alindi] = smtp.alicinin(KURBAN)
    metin, html = parcalar(alindi)
    for parca in (metin, html, str(alindi["Subject"])):
        parca = parca.replace("http://testserver/eposta/durdur/", "")  # our own stop link
        for baglanti in ("https://", "http://", "kotu.example", "www.kotu", "x.test"):
            assert baglanti not in parca, (baglanti, parca)
    assert "hxxps[://]kotu[.]example[.]com/odul?x=1" in metin and "www[.]kotu[.]com[.]tr" in metin
    assert "hxxps[://]kotu[.]example[.]com/odul?x=1" in html
    assert "&lt;a href=" in html and '<a href="hxxp' not in html  # escaped, never markup
    assert 'href="http://testserver/eposta/durdur/' in html  # our own links stay links
    assert "Bilgi için kotu[.]example[.]net" in metin


def test_transcripts_to_one_address_are_limited_too(smtp, commit, widget):
    """A visitor ends its own chat and asks for the transcript: three per chat, but chats are
    free, so without a limit per address a stranger's lines reached any inbox the same way."""
    kodlar = []
    for i in range(3):
        z = f"s{i}"
        oturum = widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": z, "mesaj": "Bakın: kotu.example.com",
                                                           "email": KURBAN}, format="json").json()["data"]["oturum"]
        assert widget.post("/api/v1/widget/chat/end", {"ziyaretci_id": z, "oturum_id": oturum["id"]},
                           format="json").status_code == 200
        res = commit(widget.post, "/api/v1/widget/chat/transcript", {"ziyaretci_id": z, "oturum_id": oturum["id"]},
                     format="json")
        kodlar.append(res.status_code)
    assert kodlar == [201, 201, 429], kodlar
    assert res.json()["hata"]["kod"] == "LIMIT_ASILDI" and int(res["Retry-After"]) >= 1
    alinanlar = smtp.alicinin(KURBAN)
    assert len(alinanlar) == 2
    metin, html = parcalar(alinanlar[0])
    assert "kotu[.]example[.]com" in metin and "kotu.example.com" not in metin + html


def test_a_receipt_refused_by_the_platform_limit_uses_up_none_of_the_tenants(smtp, commit, musteri, diger_musteri,
                                                                             widget, settings):
    settings.EPOSTA_ALINDI_PLATFORM_LIMITI = "1/h"
    commit(ac, widget, ziyaretci_id="a1", email=KURBAN)
    diger = widget_client(diger_musteri)
    commit(ac, diger, ziyaretci_id="d1", email=KURBAN)  # the platform's limit refuses it
    assert len(smtp.alicinin(KURBAN)) == 1
    # With room on the platform again, the other tenant still has both of its own places.
    settings.EPOSTA_ALINDI_PLATFORM_LIMITI = "10/h"
    commit(ac, diger, ziyaretci_id="d2", email=KURBAN)
    commit(ac, diger, ziyaretci_id="d3", email=KURBAN)
    assert len(smtp.alicinin(KURBAN)) == 3
