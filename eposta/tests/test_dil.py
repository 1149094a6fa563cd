"""CONTRACT 19 for mails, through the public paths that send them and a real SMTP server on
loopback: a visitor mail speaks its ticket's or chat's language (`Ticket.dil`, `Oturum.dil`),
a member mail its member's (`Kullanici.dil`), and the language of the request that triggered the
mail (an operator's `Accept-Language`, its own `dil`) never leaks into it. Turkish stays exactly
as it was written before there was a second language."""
import re

import pytest
from django.test import Client
from django.utils import translation

from chat.models import Oturum
from eposta.models import GidenEposta
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tickets.models import Ticket
from tickets.tasks import sla_tara
from tickets.tests.test_sla import geri_al, hedefli
from tickets.tests.test_tickets import OP, ac, ok

from .test_giden import parcalar

pytestmark = pytest.mark.django_db

ZIYARETCI = "ayse@ornek.com"
INGILIZCE_TARIH = r"[A-Z][a-z]{2} \d{1,2}, \d{4}"  # "Mar 4, 2026": the English mail format


@pytest.fixture
def sonra(django_capture_on_commit_callbacks):
    """Run a request; then, before what it left for after the commit runs (the mail listeners),
    `hazirla` sets the language the other helpers' code sets at creation (a chat's and a ticket's
    `dil`); those callbacks then run with `etkin` active, as inside the triggering request."""
    def calistir(fonksiyon, *args, hazirla=None, etkin="tr", **kwargs):
        with django_capture_on_commit_callbacks() as geri:
            sonuc = fonksiyon(*args, **kwargs)
        if hazirla is not None:
            hazirla(sonuc)
        with translation.override(etkin), django_capture_on_commit_callbacks(execute=True):
            for cagri in geri:
                cagri()
        return sonuc
    return calistir


def istemci(user, dil=None):
    from rest_framework.test import APIClient

    client = APIClient(**({"HTTP_ACCEPT_LANGUAGE": dil} if dil else {}))
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return client


def uye(musteri, email, dil, rol="sahip", ad=""):
    kullanici = operator_yap(musteri, rol=rol, email=email)
    kullanici.dil, kullanici.ad = dil, ad
    kullanici.save(update_fields=["dil", "ad"])
    return kullanici


def ticket_dili(dil):
    def hazirla(ticket):
        Ticket.objects.filter(pk=ticket["id"]).update(dil=dil)
    return hazirla


def tek(smtp, adres):
    [mesaj] = smtp.alicinin(adres)
    smtp.mesajlar.clear()
    return mesaj


def konu(mesaj) -> str:
    # A non-ASCII subject comes back from the parser with the space of its folded header line.
    return str(mesaj["Subject"]).strip()


def turkce_yok(*parcalar_):
    """No Turkish letter at all: the visitor's and operator's text in these tests has none."""
    for parca in parcalar_:
        assert not re.search(r"[çğıöşüÇĞİÖŞÜ]", parca), parca


@pytest.fixture
def ingilizce_musteri(musteri):
    musteri.firma_adi, musteri.dil = "Anadolu Soft", "en"
    musteri.save(update_fields=["firma_adi", "dil"])
    return musteri


