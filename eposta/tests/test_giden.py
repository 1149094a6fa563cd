"""Every mail of CONTRACT 14's table, received by a real SMTP server on loopback: the right
address, the right text, both parts, threading headers, the stop link, and no mail lost or
doubled while the SMTP server is down."""
import re
import time
from email.utils import formataddr
from html.parser import HTMLParser

import pytest
from django.test import Client

from eposta import tasks
from eposta.models import GidenEposta
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.tests.test_auth import hata
from tickets.tests.test_tickets import ac, ok, op_client

pytestmark = pytest.mark.django_db
OP = "/api/v1/operator"
ZIYARETCI = "ayse@ornek.com"


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a call and what it leaves for after the commit (the mail rows and their tasks)."""
    def calistir(fonksiyon, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fonksiyon(*args, **kwargs)
    return calistir


@pytest.fixture
def sahip(musteri):
    return operator_yap(musteri, rol="sahip", email="sahip@anadolu.com")


def parcalar(mesaj) -> tuple[str, str]:
    metin = mesaj.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return metin, mesaj.get_body(("html",)).get_content()


def tum_metin(mesaj) -> str:
    return str(mesaj) + "".join(parcalar(mesaj))


def test_ticket_mails_reach_the_visitor_threaded_with_both_parts(smtp, commit, musteri, widget, operator, operator_client):
    operator.ad = "Mehmet"
    operator.save()
    ticket = commit(ac, widget, ad="Ayşe", email=ZIYARETCI)
    [alindi] = smtp.alicinin(ZIYARETCI)
    metin, html = parcalar(alindi)
    assert f"#{ticket['id']}" in alindi["Subject"] and "alındı" in alindi["Subject"]
    assert f"#{ticket['id']} numarasıyla kaydedildi" in metin
    assert "Anadolu Yazılım" in html and musteri.renk_primary in html and "Anadolu Yazılım" in str(alindi["From"])
    kok = alindi["Message-ID"]
    assert kok == f"<ticket-{ticket['id']}.m{musteri.id}@inbound.localhost>"
    assert re.fullmatch(rf"destek\+t{ticket['id']}-[0-9a-f]{{20}}@inbound\.localhost", alindi["Reply-To"])
    assert alindi["List-Unsubscribe"].strip().startswith("<http://testserver/eposta/durdur/")
    assert alindi["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "Faturanız e-postanızda.\nİyi günler."},
           format="json")
    _, yanit = smtp.alicinin(ZIYARETCI)
    metin, html = parcalar(yanit)
    assert "> Faturanız e-postanızda.\n> İyi günler." in metin and "Mehmet yazdı:" in metin
    assert "Faturanız e-postanızda." in html
    assert yanit["In-Reply-To"] == kok and yanit["References"] == kok and yanit["Message-ID"] != kok
    assert yanit["Reply-To"] == alindi["Reply-To"]
    assert operator.email not in tum_metin(yanit)  # no operator address to visitors

    commit(operator_client.put, f"{OP}/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, format="json")
    _, _, cozuldu = smtp.alicinin(ZIYARETCI)
    assert "çözüldü" in cozuldu["Subject"] and cozuldu["In-Reply-To"] == kok
    assert "çözüldü olarak işaretlendi" in parcalar(cozuldu)[0]
    assert len(smtp.mesajlar) == 3  # nothing to anyone else (the operator is not an owner)
    assert set(GidenEposta.objects.values_list("durum", flat=True)) == {"gonderildi"}


def test_a_ticket_without_email_mails_no_visitor(smtp, commit, widget, operator_client):
    ticket = commit(ac, widget)
    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "Tamam."}, format="json")
    assert smtp.mesajlar == []


def test_the_stop_link_stops_later_mails_of_that_ticket_only(smtp, commit, widget, operator_client):
    ticket = commit(ac, widget, email=ZIYARETCI)
    diger = commit(ac, widget, email=ZIYARETCI)
    ilk = smtp.alicinin(ZIYARETCI)[0]
    link = ilk["List-Unsubscribe"].strip().strip("<>").removeprefix("http://testserver")
    assert link in parcalar(ilk)[0]
    res = Client().get(link)
    assert res.status_code == 200 and "durduruldu" in res.content.decode()
    assert Client().post(link).status_code == 200  # RFC 8058 one-click POST: same effect, idempotent
    assert Client().get(link[:-3] + "xyz").status_code == 404

    onceki = len(smtp.mesajlar)
    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "Yanıt"}, format="json")
    commit(operator_client.put, f"{OP}/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, format="json")
    assert len(smtp.mesajlar) == onceki
    commit(operator_client.post, f"{OP}/ticket/{diger['id']}/reply", {"icerik": "Öbür talep"}, format="json")
    assert len(smtp.mesajlar) == onceki + 1


def test_visitor_mails_go_only_to_that_visitor(smtp, commit, musteri, diger_musteri, widget, operator_client):
    a = commit(ac, widget, "za", email="a@ornek.com")
    commit(ac, widget, "zb", email="b@ornek.com")
    commit(ac, widget_client(diger_musteri), "za", email="c@ornek.com")
    smtp.mesajlar.clear()
    commit(operator_client.post, f"{OP}/ticket/{a['id']}/reply", {"icerik": "Yalnız A'ya"}, format="json")
    assert [alicilar for alicilar, _ in smtp.mesajlar] == [["a@ornek.com"]]


def test_new_ticket_alerts_follow_each_membership(smtp, commit, musteri, diger_musteri, sahip, operator, widget):
    operator_yap(diger_musteri, rol="sahip", email="baska@firma.com")
    commit(ac, widget)
    [uyari] = smtp.alicinin("sahip@anadolu.com")
    assert "Yeni talep" in uyari["Subject"] and "Merhaba, faturamı bulamıyorum." in parcalar(uyari)[0]
    assert "Anadolu Yazılım" in parcalar(uyari)[1]
    assert smtp.alicinin(operator.email) == [] and smtp.alicinin("baska@firma.com") == []

    sahip_api, op_api = op_client(sahip), op_client(operator)
    adres = f"{OP}/tenants/{musteri.id}/eposta-bildirimi"
    assert ok(op_api.get(adres)) == {"musteri_id": musteri.id, "eposta_bildirimi": False}
    assert ok(op_api.put(adres, {"eposta_bildirimi": True}, format="json"))["eposta_bildirimi"] is True
    assert ok(sahip_api.put(adres, {"eposta_bildirimi": False}, format="json"))["eposta_bildirimi"] is False
    hata(op_api.put(f"{OP}/tenants/{diger_musteri.id}/eposta-bildirimi", {"eposta_bildirimi": True}, format="json"),
         404, "BULUNAMADI")
    hata(op_api.put(adres, {"eposta_bildirimi": "belki"}, format="json"), 400, "GECERSIZ_ISTEK")
    smtp.mesajlar.clear()
    commit(ac, widget)
    assert [alicilar for alicilar, _ in smtp.mesajlar] == [[operator.email]]


def _kapali_sohbet(commit, widget, operator_client, ziyaretci_id="z1", email=ZIYARETCI):
    oturum = ok(widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": ziyaretci_id, "ad": "Ayşe", "email": email,
                                                          "mesaj": "Siparişim nerede?"}, format="json"), 201)["oturum"]
    ok(operator_client.post(f"{OP}/chat/{oturum['id']}/accept"))
    ok(widget.get("/api/v1/widget/chat/messages", {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum["id"]}))
    commit(operator_client.post, f"{OP}/chat/{oturum['id']}/message", {"icerik": "Kargoda."}, format="json")
    ok(widget.post("/api/v1/widget/chat/end", {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum["id"]}, format="json"))
    return oturum


def test_chat_transcript_at_most_three_times(smtp, commit, widget, operator_client, settings):
    settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE = 3600  # the visitor is present: no "answered" mail
    acik = ok(widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z2", "mesaj": "?"}, format="json"), 201)["oturum"]
    hata(widget.post("/api/v1/widget/chat/transcript", {"ziyaretci_id": "z2", "oturum_id": acik["id"],
                                                        "email": "x@ornek.com"}, format="json"), 409, "DURUM_CAKISMASI")
    oturum = _kapali_sohbet(commit, widget, operator_client)
    istek = {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}
    hata(widget.post("/api/v1/widget/chat/transcript", {**istek, "ziyaretci_id": "z2"}, format="json"), 404, "BULUNAMADI")
    hata(widget.post("/api/v1/widget/chat/transcript", {**istek, "email": "yok"}, format="json"), 400, "GECERSIZ_ISTEK")
    res = commit(widget.post, "/api/v1/widget/chat/transcript", istek, format="json")
    assert ok(res, 201)["eposta"]["alici"] == ZIYARETCI
    [dokum] = smtp.alicinin(ZIYARETCI)
    metin, html = parcalar(dokum)
    assert "Ayşe: Siparişim nerede?" in metin and "Temsilci: Kargoda." in metin and "Siparişim nerede?" in html
    assert dokum["List-Unsubscribe"]
    commit(widget.post, "/api/v1/widget/chat/transcript", {**istek, "email": "ikinci@ornek.com"}, format="json")
    commit(widget.post, "/api/v1/widget/chat/transcript", istek, format="json")
    res = widget.post("/api/v1/widget/chat/transcript", istek, format="json")
    hata(res, 429, "LIMIT_ASILDI")
    assert len(smtp.alicinin(ZIYARETCI)) == 2 and len(smtp.alicinin("ikinci@ornek.com")) == 1


def test_offline_message_answered_only_when_the_visitor_left(smtp, commit, widget, operator_client, settings):
    oturum = ok(widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z1", "email": ZIYARETCI, "mesaj": "Alo?"},
                            format="json"), 201)["oturum"]
    ok(operator_client.post(f"{OP}/chat/{oturum['id']}/accept"))
    ok(widget.get("/api/v1/widget/chat/messages", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}))
    commit(operator_client.post, f"{OP}/chat/{oturum['id']}/message", {"icerik": "Buradayım."}, format="json")
    assert smtp.mesajlar == []  # polled just now: still in the chat

    settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE = 0  # the last poll is now "long ago"
    commit(operator_client.post, f"{OP}/chat/{oturum['id']}/message", {"icerik": "Size e-postayla da yazdım."},
           format="json")
    [mail] = smtp.alicinin(ZIYARETCI)
    assert "yanıtlandı" in mail["Subject"] and "> Size e-postayla da yazdım." in parcalar(mail)[0]
    assert mail["List-Unsubscribe"]
    commit(operator_client.post, f"{OP}/chat/{oturum['id']}/message", {"icerik": "Bir daha"}, format="json")
    assert len(smtp.mesajlar) == 1  # at most one such mail per chat per 10 minutes


def test_smtp_down_for_a_while_every_mail_arrives_once(smtp, commit, widget, operator_client):
    smtp.durdur()
    ticketlar = [commit(ac, widget, f"z{i}", email=f"v{i}@ornek.com") for i in range(3)]
    assert GidenEposta.objects.filter(durum="bekliyor", deneme=1).count() == 3
    assert "Error" in GidenEposta.objects.first().hata or "refused" in GidenEposta.objects.first().hata.lower()
    tasks.vadesi_gelenleri_gonder()  # still down: a second attempt each, nothing lost
    assert GidenEposta.objects.filter(durum="bekliyor", deneme=2).count() == 3
    smtp.baslat()
    assert tasks.vadesi_gelenleri_gonder() == 3
    tasks.vadesi_gelenleri_gonder()
    for t in ticketlar:
        tasks.eposta_gonder(GidenEposta.objects.get(ticket_id=t["id"]).id)  # a late duplicate task: no effect
    assert sorted(a for alicilar, _ in smtp.mesajlar for a in alicilar) == ["v0@ornek.com", "v1@ornek.com", "v2@ornek.com"]
    assert set(GidenEposta.objects.values_list("durum", "deneme")) == {("gonderildi", 3)}


def test_a_mail_fails_for_good_after_the_last_attempt(smtp, commit, widget, settings):
    settings.EPOSTA_MAX_ATTEMPTS = 2
    smtp.durdur()
    commit(ac, widget, email=ZIYARETCI)
    tasks.vadesi_gelenleri_gonder()
    eposta = GidenEposta.objects.get()
    assert (eposta.durum, eposta.deneme) == ("basarisiz", 2) and eposta.hata
    smtp.baslat()
    tasks.vadesi_gelenleri_gonder()
    assert smtp.mesajlar == []


def test_a_reply_that_solves_sends_one_mail_saying_both(smtp, commit, widget, operator_client):
    ticket = commit(ac, widget, email=ZIYARETCI)
    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "Düzelttik.", "durum": "cozuldu"},
           format="json")
    _, yanit = smtp.alicinin(ZIYARETCI)
    metin = parcalar(yanit)[0]
    assert "> Düzelttik." in metin and "çözüldü olarak işaretlendi" in metin
    assert len(smtp.mesajlar) == 2



MARKDOWN_YANIT = (
    "**Önemli:** faturanız *yarın* gelir.\n\n"
    "Adımlar:\n1. [Hesabım](https://ornek.com/hesap) sayfasını açın\n2. `Faturalar` sekmesine gidin\n\n"
    "<script>alert(1)</script> <img src=x onerror=alert(2)> <a href=\"https://kotu.test\">a</a>\n"
    "[tık](javascript:alert(3)) [veri](data:text/html,x) ![resim](https://kotu.test/i.png)"
)


def test_a_reply_in_markdown_is_formatted_in_the_html_part_and_kept_as_typed_in_the_text_part(
        smtp, commit, widget, operator_client):
    ticket = commit(ac, widget, email=ZIYARETCI)
    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": MARKDOWN_YANIT}, format="json")
    _, yanit = smtp.alicinin(ZIYARETCI)
    metin, html = parcalar(yanit)
    html = html.replace("\r\n", "\n")
    assert "> **Önemli:** faturanız *yarın* gelir." in metin and "> 1. [Hesabım](https://ornek.com/hesap)" in metin
    assert "<strong>Önemli:</strong> faturanız <em>yarın</em> gelir." in html
    assert '<ol>\n<li><a href="https://ornek.com/hesap" rel="noopener noreferrer">Hesabım</a> sayfasını açın</li>' in html
    assert "<li><code>Faturalar</code> sekmesine gidin</li>" in html
    # typed markup is text; only http(s) and mailto become links; no image is loaded
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt;" in html
    assert "![resim](https://kotu.test/i.png)" in html
    etiketler = _etiketler(html)
    assert not {"script", "img"} & {e for e, _ in etiketler}
    assert [a["href"] for e, a in etiketler if "href" in a] == [
        "https://ornek.com/hesap", re.search(r'href="(http://testserver/eposta/durdur/[^"]+)"', html)[1]]
    assert not [a for _, a in etiketler if "src" in a or any(k.startswith("on") for k in a)]



@pytest.mark.parametrize("icerik", ["1. " * 6000, "- " * 9000, "[" * 20000, "[a](" * 5000, "*_`[<" * 4000])
def test_a_reply_of_hostile_markdown_is_mailed_at_once(smtp, commit, widget, operator_client, icerik):
    # Python-Markdown nested a list per `1. ` until RecursionError (the mail failed for good), and
    # scanned from every `[` to the end of the text (20 000 `[` took 54 s): such a text is mailed
    # as typed, within a second or so.
    ticket = commit(ac, widget, email=ZIYARETCI)
    bas = time.monotonic()
    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": icerik}, format="json")
    assert time.monotonic() - bas < 5
    _, yanit = smtp.alicinin(ZIYARETCI)
    metin, html = parcalar(yanit)
    assert icerik.strip()[:50] in metin.replace("\n", "")
    assert "<strong" not in html and "<script" not in html


def _etiketler(html: str) -> list[tuple[str, dict]]:
    class Okuyucu(HTMLParser):
        def __init__(self):
            super().__init__()
            self.etiketler = []

        def handle_starttag(self, tag, attrs):
            self.etiketler.append((tag, dict(attrs)))

    okuyucu = Okuyucu()
    okuyucu.feed(html)
    return okuyucu.etiketler


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_thread_sends_and_the_request_does_not(smtp, widget, settings):
    settings.EPOSTA_YEREL_ISCI = True
    smtp.durdur()
    ac(widget, email=ZIYARETCI)  # the request answers although the mail server is down
    eposta = GidenEposta.objects.get()
    for _ in range(50):
        eposta.refresh_from_db()
        if eposta.deneme:
            break
        time.sleep(0.1)
    assert (eposta.durum, eposta.deneme) == ("bekliyor", 1)
    smtp.baslat()
    assert tasks.vadesi_gelenleri_gonder() == 1
    assert [alicilar for alicilar, _ in smtp.mesajlar] == [[ZIYARETCI]]


def test_cr_lf_in_a_subject_or_project_name_stays_on_one_header_line(smtp, commit, musteri, sahip, widget,
                                                                     operator_client):
    # The widget takes such a subject; in a header it started a line of its own, Django refused
    # every mail about the ticket (BadHeaderError) and each was retried until it failed for good.
    musteri.firma_adi = "Anadolu\r\nBcc: evil@evil.test"
    musteri.save(update_fields=["firma_adi"])
    ticket = commit(ac, widget, konu="Merhaba\r\nBcc: evil@evil.test\n\x0bX", email=ZIYARETCI)
    commit(operator_client.post, f"{OP}/ticket/{ticket['id']}/reply", {"icerik": "Yanıt", "durum": "cozuldu"},
           format="json")
    assert set(GidenEposta.objects.values_list("durum", flat=True)) == {"gonderildi"}
    assert len(smtp.alicinin(ZIYARETCI)) == 2 and len(smtp.alicinin("sahip@anadolu.com")) == 1
    for alicilar, mesaj in smtp.mesajlar:
        assert "evil@evil.test" not in alicilar and mesaj["Bcc"] is None
        assert "\r" not in mesaj["Subject"] and "\n" not in mesaj["Subject"]
        assert "Bcc: evil@evil[.]test" in mesaj["Subject"]  # visitor text, never a link (test_alindi_siniri)
        assert mesaj["From"].addresses[0].display_name == "Anadolu Bcc: evil@evil.test"
    assert "Merhaba Bcc: evil@evil[.]test X" in smtp.alicinin(ZIYARETCI)[0]["Subject"]


def test_a_mail_stored_with_cr_lf_before_the_fix_is_sent_on_its_next_attempt(smtp, musteri):
    GidenEposta.objects.create(
        musteri=musteri, tur="ticket_alindi", alici=ZIYARETCI, konu="[#1] Merhaba\r\nBcc: evil@evil.test",
        basliklar={"From": formataddr(("Anadolu\r\nBcc: evil@evil.test", "destek@localhost"))}, metin="m", html="<p>m</p>",
        message_id="<eski-satir-sonu@inbound.localhost>", deneme=2,
    )
    assert tasks.vadesi_gelenleri_gonder() == 1, GidenEposta.objects.get().hata  # as the old code wrote it
    [(alicilar, mesaj)] = smtp.mesajlar
    assert alicilar == [ZIYARETCI] and mesaj["Bcc"] is None and mesaj["Subject"] == "[#1] Merhaba Bcc: evil@evil.test"
    assert GidenEposta.objects.get().durum == "gonderildi"
