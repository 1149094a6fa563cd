"""The console's points of issue 39 ("A shift without surprises") in headless Chromium against the
live service: one drop is one file, an unmatched `/shortcut` is never sent, canned responses of the
chat's own tenant, toasts clear of the composer, a transfer with a note rings once, human words for
a lost connection, the profile's live state, search closed by one Esc, snippets without Markdown."""
import re

from playwright.sync_api import expect

from dosyalar.models import Dosya
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_gelen_kutusu_tarayici import DOSYA_OLAYI, PDF, b64, ortam  # noqa: F401  (the fixture)
from .test_konsol_tarayici import Konsol, bekle, ok, sohbet_baslat, ziyaretci_mesajlari

pytestmark = TARAYICI_ISARETLERI

# Drops a file on `el` and answers how many uploads the page started while the drop was handled
# (every listener runs inside dispatchEvent; each upload's fetch starts before its first await).
BIRAK_VE_SAY = """(el, [b64, ad, tur]) => {
  const asil = window.fetch;
  let sayi = 0;
  window.fetch = (url, ...geri) => { if (String(url).includes("/operator/upload")) sayi += 1; return asil(url, ...geri); };
  try {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], ad, { type: tur }));
    for (const t of ["dragenter", "dragover", "drop"]) el.dispatchEvent(new DragEvent(t, {
      dataTransfer: dt, bubbles: true, cancelable: true }));
  } finally { window.fetch = asil; }
  return sayi;
}"""


def _kabul(k, oturum_id, metin):
    k.satir(oturum_id).get_by_role("button", name=re.compile("Kabul et|Accept")).click()
    k.page.get_by_role("log").get_by_text(metin).wait_for()


