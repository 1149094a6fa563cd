"""Inbound mail that is built to be slow to read: reading a message takes time linear in its size
(a line of 20 000 spaces once took 17 s in one regular expression and held a server worker)."""
import base64
import time
from email.message import EmailMessage

import pytest

from eposta import tokenlar
from tenants.tests.test_auth import hata
from tickets.models import Ticket
from tickets.tests.test_tickets import ok

from .test_gelen import GIZLI, gonder

pytestmark = pytest.mark.django_db
# Each message below is read in milliseconds; the bound is generous for a slow, shared machine
# and still far below what any of them cost before (seconds to hours).
SINIR_SANIYE = 2.0
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==")


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


@pytest.mark.parametrize("baslik", [
    "To: " + '"' * 40_000,  # 16 s before, in the header registry's address parser
    "Cc: " + "," * 40_000,
    "Subject: " + "=?utf-8?q?a?= " * 20_000,
], ids=["to-tirnak", "cc-virgul", "konu-kodlu"])
def test_headers_built_to_be_slow_are_read_at_once(musteri, baslik):
    adres = tokenlar.musteri_gelen_adresi(musteri.id)
    ham = (f"Delivered-To: {adres}\r\nFrom: Ayşe <ayse@ornek.com>\r\n{baslik}\r\nMessage-ID: <yavas-baslik@ornek.com>\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nMerhaba\r\n").encode()
    res, sure = sureli_gonder(ham)
    assert sure < SINIR_SANIYE, f"{sure:.2f} s"
    ticket = Ticket.objects.get(pk=ok(res, 201)["gelen"]["ticket_id"])
    assert ticket.yanitlar.get().icerik == "Merhaba"


def _cok_parcali(parca: str, sayi: int) -> bytes:
    return ("From: ayse@ornek.com\r\nTo: {adres}\r\nMessage-ID: <parcali@ornek.com>\r\n"
            "Content-Type: multipart/mixed; boundary=s\r\n\r\n" + f"--s\r\n{parca}\r\n\r\nx\r\n" * sayi + "--s--\r\n").encode()


@pytest.mark.parametrize(("parca", "sayi"), [
    ("Content-Type: text/plain", 60_000),  # 600 KB of empty parts: 4 s before
    ("Content-Type: text/plain" + "; a=b" * 200, 300),  # 300 KB of long MIME headers: 4 s before
], ids=["bos-parcalar", "uzun-mime-basliklari"])
def test_a_message_too_costly_to_read_is_refused_at_once(musteri, parca, sayi):
    ham = _cok_parcali(parca, sayi).replace(b"{adres}", tokenlar.musteri_gelen_adresi(musteri.id).encode())
    res, sure = sureli_gonder(ham)
    assert sure < SINIR_SANIYE, f"{sure:.2f} s"
    hata(res, 400, "GECERSIZ_ISTEK")
    assert Ticket.objects.count() == 0


def test_real_mail_with_many_attachments_is_within_the_bounds(musteri):
    mesaj = EmailMessage()
    mesaj["From"], mesaj["To"] = "Ayşe <ayse@ornek.com>", tokenlar.musteri_gelen_adresi(musteri.id)
    mesaj["Subject"], mesaj["Message-ID"] = "Ekran görüntüleri", "<cok-ekli@ornek.com>"
    mesaj.set_content("Hepsi ekte.")
    mesaj.add_alternative("<p>Hepsi ekte.</p>", subtype="html")
    for i in range(40):
        mesaj.add_attachment(PNG, maintype="image", subtype="png",
                             filename=f"Ekran görüntüsü {i} — şöyle böyle, çok uzun bir Türkçe dosya adı.png")
    ticket = Ticket.objects.get(pk=ok(gonder(mesaj.as_bytes()), 201)["gelen"]["ticket_id"])
    assert ticket.yanitlar.get().ekler.count() == 40