# --- visitor mails ------------------------------------------------------------------------------
def test_an_english_ticket_mails_its_visitor_in_english_whatever_the_operator_speaks(
        smtp, sonra, ingilizce_musteri, widget):
    musteri = ingilizce_musteri
    operator = uye(musteri, "op@anadolu.com", "tr", rol="operator", ad="Mehmet")
    ticket = sonra(ac, widget, ad="Jane", email=ZIYARETCI, konu="Missing invoice", mesaj="Hello, where is it?",
                   hazirla=ticket_dili("en"))
    alindi = tek(smtp, ZIYARETCI)
    metin, html = parcalar(alindi)
    assert konu(alindi) == f"[#{ticket['id']}] We received your request: Missing invoice"
    assert metin.startswith(f"We received your request (#{ticket['id']})\n\nHi Jane,\n\n"
                            f"Your request \"Missing invoice\" has been logged as #{ticket['id']}. ")
    assert "You can add to your request by replying to this email." in metin
    assert "To stop receiving these emails: http://testserver/eposta/durdur/" in metin
    assert '<html lang="en">' in html and "Unsubscribe from these emails</a>" in html
    assert "Hi Jane," in html
    turkce_yok(konu(alindi), metin, html)

    # A Turkish-speaking operator (its own `dil`, its browser, the active language) answers.
    yanitlayan = istemci(operator, dil="tr")
    sonra(yanitlayan.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "Here it is.\nBest regards"},
          format="json", etkin="tr")
    yanit = tek(smtp, ZIYARETCI)
    metin, html = parcalar(yanit)
    assert konu(yanit) == f"[#{ticket['id']}] Reply: Missing invoice"
    assert metin.startswith(f"There is a reply to your request (#{ticket['id']})\n\nMehmet wrote:\n\n"
                            "> Here it is.\n> Best regards\n")
    assert "You can answer by replying to this email." in metin
    assert "Mehmet wrote:" in html and "Here it is." in html
    turkce_yok(konu(yanit), metin, html)

    sonra(yanitlayan.put, f"{OP}/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, format="json", etkin="tr")
    cozuldu = tek(smtp, ZIYARETCI)
    metin, html = parcalar(cozuldu)
    assert konu(cozuldu) == f"[#{ticket['id']}] Your request is solved: Missing invoice"
    assert "Your request \"Missing invoice\" has been marked as solved." in metin
    turkce_yok(konu(cozuldu), metin, html)
    assert translation.get_language() != "en"  # nothing left English active behind it


def test_a_turkish_ticket_keeps_todays_wording_even_from_an_english_speaking_operator(smtp, sonra, musteri, widget):
    operator = uye(musteri, "op@anadolu.com", "en", rol="operator", ad="Mehmet")
    ticket = sonra(ac, widget, ad="Ayşe", email=ZIYARETCI, etkin="en")
    alindi = tek(smtp, ZIYARETCI)
    metin, html = parcalar(alindi)
    no = ticket["id"]
    assert konu(alindi) == f"[#{no}] Talebiniz alındı: Faturam görünmüyor"
    durdur = alindi["List-Unsubscribe"].strip().strip("<>")
    assert metin == (f"Talebiniz alındı (#{no})\n\nMerhaba Ayşe,\n\n\"Faturam görünmüyor\" konulu talebiniz #{no} "
                     "numarasıyla kaydedildi. Ekibimiz en kısa sürede yanıt verecek.\n\nBu e-postayı yanıtlayarak "
                     "talebinize ekleme yapabilirsiniz.\n\n--\nAnadolu Yazılım\n"
                     f"Bu e-postaları almak istemiyorsanız: {durdur}\n")
    assert '<html lang="tr">' in html and ">Bu e-postaları almak istemiyorum</a>" in html

    sonra(istemci(operator, dil="en").post, f"{OP}/ticket/{no}/reply", {"icerik": "Faturanız e-postanızda."},
          format="json", etkin="en")
    yanit = tek(smtp, ZIYARETCI)
    metin, html = parcalar(yanit)
    assert konu(yanit) == f"[#{no}] Yanıt: Faturam görünmüyor"
    assert metin == (f"Talebinize yanıt verildi (#{no})\n\nMehmet yazdı:\n\n> Faturanız e-postanızda.\n\n--\n"
                     "Anadolu Yazılım\nBu e-postayı yanıtlayarak cevap verebilirsiniz.\n"
                     f"Bu e-postaları almak istemiyorsanız: {yanit['List-Unsubscribe'].strip().strip('<>')}\n")
    for ingilizce in ("wrote", "Reply", "Unsubscribe", "request", 'lang="en"'):
        assert ingilizce not in metin + html + konu(yanit)


def _kapali_sohbet(widget, operator_client, sonra, dil):
    oturum = sonra(lambda: ok(widget.post("/api/v1/widget/chat/start", {
        "ziyaretci_id": "z1", "ad": "Jane", "email": ZIYARETCI, "mesaj": "Where is my order?"}, format="json"),
        201)["oturum"], hazirla=lambda o: Oturum.objects.filter(pk=o["id"]).update(dil=dil))
    ok(operator_client.post(f"{OP}/chat/{oturum['id']}/accept"))
    ok(widget.get("/api/v1/widget/chat/messages", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}))
    sonra(operator_client.post, f"{OP}/chat/{oturum['id']}/message", {"icerik": "Shipped today."}, format="json")
    ok(widget.post("/api/v1/widget/chat/end", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}, format="json"))
    return oturum


