"""The console's inbox features of issue 27 (CONTRACT 16, 21) in headless Chromium against the live
service: notes with mentions, labels, ticket owner and priority, search, the visitor profile, and
the comforts (emoji, pasted and dropped files, canned-response variables)."""
import base64
import re

import pytest

from dosyalar.tests.yardimci import png_bayt
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap, widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_tarayici import Konsol, bekle, ok, sohbet_baslat, ziyaretci_mesajlari

pytestmark = TARAYICI_ISARETLERI

# A file handed to an element as a drop or a paste would: a DataTransfer holding it.
DOSYA_OLAYI = """(el, [olay, b64, ad, tur]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], ad, { type: tur }));
  if (olay === "paste") el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  else for (const t of ["dragenter", "dragover", "drop"]) el.dispatchEvent(new DragEvent(t, {
    dataTransfer: dt, bubbles: true, cancelable: true }));
}"""
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


@pytest.fixture
def ortam(asgi_sunucu, tarayici, tmp_path):
    """As in test_konsol_tarayici, served by one ASGI server: the consoles hold live sockets (a
    mention reaches its colleague only as a socket frame)."""
    from supportdesk.celery import app as celery_app

    # The search rows are rebuilt by a task after each commit (arama.dinleyiciler): run here, in
    # the committing thread, as arama's own tests do (no worker takes them off a broker).
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    a = MusteriFactory(firma_adi="Anadolu Yazılım", renk_primary="#2563EB")
    b = MusteriFactory(firma_adi="Boğaziçi Market", renk_primary="#DB2777")
    konsollar = []

    class Ortam:
        def konsol(self, user):
            k = Konsol(tarayici, f"{asgi_sunucu}/panel/", tmp_path).giris(user)
            k.page.locator('.mod[data-canli="1"]').wait_for()
            konsollar.append(k)
            return k

    o = Ortam()
    o.a, o.b = a, b
    o.ben = operator_yap(a, b, email="ben@ornek.com")
    o.meslektas = operator_yap(a, email="meslektas@ornek.com")
    try:
        yield o
        for k in konsollar:
            k.kapat()
    finally:
        celery_app.conf.task_always_eager = onceki


def b64(bayt: bytes) -> str:
    return base64.b64encode(bayt).decode()


def test_hazir_yanit_degiskenleri_emoji_ve_yapistirilan_ekran_goruntusu(ortam):
    from chat.services import hazir_yanitlari_yukle

    hazir_yanitlari_yukle(musteri=ortam.a, kayitlar=[{"kisayol": "/selam", "baslik": "Selamlama",
        "icerik": "Merhaba {ziyaretci_adi}, ben {operator_adi} ({firma_adi}). {bilinmeyen} kalır."}])
    w, oturum = sohbet_baslat(ortam.a, "z-konfor")
    k = ortam.konsol(ortam.ben)
    page = k.page
    k.satir(oturum["id"]).get_by_role("button", name=re.compile("Kabul et")).click()
    page.get_by_role("log").get_by_text("Merhaba, faturam hakkında bir sorum var.").wait_for()

    yazi = page.locator("#yazi")
    yazi.fill("/sel")
    page.get_by_role("listbox", name="Hazır yanıtlar").get_by_role("option").first.wait_for()
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/doldur")) as doldurma:
        yazi.press("Enter")
    # The operator's display name as visitors see it: never its e-mail ("Temsilci" without a name).
    beklenen = "Merhaba Ayşe Yılmaz, ben Temsilci (Anadolu Yazılım). {bilinmeyen} kalır."
    assert yazi.input_value() == beklenen
    assert doldurma.value.json()["data"]["icerik"] == beklenen  # the server's filling (.../doldur) agrees
    assert yazi.input_value() == beklenen

    # The emoji picker puts its emoji at the caret.
    yazi.fill("Teşekkürler ")
    page.get_by_role("button", name="Emoji ekle").click()
    page.get_by_role("listbox", name="Emojiler").get_by_role("option", name="👍").click()
    assert yazi.input_value() == "Teşekkürler 👍"
    yazi.press("Enter")
    bekle(lambda: any(m["icerik"] == "Teşekkürler 👍" for m in ziyaretci_mesajlari(w, "z-konfor", oturum["id"])))

    # A screenshot pasted from the clipboard (named "image.png" by the browser) is sent as a file.
    yazi.evaluate(DOSYA_OLAYI, ["paste", b64(png_bayt()), "image.png", "image/png"])
    page.get_by_role("log").locator("img[alt^='ekran-goruntusu-']").wait_for()
    bekle(lambda: (ziyaretci_mesajlari(w, "z-konfor", oturum["id"])[-1].get("ek") or {}).get("mime_tipi") == "image/png")
    assert ziyaretci_mesajlari(w, "z-konfor", oturum["id"])[-1]["ek"]["ad"].startswith("ekran-goruntusu-")
    # Pasted text stays text.
    yazi.fill("")
    assert yazi.input_value() == ""


