"""The console's inbox features of issue 27 (CONTRACT 16, 21) in headless Chromium against the live
service: notes with mentions, labels, ticket owner and priority, search, the visitor profile, and
the comforts (emoji, pasted and dropped files, canned-response variables)."""
import base64
import re

from rest_framework.test import APIClient

from dosyalar.tests.yardimci import png_bayt
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_tarayici import bekle, ok, ortam, sohbet_baslat, ziyaretci_mesajlari  # noqa: F401 (fixture)

pytestmark = TARAYICI_ISARETLERI

# A file handed to an element as a drop or a paste would: a DataTransfer holding it.
DOSYA_OLAYI = """(el, [olay, b64, ad, tur]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], ad, { type: tur }));
  if (olay === "paste") el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  else for (const t of ["dragenter", "dragover", "drop"]) el.dispatchEvent(new DragEvent(t, { dataTransfer: dt, bubbles: true, cancelable: true }));
}"""
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def b64(bayt: bytes) -> str:
    return base64.b64encode(bayt).decode()


def operator_istemcisi(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer " + ok(client.post(
        "/api/v1/auth/login", {"email": user.email, "sifre": TEST_SIFRE}, format="json"))["token"])
    return client


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
    yazi.press("Enter")
    ad = ortam.ben.ad or ortam.ben.email
    assert yazi.input_value() == f"Merhaba Ayşe Yılmaz, ben {ad} (Anadolu Yazılım). {{bilinmeyen}} kalır."

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