def test_an_english_chat_transcript_is_english_and_its_refusals_follow_the_request(
        smtp, sonra, ingilizce_musteri, widget, settings):
    settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE = 3600  # the visitor is present: no "answered" mail
    operator = uye(ingilizce_musteri, "op@anadolu.com", "tr", rol="operator")
    oturum = _kapali_sohbet(widget, istemci(operator, dil="tr"), sonra, "en")
    smtp.mesajlar.clear()
    # The widget asks in Turkish (a Turkish browser): the mail still speaks the chat's English.
    widget.credentials(HTTP_X_API_KEY=ingilizce_musteri.api_key, HTTP_ACCEPT_LANGUAGE="tr-TR,tr;q=0.9")
    istek = {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}
    sonra(widget.post, "/api/v1/widget/chat/transcript", istek, format="json", etkin="tr")
    dokum = tek(smtp, ZIYARETCI)
    metin, html = parcalar(dokum)
    assert re.fullmatch(rf"Your chat transcript \({INGILIZCE_TARIH}\)", konu(dokum))
    assert re.search(rf"Below is the transcript of your chat with Anadolu Soft that started on {INGILIZCE_TARIH}, "
                     r"\d\d:\d\d \(times in UTC\)\.", metin)
    assert re.search(rf"> \[{INGILIZCE_TARIH}, \d\d:\d\d\] Jane: Where is my order\?", metin)
    assert re.search(rf"> \[{INGILIZCE_TARIH}, \d\d:\d\d\] Agent: Shipped today\.", metin)
    assert "Agent: Shipped today." in html and "Unsubscribe from these emails" in html
    # The chat's own `sistem` lines (written in the chat's language by the chat app) aside:
    turkce_yok(konu(dokum), *(s for s in metin.splitlines() if "] System:" not in s))

    # The API's refusals speak the request's language (CONTRACT 19), not the chat's.
    widget.credentials(HTTP_X_API_KEY=ingilizce_musteri.api_key)
    en = widget.post("/api/v1/widget/chat/transcript", {**istek, "email": "no"}, format="json",
                     HTTP_ACCEPT_LANGUAGE="en-US")
    assert en.status_code == 400 and "Must be a valid email address." in str(en.json()["hata"]["alanlar"]["email"])
    tr = widget.post("/api/v1/widget/chat/transcript", {**istek, "email": "yok"}, format="json")
    assert "Geçerli bir e-posta adresi olmalı." in str(tr.json()["hata"]["alanlar"]["email"])


def test_a_turkish_chat_transcript_keeps_its_turkish_dates(smtp, sonra, musteri, widget, operator, settings):
    settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE = 3600
    oturum = _kapali_sohbet(widget, istemci(operator, dil="en"), sonra, "tr")
    smtp.mesajlar.clear()
    sonra(widget.post, "/api/v1/widget/chat/transcript", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]},
          format="json", etkin="en", HTTP_ACCEPT_LANGUAGE="en")
    dokum = tek(smtp, ZIYARETCI)
    metin, _ = parcalar(dokum)
    assert re.fullmatch(r"Sohbet dökümünüz \(\d\d\.\d\d\.\d{4}\)", konu(dokum))
    assert re.search(r"Anadolu Yazılım ile \d\d\.\d\d\.\d{4} \d\d:\d\d tarihinde başlayan sohbetinizin dökümü "
                     r"aşağıdadır \(saatler UTC\)\.", metin)
    assert re.search(r"> \[\d\d\.\d\d\.\d{4} \d\d:\d\d\] Jane: Where is my order\?", metin)
    assert "Temsilci: Shipped today." in metin