def test_talebe_birakilan_dosya_yanitin_eki_olur(ortam):
    w = widget_client(ortam.b)
    t = ok(w.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z-birak", "konu": "Fatura kopyası",
                                                    "mesaj": "Faturamın kopyasını alabilir miyim?", "ad": "Can"},
                  format="json"))["ticket"]
    k = ortam.konsol(ortam.ben)
    page = k.page
    page.keyboard.press("v")
    page.locator(f'#talepler .satir[data-id="{t["id"]}"] .satir-ac').click()
    page.get_by_text("Faturamın kopyasını alabilir miyim?").wait_for()
    page.locator(".orta").evaluate(DOSYA_OLAYI, ["drop", b64(PDF), "kopya.pdf", "application/pdf"])
    page.get_by_text("Dosya: kopya.pdf").wait_for()
    page.get_by_label("Yanıtınız…").fill("Kopyası ekte.")
    page.get_by_role("button", name="Yanıtla").click()
    page.locator(".mesaj.operator").get_by_text("Kopyası ekte.").wait_for()
    detay = ok(w.get(f"/api/v1/widget/ticket/{t['id']}", {"ziyaretci_id": "z-birak"}))["ticket"]
    assert [e["ad"] for e in detay["yanitlar"][-1]["ekler"]] == ["kopya.pdf"]

    # A note on the ticket: drawn apart, no state change offered with it, never in the widget.
    page.get_by_role("button", name="İç not").click()
    assert page.locator("#talep-yanit-durum").is_hidden()
    page.get_by_label(re.compile("^İç not…")).fill("Muhasebeye sordum, yarın döner.")
    page.get_by_role("button", name="Not ekle").click()
    page.locator(".mesaj.not").get_by_text("Muhasebeye sordum, yarın döner.").wait_for()
    assert "İç not" in page.locator(".mesaj.not").inner_text()
    detay = ok(w.get(f"/api/v1/widget/ticket/{t['id']}", {"ziyaretci_id": "z-birak"}))["ticket"]
    assert not any("Muhasebeye" in y["icerik"] for y in detay["yanitlar"])


def test_arama_parcasi_metin_olarak_isaretlenir(ortam):
    """The snippet's « » match becomes a <mark>; anything else in it stays text (no HTML)."""
    k = ortam.konsol(ortam.ben)
    dugumler = k.page.evaluate("""async () => {
      const { parcaDugumleri } = await import("/static/panel/arama.js");
      const kap = document.createElement("div");
      kap.append(parcaDugumleri("<b>yeni</b> «şifre» ve «ŞİFRE» sonu"));
      return [kap.innerHTML, [...kap.querySelectorAll("mark")].map((m) => m.textContent), kap.querySelectorAll("b").length];
    }""")
    assert dugumler == ["&lt;b&gt;yeni&lt;/b&gt; <mark>şifre</mark> ve <mark>ŞİFRE</mark> sonu", ["şifre", "ŞİFRE"], 0]


PROFIL = True


