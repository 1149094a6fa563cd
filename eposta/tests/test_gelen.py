"""Reply by e-mail and the tenant's own address (CONTRACT 14), from real `.eml` files under
`eml/` (their recipient is `{{ADRES}}`, filled with a signed address at test time)."""
import io
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from dosyalar.models import Dosya
from eposta import tokenlar
from eposta.models import GelenEposta
from supportdesk.testing.fixtures import widget_client
from tenants.tests.test_auth import hata
from tickets.models import Ticket, TicketYanit
from tickets.tests.test_tickets import ac, ok

pytestmark = pytest.mark.django_db
EML = Path(__file__).parent / "eml"
GIZLI = "test-inbound-gizli"


@pytest.fixture(autouse=True)
def _gizli(settings):
    settings.INBOUND_EMAIL_SECRET = GIZLI


def eml(ad: str, adres: str) -> bytes:
    return (EML / ad).read_bytes().replace(b"{{ADRES}}", adres.encode())


def gonder(ham: bytes, gizli: str = GIZLI):
    return APIClient().post("/api/v1/inbound/email", data=ham, content_type="message/rfc822",
                            HTTP_X_INBOUND_SECRET=gizli)


@pytest.fixture
def ticket(widget, operator_client):
    t = ac(widget, email="ayse.yilmaz@gmail.com")
    ok(operator_client.put(f"/api/v1/operator/ticket/{t['id']}/status", {"durum": "cozuldu"}, format="json"))
    return Ticket.objects.get(pk=t["id"])


def son_yanit(ticket) -> TicketYanit:
    return ticket.yanitlar.order_by("-id").first()


