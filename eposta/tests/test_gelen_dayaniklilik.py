"""Inbound mail that is built to be slow to read: reading a message takes time linear in its size
(a line of 20 000 spaces once took 17 s in one regular expression and held a server worker)."""
import time
from email.message import EmailMessage

import pytest

from eposta import tokenlar
from tickets.models import Ticket
from tickets.tests.test_tickets import ok

from .test_gelen import GIZLI, gonder

pytestmark = pytest.mark.django_db
# Each message below is read in milliseconds; the bound is generous for a slow, shared machine
# and still far below what any of them cost before (seconds to hours).
SINIR_SANIYE = 2.0


@pytest.fixture(autouse=True)
def _gizli(settings):
    settings.INBOUND_EMAIL_SECRET = GIZLI


def ileti(adres: str, govde: str, *, tur: str = "plain", no: int = 1) -> bytes:
    mesaj = EmailMessage()
    mesaj["From"], mesaj["To"] = "Ayşe <ayse@ornek.com>", adres
    mesaj["Subject"], mesaj["Message-ID"] = "Yardım", f"<yavas-{no}@ornek.com>"
    mesaj.set_content(govde, subtype=tur, cte="base64")
    return mesaj.as_bytes()


def sureli_gonder(ham: bytes):
    bas = time.perf_counter()
    res = gonder(ham)
    return res, time.perf_counter() - bas


@pytest.mark.parametrize("govde", [
    "Merhaba\n" + " " * 20_000 + "x\n",  # the probe's body: 17 s before
    "Merhaba\n" + " " * 200_000 + "x\n",
    "Merhaba\n" + "\t\u00a0" * 10_000 + "x\n",
    "Merhaba\n" + ("tarihinde " * 60 + "\n") * 6_000,  # many long lines, each costly to a nested repeat
], ids=["20k-bosluk", "200k-bosluk", "sekme-nbsp", "tarihinde"])
def test_a_plain_text_body_built_to_backtrack_is_read_at_once(musteri, govde):
    res, sure = sureli_gonder(ileti(tokenlar.musteri_gelen_adresi(musteri.id), govde))
    assert sure < SINIR_SANIYE, f"{sure:.2f} s"
    ticket = Ticket.objects.get(pk=ok(res, 201)["gelen"]["ticket_id"])
    assert ticket.yanitlar.get().icerik.startswith("Merhaba")


@pytest.mark.parametrize("govde", [
    "<p>Merhaba</p>" + "<p\t" * 10_000,  # 8 s before (html.parser on a tag left open)
    "<p>Merhaba</p>" + "<!--" * 30_000,
    "<p>Merhaba</p>" + "<a b=c " * 6_000,
    "<p>Merhaba</p>" + "</a" * 20_000,
], ids=["acik-etiket", "acik-yorum", "oznitelik", "kapanis"])
def test_an_html_body_left_open_is_read_at_once(musteri, govde):
    res, sure = sureli_gonder(ileti(tokenlar.musteri_gelen_adresi(musteri.id), govde, tur="html"))
    assert sure < SINIR_SANIYE, f"{sure:.2f} s"
    ticket = Ticket.objects.get(pk=ok(res, 201)["gelen"]["ticket_id"])
    assert ticket.yanitlar.get().icerik == "Merhaba"  # what is left open runs to the end, as in HTML5


def test_a_broken_marked_section_in_html_is_read_not_a_500(musteri):
    # html.parser raised AssertionError on "<![<![" (a 500 for the mail server to retry forever).
    res = gonder(ileti(tokenlar.musteri_gelen_adresi(musteri.id), "<div>Merhaba<br>iyi günler</div><![<![ x", tur="html"))
    ticket = Ticket.objects.get(pk=ok(res, 201)["gelen"]["ticket_id"])
    assert ticket.yanitlar.get().icerik == "Merhaba\niyi günler"