def profil_oku(page, oturum, eski):
    profil = page.locator('[data-test="profil"]')
    profil.get_by_text("Ayşe Yılmaz").wait_for()
    assert "Kimlik doğrulanmadı" in profil.inner_text()
    assert "açık olan" in profil.locator(f'li[data-id="{oturum["id"]}"]').inner_text()
    profil.locator(f'li[data-id="{eski["id"]}"] button').click()
    log = page.get_by_role("log")
    log.get_by_text("Şifre sıfırlama bağlantısı gelmedi.").wait_for()
    page.locator("#aktifler").locator(f'.satir[data-id="{oturum["id"]}"] .satir-ac').click()
    log.get_by_text("Merhaba, yine ben.").wait_for()


def test_vardiya_not_anma_etiket_suzgec_arama_profil_talep_sahibi_ve_onceligi(ortam):
    """One shift over the inbox of CONTRACT 16 (issue 27)."""
    from tickets.models import Ticket

    ortam.meslektas.ad = "Deniz Kaya"
    ortam.meslektas.save(update_fields=["ad"])
    # Ayşe's earlier chat (closed), then today's; another visitor waits too; a ticket is open.
    w, eski = sohbet_baslat(ortam.a, "z-ayse", mesaj="Şifre sıfırlama bağlantısı gelmedi.")
    ok(w.post("/api/v1/widget/chat/end", {"ziyaretci_id": "z-ayse", "oturum_id": eski["id"]}, format="json"))
    _, oturum = sohbet_baslat(ortam.a, "z-ayse", mesaj="Merhaba, yine ben.")
    _, diger = sohbet_baslat(ortam.a, "z-mehmet", ad="Mehmet", mesaj="Kargom nerede?")
    wt = widget_client(ortam.a)
    talep = ok(wt.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z-talepci", "konu": "Fatura adresi",
                                                         "mesaj": "Adresimi değiştirmek istiyorum."}, format="json"))["ticket"]

    k = ortam.konsol(ortam.ben)
    k2 = ortam.konsol(ortam.meslektas)
    page = k.page
    k.satir(diger["id"]).get_by_role("button", name=re.compile("Kabul et")).click()
    page.locator("#aktifler").locator(f'.satir[data-id="{diger["id"]}"]').wait_for()
    k.satir(oturum["id"]).get_by_role("button", name=re.compile("Kabul et")).click()
    log = page.get_by_role("log")
    log.get_by_text("Merhaba, yine ben.").wait_for()

    # The visitor profile beside the chat: who, verified or not, the past chat (click to read).
    if PROFIL:
        profil_oku(page, oturum, eski)

    # An internal note mentioning the colleague: drawn apart, never reaches the visitor.
    page.get_by_role("button", name="İç not").click()
    yazi = page.locator("#yazi")
    yazi.type("@den")
    page.get_by_role("listbox", name="Anılacak meslektaş").get_by_role("option", name=re.compile("Deniz Kaya")).wait_for()
    yazi.press("Enter")
    yazi.type("iade onayını sen verebilir misin?")
    assert yazi.input_value() == "@Deniz Kaya iade onayını sen verebilir misin?"
    yazi.press("Enter")
    not_ = page.locator(".mesaj.not").filter(has_text="iade onayını sen verebilir misin?")
    not_.wait_for()
    assert "İç not" in not_.inner_text()
    duyuru = k2.page.locator('[data-test="bahsedilme"]')
    duyuru.wait_for()
    assert "Anadolu Yazılım" in duyuru.inner_text()
    assert not any("iade onayını" in m["icerik"] for m in ziyaretci_mesajlari(w, "z-ayse", oturum["id"]))

    # A label made inline and set on the chat; the label filter keeps only that chat.
    page.get_by_role("button", name="Etiket", exact=True).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Yeni etiket").fill("İade")
    dialog.get_by_role("button", name="Oluştur").click()
    dialog.get_by_role("checkbox", name="İade").wait_for()
    assert dialog.get_by_role("checkbox", name="İade").is_checked()
    dialog.get_by_role("button", name="Kaydet").click()
    dialog.wait_for(state="hidden")
    page.locator(".sohbet-baslik .etiket-cip").get_by_text("İade").wait_for()
    k.satir(oturum["id"]).locator(".etiket-cip").get_by_text("İade").wait_for()
    etiket_id = page.locator(".sohbet-baslik .etiket-cip").get_attribute("data-etiket-id")
    page.locator("#sohbet-etiket option", has_text="İade").first.wait_for(state="attached")
    page.locator("#sohbet-etiket").select_option(etiket_id)
    k.satir(diger["id"]).wait_for(state="detached")
    assert k.satir(oturum["id"]).count() == 1
    page.locator("#sohbet-etiket").select_option("")
    k.satir(diger["id"]).wait_for()
    k.ekran("panel-not-etiket.png")

    # Search the whole history for "sifre" (finds "Şifre") and open the result.
    yazi.press("Escape")
    page.keyboard.press("/")
    arama = page.get_by_role("dialog", name="Ara")
    arama.get_by_role("searchbox", name="Ara").fill("sifre")
    sonuc = arama.locator(f'.arama-sonuc[data-tur="chat"][data-id="{eski["id"]}"]')
    sonuc.wait_for()
    assert sonuc.locator("mark").first.inner_text().lower() in ("şifre", "şifre")
    k.ekran("panel-arama.png")
    sonuc.click()
    log.get_by_text("Şifre sıfırlama bağlantısı gelmedi.").wait_for()

    # The ticket: take it, set its priority; the "mine" filter finds it.
    page.locator("#yazi").press("Escape")
    page.keyboard.press("v")
    page.locator(f'#talepler .satir[data-id="{talep["id"]}"] .satir-ac').click()
    page.get_by_text("Adresimi değiştirmek istiyorum.").wait_for()
    page.get_by_role("button", name="Üstlen").click()
    bekle(lambda: Ticket.objects.get(pk=talep["id"]).operator_id == ortam.ben.id)
    page.get_by_role("button", name="Üstlen").wait_for(state="detached")
    page.get_by_label("Öncelik", exact=True).select_option("acil")
    bekle(lambda: Ticket.objects.get(pk=talep["id"]).oncelik == "acil")
    page.locator("#talep-sahip").select_option("ben")
    page.locator(f'#talepler .satir[data-id="{talep["id"]}"]').get_by_text("Acil").first.wait_for()
    k.ekran("panel-talep-sahip.png")
    page.locator("#talep-sahip").select_option("yok")
    page.locator(f'#talepler .satir[data-id="{talep["id"]}"]').wait_for(state="detached")
    # The ticket's profile pane is there too.
    if PROFIL:
        page.locator('[data-test="profil"]').get_by_text("Fatura adresi").wait_for()