def test_bir_birakma_bir_dosya_kac_sohbet_acilmis_olursa_olsun(ortam):  # noqa: F811
    """Issue 39.1: every chat or ticket opened in the tab added one more drop listener to the pane,
    so one drop sent the file once per opening."""
    sohbetler = []
    for i in range(3):
        w, o = sohbet_baslat(ortam.a, f"z-birak-{i}", ad=f"Ziyaretçi {i}", mesaj=f"Soru {i}")
        sohbetler.append((w, o))
    wt = widget_client(ortam.a)
    t = ok(wt.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z-talep", "konu": "Fatura",
                                                     "mesaj": "Faturam nerede?"}, format="json"))["ticket"]
    k = ortam.konsol(ortam.ben)
    page = k.page
    for i, (_, o) in enumerate(sohbetler):
        _kabul(k, o["id"], f"Soru {i}")
    # Back and forth between them, through the ticket view too: five more openings.
    for _, o in (sohbetler[0], sohbetler[1]):
        page.locator(f'#aktifler .satir[data-id="{o["id"]}"] .satir-ac').click()
        page.locator(f'#aktifler .satir[data-id="{o["id"]}"] .satir-ac[aria-current="true"]').wait_for()
    # An opening ends by focusing the composer once its messages are read: wait for that, or a
    # late focus takes the shortcut below as typing.
    expect(page.locator("#yazi")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#yazi")).not_to_be_focused()
    page.keyboard.press("v")
    page.locator('[data-gorunum="talep"][aria-pressed="true"]').wait_for()
    page.locator(f'#talepler .satir[data-id="{t["id"]}"] .satir-ac').click()
    page.get_by_text("Faturam nerede?").wait_for()
    page.keyboard.press("c")
    w, o = sohbetler[2]
    page.locator(f'#aktifler .satir[data-id="{o["id"]}"] .satir-ac').click()
    page.get_by_role("log").get_by_text("Soru 2").wait_for()

    yuklemeler = page.locator(".orta").evaluate(BIRAK_VE_SAY, [b64(PDF), "tek.pdf", "application/pdf"])
    assert yuklemeler == 1
    page.get_by_role("log").locator(".ek").filter(has_text="tek.pdf").wait_for()
    bekle(lambda: any((m.get("ek") or {}).get("ad") == "tek.pdf" for m in ziyaretci_mesajlari(w, "z-birak-2", o["id"])))
    # A message after the file: when it has arrived, so has anything sent before it.
    page.locator("#yazi").fill("Dosyayı gönderdim.")
    page.locator("#yazi").press("Enter")
    bekle(lambda: ziyaretci_mesajlari(w, "z-birak-2", o["id"])[-1]["icerik"] == "Dosyayı gönderdim.")
    ekli = [m for m in ziyaretci_mesajlari(w, "z-birak-2", o["id"]) if m.get("ek")]
    assert [m["ek"]["ad"] for m in ekli] == ["tek.pdf"]
    assert Dosya.objects.filter(musteri=ortam.a, ad="tek.pdf").count() == 1
    assert page.get_by_role("log").locator(".ek").count() == 1
    # The other chats got nothing.
    for i, (wi, oi) in enumerate(sohbetler[:2]):
        assert not any(m.get("ek") for m in ziyaretci_mesajlari(wi, f"z-birak-{i}", oi["id"]))

    # The ticket view after all those chats: a drop is one attachment of the reply, not a message.
    page.keyboard.press("Escape")
    page.keyboard.press("v")
    page.locator(f'#talepler .satir[data-id="{t["id"]}"] .satir-ac').click()
    page.get_by_text("Faturam nerede?").wait_for()
    assert page.locator(".orta").evaluate(BIRAK_VE_SAY, [b64(PDF), "talep.pdf", "application/pdf"]) == 1
    page.get_by_text("Dosya: talep.pdf").wait_for()
    assert page.locator(".ek-listesi li").count() == 1
    assert Dosya.objects.filter(musteri=ortam.a, ad="talep.pdf").count() == 1


def test_eslesmeyen_kisayol_gonderilmez_ve_hazir_yanitlar_sohbetin_projesinden(ortam):  # noqa: F811
    """Issue 39.5: with "Eşleşen hazır yanıt yok" showing, Enter (or Send) sent `/selam` to the
    customer as typed. In the unified queue each chat offers its own tenant's canned responses."""
    from chat.services import hazir_yanitlari_yukle

    hazir_yanitlari_yukle(musteri=ortam.a, kayitlar=[{"kisayol": "/selam", "baslik": "Selamlama A",
                                                      "icerik": "Anadolu Yazılım'a hoş geldiniz."}])
    hazir_yanitlari_yukle(musteri=ortam.b, kayitlar=[{"kisayol": "/iade", "baslik": "İade B",
                                                      "icerik": "Boğaziçi Market iade adımları: …"}])
    wa, oa = sohbet_baslat(ortam.a, "z-a", ad="Ali", mesaj="A sorusu")
    wb, ob = sohbet_baslat(ortam.b, "z-b", ad="Banu", mesaj="B sorusu")
    k = ortam.konsol(ortam.ben)  # a member of both, on the "Tümü" tab
    page = k.page
    _kabul(k, ob["id"], "B sorusu")
    yazi = page.locator("#yazi")
    liste = page.get_by_role("listbox", name="Hazır yanıtlar")

    # Tenant A's shortcut in tenant B's chat: no match, and Enter sends nothing.
    yazi.fill("/selam")
    liste.get_by_text("Eşleşen hazır yanıt yok.").wait_for()
    yazi.press("Enter")
    page.get_by_role("alert").get_by_text("«/selam» müşteriye gönderilmedi").wait_for()
    assert yazi.input_value() == "/selam"
    k.ekran("konsol-eslesmeyen-kisayol.png")
    # Nor does the Send button, nor a shortcut typed too fast for the list.
    page.get_by_role("button", name="Gönder", exact=True).click()
    yazi.fill("/xyz")
    yazi.press("Enter")
    page.get_by_role("alert").get_by_text("«/xyz» müşteriye gönderilmedi").wait_for()
    # B's own response is offered and inserted.
    yazi.fill("/ia")
    liste.get_by_role("option", name=re.compile("İade B")).wait_for()
    assert liste.get_by_text("Selamlama A").count() == 0
    yazi.press("Enter")
    assert yazi.input_value() == "Boğaziçi Market iade adımları: …"
    yazi.press("Enter")
    bekle(lambda: ziyaretci_mesajlari(wb, "z-b", ob["id"])[-1]["icerik"] == "Boğaziçi Market iade adımları: …")
    assert not any(m["icerik"].startswith("/") for m in ziyaretci_mesajlari(wb, "z-b", ob["id"]))
    # A sentence that starts with "/" is text, and goes.
    yazi.fill("/iade sayfasına bakabilirsiniz")
    yazi.press("Enter")
    bekle(lambda: ziyaretci_mesajlari(wb, "z-b", ob["id"])[-1]["icerik"] == "/iade sayfasına bakabilirsiniz")

    # Tenant A's chat in the same queue: A's response, not B's.
    _kabul(k, oa["id"], "A sorusu")
    yazi = page.locator("#yazi")
    yazi.fill("/")
    liste.get_by_role("option", name=re.compile("Selamlama A")).wait_for()
    assert liste.get_by_text("İade B").count() == 0
    yazi.press("Enter")
    assert yazi.input_value() == "Anadolu Yazılım'a hoş geldiniz."
    # An internal note may begin with "/" (it never reaches the visitor).
    page.get_by_role("button", name="İç not").click()
    yazi.fill("/iade")
    yazi.press("Enter")
    page.locator(".mesaj.not").get_by_text("/iade").wait_for()
    assert [m["icerik"] for m in ziyaretci_mesajlari(wa, "z-a", oa["id"]) if m["gonderen"] != "sistem"] == ["A sorusu"]


# Whether two boxes (getBoundingClientRect) of the page overlap.
ORTUSUR = """([a, b]) => {
  const x = document.querySelector(a).getBoundingClientRect(), y = document.querySelector(b).getBoundingClientRect();
  return !(x.right <= y.left || y.right <= x.left || x.bottom <= y.top || y.bottom <= x.top);
}"""


def test_notlu_aktarma_bir_kez_calar_kime_gittigini_soyler_ve_duyuru_gonderi_ortmez(ortam):  # noqa: F811
    """Issue 39.8: a transfer with a handover note rang twice at its new operator (the transfer and
    the note's mention); its `sistem` line did not say to whom; the toast covered the Send button;
    the queue's preview showed the `sistem` line instead of the visitor's question."""
    ortam.meslektas.ad = "Deniz Kaya"
    ortam.meslektas.save(update_fields=["ad"])
    w, o = sohbet_baslat(ortam.a, "z-aktar", mesaj="Kargom iki gündür yolda.")
    k = ortam.konsol(ortam.ben)
    k2 = ortam.konsol(ortam.meslektas)
    _kabul(k, o["id"], "Kargom iki gündür yolda.")
    page = k.page
    page.get_by_role("button", name="Aktar", exact=True).click()
    page.locator("#aktar-hedef").select_option(str(ortam.meslektas.id))
    page.locator("#aktar-not").fill("Kargo firmasıyla görüştüm, iade istiyor.")
    page.get_by_role("dialog").get_by_role("button", name="Aktar", exact=True).click()

    hedef = k2.page
    hedef.locator('[data-test="bahsedilme"]').wait_for()
    satir = hedef.locator(f'#aktifler .satir[data-id="{o["id"]}"]')
    satir.wait_for()
    assert hedef.evaluate("window.__sesler") == 1
    assert len(k2.bildirimler()) == 1, k2.bildirimler()
    # The queue row previews the visitor's question, not "… joined" or "… transferred".
    assert satir.locator(".onizleme").inner_text() == "Kargom iki gündür yolda."

    satir.locator(".satir-ac").click()
    log = hedef.get_by_role("log")
    log.get_by_text("Sohbet Deniz Kaya adlı temsilciye aktarıldı.").wait_for()
    log.locator(".mesaj.not").get_by_text("Kargo firmasıyla görüştüm, iade istiyor.").wait_for()
    # The toast is still up, and clear of the composer and its Send button, on a desktop and a phone.
    assert hedef.locator('[data-test="bahsedilme"]').is_visible()
    for boyut in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        hedef.set_viewport_size(boyut)
        hedef.locator("form.yazma button[type=submit]").wait_for()
        assert not hedef.evaluate(ORTUSUR, ['[data-test="bahsedilme"]', "form.yazma"]), boyut
        assert not hedef.evaluate(ORTUSUR, ['[data-test="bahsedilme"]', "form.yazma button[type=submit]"]), boyut
    k2.ekran("konsol-aktarma-notu-telefon.png")
    hedef.set_viewport_size({"width": 1280, "height": 800})
    k2.ekran("konsol-aktarma-notu.png")
    # Nothing more rang meanwhile; the visitor saw the line with the name, never the note.
    assert hedef.evaluate("window.__sesler") == 1
    icerikler = [m["icerik"] for m in ziyaretci_mesajlari(w, "z-aktar", o["id"])]
    assert "Sohbet Deniz Kaya adlı temsilciye aktarıldı." in icerikler
    assert not any("Kargo firmasıyla" in x for x in icerikler)


def ingilizce_konsol(tarayici, asgi_sunucu, tmp_path, user):
    """A console of a member whose own language is English (the page turns English at login)."""
    user.dil = "en"
    user.save(update_fields=["dil"])
    k = Konsol(tarayici, f"{asgi_sunucu}/panel/", tmp_path)
    k.page.goto(k.url)
    k.page.get_by_label("E-posta").fill(user.email)
    k.page.get_by_label("Şifre").fill(TEST_SIFRE)
    k.page.get_by_role("button", name="Giriş yap").click()
    k.page.get_by_role("tab", name=re.compile("^All")).wait_for()
    k.page.locator('.mod[data-canli="1"]').wait_for()
    return k


def test_baglanti_hatasi_insanca_ve_operatorun_dilinde(ortam, tarayici, asgi_sunucu, tmp_path):  # noqa: F811
    """Issue 39.8: a failed call showed the browser's "Failed to fetch" (or a bare "502"). Checked for
    a Turkish and an English member."""
    w, o = sohbet_baslat(ortam.a, "z-kopuk", mesaj="Bağlantı sorusu")
    w2, o2 = sohbet_baslat(ortam.a, "z-kopuk-en", ad="Jane", mesaj="Connection question")
    tr = ("Sunucuya ulaşılamadı. Bağlantınızı kontrol edip yeniden deneyin.",
          "Sunucu şu an yanıt veremiyor. Biraz sonra yeniden deneyin.",
          "Hazır yanıt seçilmedi: «/yok» müşteriye gönderilmedi. Listeden bir yanıt seçin ya da metni değiştirin.")
    en = ("Couldn't reach the server. Check your connection and try again.",
          "The server can't answer right now. Try again in a moment.",
          "No canned response chosen: “/yok” was not sent to the customer. Pick a response from the list or change the text.")
    for konsol, oturum, metinler in (
        (lambda: ortam.konsol(ortam.ben), o, tr),
        (lambda: ingilizce_konsol(tarayici, asgi_sunucu, tmp_path, ortam.meslektas), o2, en),
    ):
        k = konsol()
        page = k.page
        _kabul(k, oturum["id"], oturum["son_mesaj"])
        yazi = page.locator("#yazi")
        yol = f"**/api/v1/operator/chat/{oturum['id']}/message"
        page.route(yol, lambda route: route.abort("internetdisconnected"))
        yazi.fill("Merhaba / Hello")
        yazi.press("Enter")
        uyari = page.locator(".orta p.hata[role=alert]")
        uyari.get_by_text(metinler[0], exact=True).wait_for()
        k.ekran(f"konsol-baglanti-hatasi-{'en' if oturum is o2 else 'tr'}.png")
        assert "fetch" not in page.locator("body").inner_text().lower()
        assert yazi.input_value() == "Merhaba / Hello"  # the draft stays for the retry
        page.unroute(yol)
        # A proxy's HTML error page (no envelope): no bare status.
        page.route(yol, lambda route: route.fulfill(status=502, body="<html>Bad Gateway</html>", content_type="text/html"))
        yazi.press("Enter")
        uyari.get_by_text(metinler[1], exact=True).wait_for()
        page.unroute(yol)
        yazi.press("Enter")  # the retry goes
        page.get_by_role("log").get_by_text("Merhaba / Hello").wait_for()
        assert uyari.inner_text() == ""
        # An unmatched shortcut, in the member's language too (issue 39.5).
        yazi.fill("/yok")
        yazi.press("Enter")
        uyari.get_by_text(metinler[2], exact=True).wait_for()
        if oturum is o2:
            k.kapat()  # not one of the fixture's consoles
    assert [m["icerik"] for m in ziyaretci_mesajlari(w, "z-kopuk", o["id"]) if m["gonderen"] == "operator"] == ["Merhaba / Hello"]


def test_profil_durumu_canli_ve_arama_tek_esc_ile_kapanir(ortam):  # noqa: F811
    """Issue 39.8: the visitor profile kept showing a claimed chat as "Bekliyor"; the search dialog
    needed Esc twice."""
    _, o = sohbet_baslat(ortam.a, "z-profil", mesaj="Faturamı göremiyorum.")
    _, o2 = sohbet_baslat(ortam.a, "z-profil-2", ad="Can", mesaj="Kargom nerede?")
    k = ortam.konsol(ortam.ben)
    page = k.page
    profil = page.locator('[data-test="profil"]')

    def profil_satiri(oturum):
        return profil.locator(f'#profil-sohbetler li[data-id="{oturum["id"]}"]')

    # Opened to read while waiting, then accepted from its header.
    k.satir(o["id"]).locator(".satir-ac").click()
    profil_satiri(o).get_by_text(re.compile("Bekliyor · açık olan")).wait_for()
    page.locator(".sohbet-baslik").get_by_role("button", name="Kabul et").click()
    profil_satiri(o).get_by_text(re.compile("Aktif · açık olan")).wait_for()
    k.ekran("konsol-profil-canli.png")
    assert profil_satiri(o).get_attribute("data-durum") == "aktif"
    # Opened while waiting, then claimed by an answer.
    k.satir(o2["id"]).locator(".satir-ac").click()
    profil_satiri(o2).get_by_text(re.compile("Bekliyor")).wait_for()
    page.locator("#yazi").fill("Hemen bakıyorum.")
    page.locator("#yazi").press("Enter")
    profil_satiri(o2).get_by_text(re.compile("Aktif · açık olan")).wait_for()
    # Search: one Esc closes it, with a query typed and results shown.
    page.locator("#yazi").press("Escape")  # out of the writing box: `/` is the list's search key
    page.keyboard.press("/")
    arama = page.get_by_role("dialog", name="Ara")
    kutu = arama.get_by_role("searchbox")
    kutu.fill("fatura")
    arama.locator(".arama-sonuc").first.wait_for()
    kutu.press("Escape")
    arama.wait_for(state="hidden")
    assert not page.evaluate("document.querySelector('dialog[open]') !== null")