def test_the_answered_while_away_mail_speaks_the_chats_language(smtp, sonra, ingilizce_musteri, widget, settings):
    settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE = 0  # the visitor has left at once
    operator = uye(ingilizce_musteri, "op@anadolu.com", "tr", rol="operator")
    client = istemci(operator, dil="tr")
    oturum = sonra(lambda: ok(widget.post("/api/v1/widget/chat/start", {
        "ziyaretci_id": "z1", "email": ZIYARETCI, "mesaj": "Hello?"}, format="json"), 201)["oturum"],
        hazirla=lambda o: Oturum.objects.filter(pk=o["id"]).update(dil="en"))
    ok(client.post(f"{OP}/chat/{oturum['id']}/accept"))
    sonra(client.post, f"{OP}/chat/{oturum['id']}/message", {"icerik": "Still there?"}, format="json", etkin="tr")
    mail = tek(smtp, ZIYARETCI)
    metin, html = parcalar(mail)
    assert konu(mail) == "Anadolu Soft: your message got a reply"
    assert "Our agent replied after you left the chat:" in metin and "> Still there?" in metin
    turkce_yok(konu(mail), metin, html)


# --- member mails ---------------------------------------------------------------------------------
def test_new_ticket_alerts_speak_each_members_language(smtp, sonra, musteri, widget):
    uye(musteri, "en@anadolu.com", "en")
    uye(musteri, "tr@anadolu.com", "tr")
    uye(musteri, "secmedi@anadolu.com", "")  # no choice: the default, Turkish
    ticket = sonra(ac, widget, ad="Jane", etkin="en")
    en = tek_alici(smtp, "en@anadolu.com")
    metin, html = parcalar(en)
    assert konu(en) == f"[Anadolu Yazılım] New ticket #{ticket['id']}: Faturam görünmüyor"
    assert "Jane opened a new support request through the widget." in metin
    assert "Subject: Faturam görünmüyor" in metin and "Open in the operator console: http://testserver/panel/" in metin
    assert "You can turn off these notifications in your project settings (portal)." in metin
    assert "Yeni talep" not in metin + html and "Bu bildirimleri" not in metin + html
    for adres in ("tr@anadolu.com", "secmedi@anadolu.com"):
        tr = tek_alici(smtp, adres)
        metin, _ = parcalar(tr)
        assert konu(tr) == f"[Anadolu Yazılım] Yeni talep #{ticket['id']}: Faturam görünmüyor"
        assert "Jane widget üzerinden yeni bir destek talebi açtı." in metin
        assert "Operatör panelinde aç: http://testserver/panel/" in metin
    assert GidenEposta.objects.filter(tur=GidenEposta.Tur.YENI_TICKET).count() == 3


def tek_alici(smtp, adres):
    [mesaj] = smtp.alicinin(adres)
    return mesaj


def test_a_mention_mails_each_member_in_its_own_language(smtp, sonra, musteri, widget):
    yazan = uye(musteri, "yazan@anadolu.com", "tr", rol="operator", ad="Mehmet")
    ingiliz = uye(musteri, "en@anadolu.com", "en")
    turk = uye(musteri, "tr@anadolu.com", "tr")
    ticket = sonra(ac, widget)
    smtp.mesajlar.clear()
    sonra(istemci(yazan, dil="tr").post, f"{OP}/ticket/{ticket['id']}/reply",
          {"icerik": "Look at this @team", "ozel": True, "bahsedilenler": [ingiliz.id, turk.id]}, format="json",
          etkin="tr")
    en = tek_alici(smtp, ingiliz.email)
    metin, html = parcalar(en)
    assert konu(en) == f"[Anadolu Yazılım] Mehmet mentioned you in a note (ticket #{ticket['id']})"
    assert f"Mehmet mentioned you in an internal note on ticket #{ticket['id']}:" in metin
    assert "> Look at this @team" in metin and "You were mentioned in an internal note" in html
    assert "andı" not in metin + html
    tr = tek_alici(smtp, turk.email)
    metin, _ = parcalar(tr)
    assert konu(tr) == f"[Anadolu Yazılım] Mehmet sizi bir notta andı (talep #{ticket['id']})"
    assert metin.startswith(f"Bir iç notta anıldınız\n\nMehmet, talep #{ticket['id']} üzerindeki bir iç notta "
                            "sizi andı:\n\n> Look at this @team\n")