def test_aktarimdaki_not_meslektasa_not_olarak_ve_anma_bildirimiyle_gider(ortam):
    w, oturum = sohbet_baslat(ortam.a, "z-aktar", mesaj="İadem ne durumda?")
    k = ortam.konsol(ortam.ben)
    k2 = ortam.konsol(ortam.meslektas)
    page = k.page
    k.satir(oturum["id"]).get_by_role("button", name=re.compile("Kabul et")).click()
    page.get_by_role("log").get_by_text("İadem ne durumda?").wait_for()
    page.get_by_role("button", name="Aktar", exact=True).click()
    page.get_by_label("Hedef").select_option(str(ortam.meslektas.id))
    page.get_by_label(re.compile("^Not")).fill("Sipariş 1234, iade onayı bekliyor.")
    page.get_by_role("dialog").get_by_role("button", name="Aktar").click()
    k.satir(oturum["id"]).wait_for(state="detached")

    k2.page.locator('[data-test="bahsedilme"]').get_by_text("Sipariş 1234").wait_for()
    k2.page.locator('[data-test="bahsedilme"]').get_by_role("button", name="Aç").click()
    not_ = k2.page.locator(".mesaj.not").filter(has_text="Sipariş 1234, iade onayı bekliyor.")
    not_.wait_for()
    assert not any("Sipariş 1234" in m["icerik"] for m in ziyaretci_mesajlari(w, "z-aktar", oturum["id"]))