def test_gmail_reply_lands_on_its_ticket_without_quoted_history_and_reopens_it(ticket):
    res = gonder(eml("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id)))
    veri = ok(res, 201)["gelen"]
    assert veri["sonuc"] == "yanit" and veri["ticket_id"] == ticket.id and veri["yinelenen"] is False
    yanit = son_yanit(ticket)
    assert yanit.gonderen == "ziyaretci"
    assert yanit.icerik == "Teşekkürler, faturayı buldum ama tutar yanlış görünüyor.\n\nAyşe"
    ticket.refresh_from_db()
    assert ticket.durum == "acik"  # CONTRACT 4: a visitor reply reopens a solved ticket


def test_outlook_reply_loses_its_signature_and_header_block(ticket):
    ok(gonder(eml("outlook_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id))), 201)
    assert son_yanit(ticket).icerik == "Merhaba,\n\nŞifremi sıfırladım, şimdi giriş yapabiliyorum."


def test_html_only_mail_is_stored_as_text(ticket):
    ok(gonder(eml("html_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id))), 201)
    assert son_yanit(ticket).icerik == "Merhaba,\n\nSiparişim hâlâ gelmedi.\nKargo no: 12345"


def test_attachment_is_stored_under_the_upload_rules_and_attached(ticket, operator_client):
    ok(gonder(eml("ekli_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id))), 201)
    detay = ok(operator_client.get(f"/api/v1/operator/ticket/{ticket.id}"))["ticket"]
    son = detay["yanitlar"][-1]
    assert son["icerik"] == "Ekran görüntüsü ekte."
    [ek] = son["ekler"]
    assert ek["ad"] == "ekran.png" and ek["mime_tipi"] == "image/png"
    assert Dosya.objects.get(pk=ek["id"]).ziyaretci_id == ticket.ziyaretci_id


def test_tenant_address_opens_an_eposta_ticket_with_the_turkish_subject(musteri, operator_client):
    veri = ok(gonder(eml("turkce_konu.eml", tokenlar.musteri_gelen_adresi(musteri.id))), 201)["gelen"]
    ticket = Ticket.objects.get(pk=veri["ticket_id"])
    assert (ticket.musteri_id, ticket.kanal, ticket.konu) == (musteri.id, "eposta", "İade talebi: ürün şeması yırtık")
    assert (ticket.email, ticket.ad, ticket.ziyaretci_id) == ("sukru@ornek.com.tr", "Şükrü Çağlar",
                                                              "eposta:sukru@ornek.com.tr")
    assert ticket.yanitlar.get().icerik == "Merhaba, gelen ürünün şeması yırtık. İade etmek istiyorum.\n\nŞükrü Çağlar"
    liste = ok(operator_client.get("/api/v1/operator/tickets"))["ticketlar"]
    assert [t["id"] for t in liste] == [ticket.id]


def _sayilar():
    return (GelenEposta.objects.count(), TicketYanit.objects.count(), Ticket.objects.count(), Dosya.objects.count())


def test_refusals_store_nothing(ticket, musteri, diger_musteri):
    adres = tokenlar.ticket_yanit_adresi(ticket.id)
    once = _sayilar()
    hata(gonder(eml("gmail_yanit.eml", adres), gizli="yanlis"), 401, "KIMLIK_GEREKLI")
    hata(gonder(eml("gmail_yanit.eml", adres), gizli=""), 401, "KIMLIK_GEREKLI")
    sahte = adres.replace(f"+t{ticket.id}-", f"+t{ticket.id + 1}-")  # another ticket's id, this MAC
    hata(gonder(eml("gmail_yanit.eml", sahte)), 404, "BULUNAMADI")
    hata(gonder(eml("gmail_yanit.eml", "destek@inbound.localhost")), 404, "BULUNAMADI")
    hata(gonder(eml("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(999999))), 404, "BULUNAMADI")
    hata(gonder(b"bu bir e-posta degil\x00\xff"), 400, "GECERSIZ_ISTEK")
    hata(gonder(b""), 400, "GECERSIZ_ISTEK")
    assert _sayilar() == once


def test_same_message_id_twice_is_stored_once(ticket):
    ham = eml("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id))
    ok(gonder(ham), 201)
    once = _sayilar()
    assert ok(gonder(ham), 200)["gelen"]["yinelenen"] is True
    assert _sayilar() == once


def test_a_12_mb_attachment_is_refused_and_nothing_is_stored(ticket):
    mesaj = EmailMessage()
    mesaj["From"], mesaj["To"] = "ayse.yilmaz@gmail.com", tokenlar.ticket_yanit_adresi(ticket.id)
    mesaj["Subject"], mesaj["Message-ID"] = "Re: büyük ek", "<buyuk-ek-0001@mail.gmail.com>"
    mesaj.set_content("Büyük dosya ekte.")
    mesaj.add_attachment(b"%PDF-1.4\n" + b"0" * (12 * 1024 * 1024), maintype="application", subtype="pdf",
                         filename="rapor.pdf")
    once = _sayilar()
    hata(gonder(mesaj.as_bytes()), 413, "DOSYA_COK_BUYUK")
    assert _sayilar() == once


def test_a_reply_to_a_closed_ticket_is_409(ticket, operator_client):
    ok(operator_client.put(f"/api/v1/operator/ticket/{ticket.id}/status", {"durum": "kapandi"}, format="json"))
    once = _sayilar()
    hata(gonder(eml("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id))), 409, "DURUM_CAKISMASI")
    assert _sayilar() == once


def test_eposta_al_command_reads_stdin(musteri, monkeypatch):
    ham = eml("turkce_konu.eml", tokenlar.musteri_gelen_adresi(musteri.id))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ham)))
    cikti = io.StringIO()
    call_command("eposta_al", stdout=cikti)
    assert "kaydedildi" in cikti.getvalue() and Ticket.objects.get().kanal == "eposta"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"bozuk")))
    with pytest.raises(CommandError, match="GECERSIZ_ISTEK"):
        call_command("eposta_al")


def test_no_widget_key_opens_an_eposta_ticket_not_even_its_own_tenants(musteri, diger_musteri):
    # The sender's address is no secret, and the widget key is public: the e-mail channel's
    # visitor ids are reserved, so no widget or context call can name them (found by a probe).
    ok(gonder(eml("turkce_konu.eml", tokenlar.musteri_gelen_adresi(musteri.id))), 201)
    ticket = Ticket.objects.get()
    yanit_sayisi = ticket.yanitlar.count()
    for istemci in (widget_client(musteri), widget_client(diger_musteri)):
        for ziyaretci_id in ("eposta:sukru@ornek.com.tr", " eposta:sukru@ornek.com.tr", "EPOSTA:sukru@ornek.com.tr"):
            for yanit in (
                istemci.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ziyaretci_id}),
                istemci.get(f"/api/v1/widget/ticket/{ticket.id}", {"ziyaretci_id": ziyaretci_id}),
                istemci.post(f"/api/v1/widget/ticket/{ticket.id}/reply", {"ziyaretci_id": ziyaretci_id, "icerik": "IBAN"},
                             format="json"),
                istemci.post("/api/v1/widget/init", {"ziyaretci_id": ziyaretci_id, "token_iste": True}, format="json"),
                istemci.post("/api/v1/context/page-info", {"ziyaretci_id": ziyaretci_id, "url": "https://a.example/"},
                             format="json"),
            ):
                assert yanit.status_code == 400, yanit.content
                assert yanit.json()["hata"]["alanlar"]["ziyaretci_id"].startswith("'eposta:'")
    assert ticket.yanitlar.count() == yanit_sayisi and Ticket.objects.count() == 1



def test_a_ticket_opened_by_mail_threads_with_the_senders_message(smtp, musteri, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ok(gonder(eml("turkce_konu.eml", tokenlar.musteri_gelen_adresi(musteri.id))), 201)
    [alindi] = smtp.alicinin("sukru@ornek.com.tr")
    assert alindi["In-Reply-To"] == "<turkce-konu-0001@ornek.com.tr>" == alindi["References"]
    assert "İade talebi: ürün şeması yırtık" in alindi["Subject"]


def test_a_known_message_id_to_a_forged_address_is_still_404(ticket):
    ok(gonder(eml("gmail_yanit.eml", tokenlar.ticket_yanit_adresi(ticket.id))), 201)
    sahte = tokenlar.ticket_yanit_adresi(ticket.id).replace("+t", "+t9")
    hata(gonder(eml("gmail_yanit.eml", sahte)), 404, "BULUNAMADI")