def test_the_sla_sweep_mails_each_member_in_its_own_language(smtp, musteri, widget, sonra,
                                                              django_capture_on_commit_callbacks):
    ingiliz = uye(musteri, "en@anadolu.com", "en")
    turk = uye(musteri, "tr@anadolu.com", "")
    hedefli(istemci(turk), musteri, ilk=30, sonraki=None, cozum=None, uyari_dk=10)
    ticket = sonra(ac, widget)
    smtp.mesajlar.clear()
    geri_al(ticket["id"], 31)
    with translation.override("tr"), django_capture_on_commit_callbacks(execute=True):
        sla_tara()
    en = tek_alici(smtp, ingiliz.email)
    metin, _ = parcalar(en)
    assert konu(en) == f"[Anadolu Yazılım] SLA breach #{ticket['id']}: Faturam görünmüyor"
    assert metin.startswith(f"Ticket #{ticket['id']}: first response target breached\n\n"
                            "The first response target of the ticket \"Faturam görünmüyor\" has expired without "
                            "being met.\n")
    tr = tek_alici(smtp, turk.email)
    metin, _ = parcalar(tr)
    assert konu(tr) == f"[Anadolu Yazılım] SLA ihlali #{ticket['id']}: Faturam görünmüyor"
    assert metin.startswith(f"Talep #{ticket['id']}: ilk yanıt hedefi aşıldı\n\n\"Faturam görünmüyor\" konulu "
                            "talebin ilk yanıt hedefinin süresi doldu ve hedef karşılanmadı.\n")


# --- the stop page --------------------------------------------------------------------------------
def test_the_stop_page_follows_the_browser(smtp, sonra, ingilizce_musteri, widget):
    sonra(ac, widget, email=ZIYARETCI, hazirla=ticket_dili("en"))
    link = tek(smtp, ZIYARETCI)["List-Unsubscribe"].strip().strip("<>").removeprefix("http://testserver")
    en = Client(HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8").get(link).content.decode()
    assert "Emails stopped" in en and "You won't receive any more emails about this request (or chat)." in en
    assert "durduruldu" not in en
    tr = Client(HTTP_ACCEPT_LANGUAGE="tr").get(link).content.decode()
    assert "E-postalar durduruldu" in tr and "Bu talep (ya da sohbet) için size artık e-posta gönderilmeyecek." in tr
    gecersiz = Client(HTTP_ACCEPT_LANGUAGE="en").get(link[:-3] + "xyz")
    assert gecersiz.status_code == 404 and "Invalid link" in gecersiz.content.decode()


def test_an_invitation_speaks_the_invitees_language_else_the_inviters(smtp, musteri, diger_musteri,
                                                                        django_capture_on_commit_callbacks):
    from portal.tests.yardimci import giris_yapmis

    sahip = uye(musteri, "owner@anadolu.com", "en")
    bilinen = uye(diger_musteri, "known@ornek.com", "tr", rol="operator")
    tarayici = giris_yapmis(sahip)
    for email in ("new@ornek.com", bilinen.email):
        with django_capture_on_commit_callbacks(execute=True):
            res = tarayici.post("/portal/ekip", {"email": email, "rol": "operator", "max_chat_per_tenant": ""})
        assert res.status_code == 200
    yeni = tek_alici(smtp, "new@ornek.com")  # a stranger: the inviter's English
    metin, html = parcalar(yeni)
    assert konu(yeni) == "You're invited to join the Anadolu Yazılım support team"
    assert "owner@anadolu.com invited you to the Anadolu Yazılım project as " in metin
    assert "Accept the invitation: http://testserver/portal/davet/" in metin and '<html lang="en">' in html
    assert "davet" not in konu(yeni) and "Daveti kabul et" not in metin
    bilinen_mail = tek_alici(smtp, bilinen.email)  # a user who chose Turkish: Turkish
    metin, html = parcalar(bilinen_mail)
    assert konu(bilinen_mail) == "Anadolu Yazılım destek ekibine davet edildiniz"
    assert "owner@anadolu.com sizi Anadolu Yazılım projesine " in metin and "Daveti kabul et: http" in metin
    assert '<html lang="tr">' in html


def test_an_invitation_to_a_user_who_chose_no_language_speaks_the_inviters(smtp, musteri, diger_musteri,
                                                                           django_capture_on_commit_callbacks):
    from portal.tests.yardimci import giris_yapmis

    sahip = uye(musteri, "owner2@anadolu.com", "en")
    secmemis = uye(diger_musteri, "nochoice@ornek.com", "", rol="operator")  # an account, no language chosen
    with django_capture_on_commit_callbacks(execute=True):
        res = giris_yapmis(sahip).post("/portal/ekip", {"email": secmemis.email, "rol": "operator", "max_chat_per_tenant": ""})
    assert res.status_code == 200
    mail = tek_alici(smtp, secmemis.email)
    assert konu(mail) == "You're invited to join the Anadolu Yazılım support team"


def test_a_password_reset_mail_speaks_its_members_language(smtp, musteri, django_capture_on_commit_callbacks):
    from portal.services import sifre_sifirlama_isle

    uye(musteri, "en@anadolu.com", "en")
    uye(musteri, "tr@anadolu.com", "")
    for email in ("en@anadolu.com", "tr@anadolu.com"):
        with translation.override("tr" if email.startswith("en") else "en"), \
                django_capture_on_commit_callbacks(execute=True):
            sifre_sifirlama_isle(email=email, alan="testserver", https=False)
    metin, html = parcalar(tek_alici(smtp, "en@anadolu.com"))
    assert "Password reset</h1>" in html and "Set a new password: http://testserver/portal/" in metin
    assert "Şifre sıfırlama" not in html and "Yeni şifre belirle" not in metin
    metin, html = parcalar(tek_alici(smtp, "tr@anadolu.com"))
    assert "Şifre sıfırlama</h1>" in html and "Yeni şifre belirle: http://testserver/portal/" in metin


def test_a_ticket_opened_by_mail_speaks_the_tenants_language(smtp, ingilizce_musteri, settings,
                                                             django_capture_on_commit_callbacks):
    from email.message import EmailMessage

    from eposta import tokenlar

    from .test_gelen import GIZLI, gonder

    settings.INBOUND_EMAIL_SECRET = GIZLI
    mail = EmailMessage()
    mail["From"], mail["To"] = "Jane Doe <jane@example.org>", tokenlar.musteri_gelen_adresi(ingilizce_musteri.id)
    mail["Subject"], mail["Message-ID"] = "Login problem", "<abc-1@example.org>"
    mail.set_content("I cannot log in.")
    with translation.override("tr"), django_capture_on_commit_callbacks(execute=True):
        veri = ok(gonder(mail.as_bytes()), 201)["gelen"]
    assert Ticket.objects.get(pk=veri["ticket_id"]).dil == "en"
    alindi = tek(smtp, "jane@example.org")
    metin, html = parcalar(alindi)
    assert konu(alindi) == f"[#{veri['ticket_id']}] We received your request: Login problem"
    assert metin.startswith(f"We received your request (#{veri['ticket_id']})\n\nHi Jane Doe,\n")
    turkce_yok(konu(alindi), metin, html)


def test_a_sign_up_mail_speaks_the_sign_up_pages_language_and_an_account_holders_its_own(
        smtp, musteri, django_capture_on_commit_callbacks):
    from portal.tests.yardimci import Tarayici

    uye(musteri, "var@ornek.com", "tr")
    for email, tarayici_dili in (("new@ornek.com", "en-US,en;q=0.9"), ("var@ornek.com", "en-US,en;q=0.9")):
        t = Tarayici()
        t.c.defaults["HTTP_ACCEPT_LANGUAGE"] = tarayici_dili
        with django_capture_on_commit_callbacks(execute=True):
            res = t.post("/portal/kayit", {"email": email, "sifre": "Mavi-Deniz-2026", "firma_adi": "Northwind"})
        assert res.status_code == 302
    # The task ran after the request, with no language active: it carried the page's.
    yeni = tek_alici(smtp, "new@ornek.com")
    metin, html = parcalar(yeni)
    assert konu(yeni) == "Activate your SupportDesk account"
    assert "To sign up for SupportDesk with the “Northwind” project, open the link below." in metin
    assert "Activate my account: http://testserver/portal/kayit/onay/" in metin
    turkce_yok(konu(yeni), metin, html)
    var = tek_alici(smtp, "var@ornek.com")  # the holder chose Turkish
    assert konu(var) == "SupportDesk: bu adresle zaten bir hesabınız var"
