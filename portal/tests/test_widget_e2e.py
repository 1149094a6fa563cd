"""The embeddable widget in real headless Chromium against the running service (issue 8).

Every test loads `static/widget/widget.js` into a page and drives it as a visitor would; the
operator side goes through the REST API. Screenshots go to the test's tmp dir, and to
`docs/screenshots/` when `WIDGET_EKRAN_KAYDET=1` (so a plain test run leaves the tree clean).
"""
import base64
import os
import re
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, ulasilabilir_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

EKRAN_DIZINI = Path(django_settings.BASE_DIR) / "docs" / "screenshots"


def _png(genislik=160, yukseklik=90) -> bytes:
    """A small real PNG (a soft gradient), so attachment previews look like something."""
    satirlar = b"".join(
        b"\x00" + bytes(v for x in range(genislik) for v in (37 + x // 4, 99 + y, 235)) for y in range(yukseklik))

    def parca(tur, veri):
        return struct.pack(">I", len(veri)) + tur + veri + struct.pack(">I", zlib.crc32(tur + veri))

    return (b"\x89PNG\r\n\x1a\n" + parca(b"IHDR", struct.pack(">IIBBBBB", genislik, yukseklik, 8, 2, 0, 0, 0))
            + parca(b"IDAT", zlib.compress(satirlar)) + parca(b"IEND", b""))

pytestmark = TARAYICI_ISARETLERI


# --- fixtures ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser


class Sayfa:
    """A page plus what it did: API calls, dialogs, script errors."""

    def __init__(self, page, tmp_path):
        self.page = page
        self.tmp_path = tmp_path
        self.api_istekleri: list[tuple[str, str]] = []
        self.dialoglar: list[str] = []
        self.hatalar: list[str] = []
        page.on("request", self._istek)
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda e: self.hatalar.append(str(e)))

    def _istek(self, istek):
        if "/api/v1/" in istek.url and istek.method != "OPTIONS":
            self.api_istekleri.append((istek.method, istek.url))

    def _dialog(self, dialog):
        self.dialoglar.append(dialog.message)
        dialog.dismiss()

    def istekler(self, yol: str) -> list[str]:
        return [url for _, url in self.api_istekleri if f"/api/v1/{yol}" in url]

    def istek_bekle(self, yol: str, sayi: int, sure_ms: int = 10_000) -> None:
        """Wait until `sayi` calls to `yol` were seen: a polled wait, not a fixed sleep, so a
        loaded machine makes the test slower, never red."""
        for _ in range(sure_ms // 100):
            if len(self.istekler(yol)) >= sayi:
                return
            self.page.wait_for_timeout(100)
        assert len(self.istekler(yol)) >= sayi, self.istekler(yol)

    def ekran(self, ad: str) -> None:
        self.page.screenshot(path=str(self.tmp_path / ad))
        if os.environ.get("WIDGET_EKRAN_KAYDET") == "1":
            EKRAN_DIZINI.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(EKRAN_DIZINI / ad))


@pytest.fixture
def sayfa(tarayici, tmp_path):
    context = tarayici.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    s = Sayfa(context.new_page(), tmp_path)
    yield s
    context.close()


@pytest.fixture
def demo(live_server, settings, db):
    """The demo host page, wired to the first tenant named like the first demo tenant."""
    settings.DEBUG = True
    musteri = MusteriFactory(firma_adi="Anadolu Yazılım", renk_primary="#2563EB")
    return musteri, f"{live_server.url}/demo/"


@pytest.fixture
def baska_site(live_server):
    """Host pages on another origin (127.0.0.1:random vs the service's localhost:port)."""
    sayfalar: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            govde = sayfalar.get(self.path.split("?")[0], "yok").encode()
            self.send_response(200 if self.path.split("?")[0] in sayfalar else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(govde)))
            self.end_headers()
            self.wfile.write(govde)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    class Site:
        origin = f"http://127.0.0.1:{server.server_address[1]}"

        def sayfa(self, yol: str, musteri, govde: str = "", bas: str = "", ek_oznitelik: str = "") -> str:
            sayfalar[yol] = (
                f"<!doctype html><html lang='tr'><head><meta charset='utf-8'><title>Mağaza</title>{bas}</head>"
                f"<body><h1>Mağaza</h1>{govde}<script src='{live_server.url}/static/widget/widget.js' "
                f"data-api-key='{musteri.api_key}' {ek_oznitelik} async></script></body></html>"
            )
            return self.origin + yol

    yield Site()
    server.shutdown()
    server.server_close()


def operator_istemcisi(*musteriler):
    user = operator_yap(*musteriler)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return client


def ok(res):
    assert res.status_code in (200, 201), res.content
    body = res.json()
    assert body["basarili"] is True
    return body["data"]


def yoklamayi_one_al(page, ms: int) -> None:
    """The widget's next poll now instead of after its interval (2.5 s with the panel open, 6 s
    closed; static/widget/widget.js): Playwright's clock, installed before the page loaded, jumps
    `ms` ahead and fires the timers then due, once. What that poll fetches and draws is the live
    service's; a poll already on its way when this runs plans the next one on the real clock, so
    the wait after it stays within its timeout, only slower."""
    page.clock.fast_forward(ms)


def acik_oturum_id(operator) -> int:
    [oturum] = [o for o in ok(operator.get("/api/v1/operator/chats"))["oturumlar"]]
    return oturum["id"]


def yukle(page, url):
    """Open a host page and wait until the widget has finished starting (its last start call)."""
    with page.expect_response(lambda r: "/api/v1/widget/campaigns" in r.url):
        page.goto(url)


def sohbet_formu_gonder(page, mesaj="Merhaba, faturam hakkında bir sorum var.", ad="Ayşe Yılmaz"):
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_label("Adınız").fill(ad)
    page.get_by_label("E-posta adresiniz").fill("ayse@example.com")
    page.get_by_label("Mesajınız").fill(mesaj)
    page.get_by_role("button", name="Sohbeti başlat").click()


def sohbet_baslat(page, mesaj="Merhaba, faturam hakkında bir sorum var.", ad="Ayşe Yılmaz"):
    sohbet_formu_gonder(page, mesaj, ad)
    page.get_by_role("log").get_by_text(mesaj).wait_for()


# --- must show -----------------------------------------------------------------------------
def test_demo_sayfasinda_sohbet_yanit_puan_ve_webhooklar(sayfa, demo, webhook_alici, settings):
    from webhooks.endpointler import webhook_endpoint_olustur
    from webhooks.teslimat import teslimatlari_simdi_gonder

    settings.CELERY_TASK_ALWAYS_EAGER = True
    musteri, url = demo
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
    operator = operator_istemcisi(musteri)
    ok(operator.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    page = sayfa.page
    page.clock.install()  # yoklamayi_one_al

    page.goto(url)
    launcher = page.get_by_role("button", name=re.compile("Destek penceresini aç"))
    launcher.wait_for()
    # Photographed once drawn: its fonts loaded and no transition still running.
    page.wait_for_function("document.fonts.status === 'loaded' && document.getAnimations().every(a => a.playState !== 'running')")
    sayfa.ekran("widget-kapali.png")

    sohbet_baslat(page)
    page.get_by_role("status").get_by_text("Sıranız: 1. Bir temsilci birazdan bağlanacak.").wait_for()
    sayfa.ekran("widget-sira.png")

    # Panel closed while the operator answers: the launcher shows an unread badge.
    page.get_by_role("button", name="Pencereyi küçült").click()
    oturum_id = acik_oturum_id(operator)
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/accept", {}, format="json"))
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/message",
                     {"icerik": "Merhaba Ayşe, hemen bakıyorum. Fatura numaranızı yazar mısınız?"}, format="json"))
    # the accept's "... sohbete katıldı." line and the answer (issue 13), at the closed panel's next poll
    yoklamayi_one_al(page, 6000)
    page.get_by_role("button", name=re.compile(r"Destek penceresini aç \(2 okunmamış mesaj\)")).wait_for(timeout=15_000)

    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("log").get_by_text("Fatura numaranızı yazar mısınız?").wait_for()
    page.get_by_role("status").get_by_text("Bir temsilciyle görüşüyorsunuz.").wait_for()
    page.get_by_label("Mesajınız").fill("Numaram FTR-2026-0042.")
    page.keyboard.press("Enter")
    page.get_by_role("log").get_by_text("Numaram FTR-2026-0042.").wait_for()
    sayfa.ekran("widget-sohbet.png")
    mesajlar = ok(operator.get(f"/api/v1/operator/chat/{oturum_id}/messages"))["mesajlar"]
    assert "Numaram FTR-2026-0042." in [m["icerik"] for m in mesajlar]

    page.get_by_role("button", name="Sohbeti bitir").click()
    page.get_by_role("button", name="Evet, bitir").click()  # issue 24: the widget asks first
    page.get_by_role("button", name="4 yıldız").click()
    page.get_by_role("button", name="5 yıldız").click()
    assert page.get_by_role("button", name="5 yıldız").get_attribute("aria-pressed") == "true"
    sayfa.ekran("widget-puan.png")
    page.get_by_label("Yorumunuz (isteğe bağlı)").fill("Çok hızlı ve nazik.")
    page.get_by_role("button", name="Değerlendirmeyi gönder").click()
    page.get_by_text("Değerlendirmeniz için teşekkürler!").wait_for()

    teslimatlari_simdi_gonder()
    istekler = webhook_alici.bekle(4, timeout=15)  # the accept's chat_atandi too (CONTRACT 15)
    olaylar = {i.headers["x-webhook-olay"]: i.json()["veri"] for i in istekler}
    assert set(olaylar) >= {"yeni_chat", "chat_atandi", "chat_kapandi", "memnuniyet_puan"}
    assert olaylar["yeni_chat"]["oturum_id"] == oturum_id
    assert olaylar["memnuniyet_puan"]["puan"] == 5
    assert olaylar["chat_kapandi"]["kapatan"] == "ziyaretci"
    assert not sayfa.dialoglar and not sayfa.hatalar


def test_sohbette_dosya_eki_operatore_ulasir(sayfa, demo):
    musteri, url = demo
    operator = operator_istemcisi(musteri)
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    page.locator("input[type=file]").first.set_input_files(
        files=[{"name": "ekran.png", "mimeType": "image/png", "buffer": _png()}])
    page.get_by_text(re.compile(r"ekran\.png · \d+ KB")).wait_for()
    page.get_by_label("Mesajınız").fill("Hata ekranı ekte.")
    page.get_by_role("button", name="Gönder").click()
    page.get_by_role("log").get_by_role("img", name="ekran.png").wait_for()

    oturum_id = acik_oturum_id(operator)
    mesajlar = ok(operator.get(f"/api/v1/operator/chat/{oturum_id}/messages"))["mesajlar"]
    [ekli] = [m for m in mesajlar if m["icerik"] == "Hata ekranı ekte."]
    assert ekli["ek"]["ad"] == "ekran.png" and ekli["ek"]["mime_tipi"] == "image/png"


# A file handed to an element as a drop or a paste would (issue 27): a DataTransfer holding it.
DOSYA_OLAYI = """(el, [olay, b64, ad, tur]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], ad, { type: tur }));
  if (olay === "paste") el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  else for (const t of ["dragenter", "dragover", "drop"]) el.dispatchEvent(new DragEvent(t, {
    dataTransfer: dt, bubbles: true, cancelable: true }));
}"""


def test_yapistirilan_ekran_goruntusu_ve_birakilan_dosya_ek_olur(sayfa, demo):
    musteri, url = demo
    operator = operator_istemcisi(musteri)
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    kutu = page.get_by_label("Mesajınız")
    kutu.evaluate(DOSYA_OLAYI, ["paste", base64.b64encode(_png()).decode(), "pano.png", "image/png"])
    page.get_by_text(re.compile(r"pano\.png · \d+ KB")).wait_for()
    kutu.fill("Yapıştırdığım ekran.")
    page.get_by_role("button", name="Gönder").click()
    page.get_by_role("log").get_by_role("img", name="pano.png").wait_for()
    pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    page.get_by_role("log").evaluate(DOSYA_OLAYI, ["drop", base64.b64encode(pdf).decode(), "fatura.pdf", "application/pdf"])
    page.get_by_text(re.compile(r"fatura\.pdf · \d+ (KB|B)")).wait_for()
    kutu.fill("Bıraktığım fatura.")
    page.get_by_role("button", name="Gönder").click()
    page.get_by_role("log").get_by_text("Bıraktığım fatura.").wait_for()

    oturum_id = acik_oturum_id(operator)
    mesajlar = ok(operator.get(f"/api/v1/operator/chat/{oturum_id}/messages"))["mesajlar"]
    ekler = {m["icerik"]: (m["ek"] or {}).get("ad") for m in mesajlar}
    assert ekler["Yapıştırdığım ekran."] == "pano.png" and ekler["Bıraktığım fatura."] == "fatura.pdf"
    assert not sayfa.hatalar


def test_init_yanitlamadan_baslatilan_sohbet_acilir(sayfa, demo):
    """A visitor quicker than `widget/init` (a slow network, a loaded server): the start waits for
    init's token instead of going without it (CI met it as a start that never showed its message:
    sent tokenless, it was refused once init had bound the id)."""
    musteri, url = demo
    ulasilabilir_yap(operator_yap(musteri))
    page = sayfa.page
    tutulan = []
    page.route("**/api/v1/widget/init", lambda route: tutulan.append(route))
    page.goto(url)
    for _ in range(100):  # the route's handler runs inside Playwright's calls
        if tutulan:
            break
        page.wait_for_timeout(100)
    assert tutulan, "widget/init was never asked"
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_label("Mesajınız").fill("İlk sözüm.")
    baslatilan = []
    page.on("request", lambda r: baslatilan.append(r) if "/widget/chat/start" in r.url else None)
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.wait_for_timeout(500)
    assert not baslatilan, "the start left before widget/init had answered"
    [route] = tutulan
    route.continue_()
    page.get_by_role("log").get_by_text("İlk sözüm.").wait_for()
    assert [r.headers.get("x-ziyaretci-token") for r in baslatilan] != [None]
    assert not sayfa.hatalar


def test_init_reddedilirse_bekleyen_baslangic_hata_verir_asili_kalmaz(sayfa, demo):
    """Calls wait for init (its token); when init is refused for good, a start made meanwhile fails
    with init's error and its button works again, instead of waiting for ever."""
    musteri, url = demo
    page = sayfa.page
    tutulan = []
    page.route("**/api/v1/widget/init", lambda route: tutulan.append(route))
    page.goto(url)
    for _ in range(100):
        if tutulan:
            break
        page.wait_for_timeout(100)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_label("Mesajınız").fill("Bekleyen başlangıç.")
    page.get_by_role("button", name="Sohbeti başlat").click()
    [route] = tutulan
    route.fulfill(status=400, content_type="application/json",
                  body='{"basarili": false, "hata": {"kod": "GECERSIZ_ISTEK", "mesaj": "Init reddedildi."}}')
    page.get_by_role("alert").get_by_text("Init reddedildi.").wait_for()
    baslat_dugmesi = page.get_by_role("button", name="Sohbeti başlat")
    for _ in range(50):
        if baslat_dugmesi.is_enabled():
            break
        page.wait_for_timeout(100)
    assert baslat_dugmesi.is_enabled()
    assert page.get_by_label("Mesajınız").input_value() == "Bekleyen başlangıç."


def test_yeniden_yuklemede_acik_sohbet_surer(sayfa, demo):
    musteri, url = demo
    ulasilabilir_yap(operator_yap(musteri))  # someone online: the chat waits, no ticket offer line
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    page.get_by_label("Mesajınız").fill("Bir sorum daha var.")
    page.keyboard.press("Enter")
    page.get_by_role("log").get_by_text("Bir sorum daha var.").wait_for()
    # A reload finds the open chat through widget/init and shows its history, in order.
    page.reload()
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("log").get_by_text("Bir sorum daha var.").wait_for()
    metinler = page.get_by_role("log").locator(".bb").all_inner_texts()
    assert metinler == ["Merhaba, faturam hakkında bir sorum var.", "Bir sorum daha var."]
    assert len(sayfa.istekler("widget/chat/start")) == 1


def test_ekli_talep_widgettan_olusur_ve_operatorde_gorunur(sayfa, demo):
    musteri, url = demo
    operator = operator_istemcisi(musteri)
    page = sayfa.page
    page.goto(url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("tab", name="Talepler").click()
    page.get_by_text("Henüz bir destek talebiniz yok.").wait_for()
    page.get_by_role("button", name="Yeni talep").click()
    page.get_by_label("Konu").fill("Fatura PDF'i açılmıyor")
    page.get_by_label("Açıklama").fill("Ekteki ekran görüntüsündeki hatayı alıyorum.")
    page.get_by_label("Öncelik").select_option("yuksek")
    page.locator("input[name=ekler]").set_input_files(
        files=[{"name": "hata.png", "mimeType": "image/png", "buffer": _png()}])
    sayfa.ekran("widget-talep.png")
    page.get_by_role("button", name="Talebi gönder").click()
    page.get_by_role("heading", name="Fatura PDF'i açılmıyor").wait_for()
    page.get_by_text("Ekteki ekran görüntüsündeki hatayı alıyorum.").wait_for()
    sayfa.ekran("widget-talep-detay.png")
    assert len(sayfa.istekler("widget/upload")) == 1

    ticketlar = ok(operator.get("/api/v1/operator/tickets"))["ticketlar"]
    [ticket] = [t for t in ticketlar if t["konu"] == "Fatura PDF'i açılmıyor"]
    assert ticket["oncelik"] == "yuksek"
    page.get_by_role("button", name="Geri").click()
    page.get_by_role("button", name=re.compile("Fatura PDF'i açılmıyor")).wait_for()


def _kb_ve_kampanya(musteri):
    from datetime import timedelta

    from django.utils import timezone

    from knowledge import services as kb

    kategori = kb.kb_kategori_kaydet(musteri=musteri, slug="faturalama", ad="Faturalama",
                                     aciklama="Fatura ve ödeme soruları")
    kb.kb_makale_kaydet(
        musteri=musteri, kategori=kategori, slug="fatura-nasil-indirilir", baslik="Fatura nasıl indirilir?",
        yayinda=True, ozet="Faturalarınızı PDF olarak indirin.",
        icerik="<p>Faturalarınızı <strong>Hesabım</strong> sayfasından PDF olarak indirebilirsiniz.</p>"
               "<ol><li>Hesabım → Faturalar</li><li>İndir düğmesi</li></ol><script>alert(1)</script>",
    )
    simdi = timezone.now()
    kb.kampanya_kaydet(
        musteri=musteri, baslik="Yıllık pakette %20 indirim", icerik="Bu ay yıllık pakete geçenlere ek avantaj.",
        buton_metni="İncele", buton_url="https://example.com/kampanya",
        baslangic=simdi - timedelta(days=1), bitis=simdi + timedelta(days=7),
    )


def test_yardim_merkezi_arar_makale_acar_ve_kampanya_bir_kez_gosterilir(sayfa, demo):
    musteri, url = demo
    _kb_ve_kampanya(musteri)
    page = sayfa.page
    page.goto(url)
    page.get_by_role("complementary", name="Yıllık pakette %20 indirim").wait_for()
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("tab", name="Yardım").click()
    page.get_by_role("button", name=re.compile("Faturalama")).wait_for()
    page.get_by_label("Yardım merkezinde ara").press_sequentially("faturamı", delay=40)
    sonuc = page.get_by_role("button", name=re.compile("Fatura nasıl indirilir"))
    sonuc.wait_for()
    # Typing is debounced: one search for the whole word, not one per key.
    assert len(sayfa.istekler("widget/kb/search")) <= 2
    sayfa.ekran("widget-yardim.png")
    sonuc.click()
    page.get_by_role("heading", name="Fatura nasıl indirilir?").wait_for()
    page.get_by_role("article").get_by_text("Hesabım", exact=True).wait_for()
    assert page.get_by_role("article").locator("script").count() == 0
    assert not sayfa.dialoglar

    page.reload()
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).wait_for()
    sayfa.istek_bekle("widget/campaigns", 2)
    page.wait_for_timeout(500)  # a window for what must not happen: a third call, or a campaign shown
    assert len(sayfa.istekler("widget/campaigns")) == 2
    assert page.get_by_role("complementary").count() == 0


def test_dusmanca_css_li_sayfada_widget_calisir(sayfa, demo, baska_site):
    musteri, _ = demo
    dusmanca = ("<style>* { all: unset; } div { display: none !important; } "
                "button, textarea, input { color: red !important; font-size: 40px !important; }</style>")
    url = baska_site.sayfa("/dusmanca.html", musteri, govde="<div><p>gizli</p></div>", bas=dusmanca)
    page = sayfa.page
    page.goto(url)
    launcher = page.get_by_role("button", name=re.compile("Destek penceresini aç"))
    launcher.wait_for(state="visible")
    kutu = launcher.bounding_box()
    assert kutu and 50 <= kutu["width"] <= 70 and kutu["x"] > 1100 and kutu["y"] > 650
    sohbet_baslat(page, mesaj="Düşmanca stil altında da buradayım.")
    panel = page.get_by_role("dialog")
    assert panel.bounding_box()["width"] > 300
    assert page.get_by_role("button", name="Sohbeti bitir").evaluate("e => getComputedStyle(e).fontSize") != "40px"
    assert not sayfa.hatalar


def test_operator_mesajindaki_html_metin_olarak_gorunur(sayfa, demo):
    musteri, url = demo
    operator = operator_istemcisi(musteri)
    page = sayfa.page
    page.goto(url)
    sohbet_baslat(page)
    oturum_id = acik_oturum_id(operator)
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/accept", {}, format="json"))
    kotu = "<img src=x onerror=alert(1)>"
    ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/message", {"icerik": kotu}, format="json"))
    page.get_by_role("log").get_by_text(kotu, exact=True).wait_for()
    page.wait_for_timeout(500)  # a window for what must not happen: an <img> inserted and its onerror firing
    assert page.get_by_role("log").locator("img").count() == 0
    assert not sayfa.dialoglar


def test_izinsiz_origin_sakin_hata_gosterir_ve_baska_cagri_yapmaz(sayfa, demo):
    musteri, url = demo
    musteri.izinli_originler = ["https://magaza.example.com"]
    musteri.save(update_fields=["izinli_originler"])
    page = sayfa.page
    page.clock.install()
    page.goto(url)
    launcher = page.get_by_role("button", name=re.compile("^Destek penceresini"))
    launcher.click()
    uyari = page.get_by_role("alert")
    uyari.get_by_text("Destek penceresi bu sitede şu an kullanılamıyor").wait_for()
    assert page.get_by_role("tab").count() == 0 or not page.get_by_role("tab").first.is_visible()
    # A window for what must not happen: a retry or another call after the refusal. A minute of
    # page time at once (the widget's longest wait before a retry is 60 s), then time for a call
    # to leave.
    page.clock.fast_forward(60_000)
    page.wait_for_timeout(300)
    page.keyboard.press("Escape")
    launcher.click()
    page.wait_for_timeout(500)  # a window for what must not happen: reopening making a call
    assert [u.split("/api/v1/")[1] for _, u in sayfa.api_istekleri] == ["widget/init"]
    assert not sayfa.hatalar


# --- the rest of issue 8 ---------------------------------------------------------------------
def test_ziyaretci_kimligi_kalici_rastgele_ve_siteden_verilebilir(sayfa, demo, baska_site):
    musteri, url = demo
    page = sayfa.page
    page.goto(url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).wait_for()
    ilk = page.evaluate("window.SupportDesk.ziyaretciId")
    assert re.fullmatch(r"z_[0-9a-f]{32}", ilk)
    assert page.evaluate(f"localStorage.getItem('supportdesk:{musteri.api_key}:ziyaretci')") == ilk
    # The first init's answer (its token) must have arrived: reloaded before it, the id is bound on
    # the server with no token in this browser, and the widget starts afresh as a new visitor.
    page.wait_for_function(f"localStorage.getItem('supportdesk:{musteri.api_key}:token:{ilk}')")
    page.reload()
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).wait_for()
    assert page.evaluate("window.SupportDesk.ziyaretciId") == ilk

    site = baska_site.sayfa("/uye.html", musteri, ek_oznitelik="data-ziyaretci-id='uye-42'")
    page.goto(site)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).wait_for()
    page.wait_for_function("window.SupportDesk && window.SupportDesk.ziyaretciId === 'uye-42'")
    sayfa.istek_bekle("widget/init", 1)


def test_sayfa_bilgisi_spa_gezintisi_ve_hata_kaydi_sinirli(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    page.goto(url)
    page.wait_for_function("() => window.SupportDesk")
    sayfa.istek_bekle("context/page-info", 1)
    page.get_by_role("link", name="Fiyatlar").first.click()
    sayfa.istek_bekle("context/page-info", 2)
    with page.expect_request(lambda r: "/context/error-log" in r.url) as bilgi:
        page.evaluate("for (let i = 0; i < 12; i++) setTimeout(() => { throw new Error('hata ' + i) })")
    govde = bilgi.value.post_data_json
    assert govde["mesaj"].endswith("hata 0") and govde["url"].endswith("#fiyatlar") and govde["tarayici"]
    sayfa.istek_bekle("context/error-log", 5)
    page.wait_for_timeout(1000)  # the client-side limit: no 6th report follows, however long we wait
    assert len(sayfa.istekler("context/page-info")) == 2
    assert len(sayfa.istekler("context/error-log")) == 5

    zid = page.evaluate("window.SupportDesk.ziyaretciId")
    istemci = operator_istemcisi(musteri)
    for _ in range(50):  # the last report may still be on its way to the server
        baglam = ok(istemci.get(f"/api/v1/operator/context/{zid}"))
        if len(baglam["hatalar"]) >= 5:
            break
        page.wait_for_timeout(200)
    assert {p["url"].split("/demo/")[1] for p in baglam["sayfalar"]} == {"", "#fiyatlar"}
    assert len(baglam["hatalar"]) == 5


def test_identify_musteri_bilgisini_gonderir(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    page.goto(url)
    page.wait_for_function("() => window.SupportDesk")
    with page.expect_request(lambda r: "/context/customer-info" in r.url) as bilgi:
        sonuc = page.evaluate("window.SupportDesk.identify({ad: 'Ayşe', email: 'ayse@example.com', paket: 'Pro'})"
                              ".then(d => d, e => ({hata: e.message}))")
    govde = bilgi.value.post_data_json
    assert govde["ad"] == "Ayşe" and govde["paket"] == "Pro"
    assert govde["ziyaretci_id"] == page.evaluate("window.SupportDesk.ziyaretciId")
    assert sonuc.get("identity_dogrulandi") is False, sonuc


def test_ag_kesilince_sakin_mesaj_ve_klavye_erisimi(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    page.goto(url)
    page.wait_for_function("() => window.SupportDesk")
    launcher = page.get_by_role("button", name=re.compile("^Destek penceresini"))
    launcher.focus()
    page.keyboard.press("Enter")
    assert page.get_by_role("dialog").is_visible()
    assert launcher.get_attribute("aria-expanded") == "true"
    page.get_by_role("tab", name="Sohbet").focus()
    page.keyboard.press("ArrowRight")
    assert page.get_by_role("tab", name="Talepler").get_attribute("aria-selected") == "true"
    page.keyboard.press("ArrowLeft")
    page.context.set_offline(True)
    page.get_by_label("Mesajınız").fill("Bağlantım koptu mu?")
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.get_by_role("alert").get_by_text("Bağlantı kurulamadı").wait_for()
    page.context.set_offline(False)
    page.keyboard.press("Escape")
    assert not page.get_by_role("dialog").is_visible()
    assert not sayfa.hatalar


def test_cok_istek_429_sakin_mesaj(sayfa, demo, settings):
    musteri, url = demo
    page = sayfa.page
    yukle(page, url)
    settings.WIDGET_RATE_LIMIT = "1/min"
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("tab", name="Talepler").click()
    page.get_by_role("alert").get_by_text("Kısa sürede çok fazla işlem yapıldı").wait_for()
    assert page.get_by_role("button", name="Yeni talep").is_visible()


# --- audit additions: the lists item by item -----------------------------------------
AKTIF_ODAK = """() => {
    let e = document.activeElement;
    while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
    return {ad: (e.getAttribute('aria-label') || e.textContent || e.tagName).trim(),
            cizgi: getComputedStyle(e).outlineStyle};
}"""


def test_klavye_sirasi_baslaticidan_panele_gider_ve_odak_gorunur(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    yukle(page, url)
    launcher = page.get_by_role("button", name=re.compile("^Destek penceresini"))
    page.get_by_role("link", name="Ücretsiz deneyin").focus()
    page.keyboard.press("Tab")
    odak = page.evaluate(AKTIF_ODAK)
    assert odak["ad"].startswith("Destek penceresini aç") and odak["cizgi"] == "solid", odak
    page.keyboard.press("Enter")
    assert page.get_by_role("dialog").is_visible()
    # Focus moved into the panel; Tab from the (now "close") launcher enters the panel header,
    # not the host page behind it.
    assert page.evaluate(AKTIF_ODAK)["ad"] != odak["ad"]
    launcher.focus()
    page.keyboard.press("Tab")
    assert page.evaluate(AKTIF_ODAK)["ad"] == "Pencereyi küçült"
    page.keyboard.press("Tab")
    assert page.evaluate(AKTIF_ODAK)["ad"] == "Sohbet"
    page.keyboard.press("Escape")
    assert not page.get_by_role("dialog").is_visible()
    assert page.evaluate(AKTIF_ODAK)["ad"].startswith("Destek penceresini aç")


def test_baska_origin_izinsizse_sakin_hata_ve_hic_baska_cagri_yok(sayfa, demo, baska_site):
    musteri, _ = demo
    musteri.izinli_originler = ["https://magaza.example.com"]
    musteri.save(update_fields=["izinli_originler"])
    url = baska_site.sayfa("/izinsiz.html", musteri)
    page = sayfa.page
    with page.expect_response(lambda r: "/api/v1/widget/init" in r.url) as yanit:
        page.goto(url)
    assert yanit.value.status == 403
    page.get_by_role("button", name=re.compile("^Destek penceresini")).click()
    page.get_by_role("alert").get_by_text("Destek penceresi bu sitede şu an kullanılamıyor").wait_for()
    # Nothing the page does afterwards makes the widget call again.
    sonuc = page.evaluate("""async () => {
        history.pushState({}, '', '#baska');
        setTimeout(() => { throw new Error('sayfa hatasi'); });
        try { await window.SupportDesk.identify({email: 'a@example.com'}); return 'cozuldu'; }
        catch (e) { return 'reddedildi'; }
    }""")
    assert sonuc == "reddedildi"
    page.wait_for_timeout(1200)  # a window for what must not happen: a call (error report, identify) after the refusal
    assert [u.split("/api/v1/")[1] for _, u in sayfa.api_istekleri] == ["widget/init"]
    assert not sayfa.dialoglar


def test_icerik_guvenlik_politikali_sayfada_stiller_calisir(sayfa, demo, baska_site, live_server):
    """A host page whose CSP forbids inline styles still gets a styled widget."""
    musteri, _ = demo
    csp = (f"<meta http-equiv='Content-Security-Policy' content=\"default-src 'self'; style-src 'self'; "
           f"script-src {live_server.url}; connect-src {live_server.url}; img-src {live_server.url} data:\">")
    url = baska_site.sayfa("/csp.html", musteri, bas=csp)
    page = sayfa.page
    with page.expect_response(lambda r: "/api/v1/widget/campaigns" in r.url):
        page.goto(url)
    kutu = page.get_by_role("button", name=re.compile("Destek penceresini aç")).bounding_box()
    assert kutu and 50 <= kutu["width"] <= 70 and kutu["x"] > 1100 and kutu["y"] > 650, kutu
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    assert page.get_by_role("dialog").bounding_box()["width"] > 300
    assert not sayfa.hatalar


def test_operator_yoksa_talep_acilir_yanitlanir_ve_kapaninca_yanit_formu_kalkar(sayfa, demo):
    musteri, url = demo
    operator = operator_istemcisi(musteri)  # a member, but not online
    page = sayfa.page
    yukle(page, url)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_text("Şu an çevrimiçi temsilcimiz yok").wait_for()
    page.get_by_role("button", name="Destek talebi oluştur").click()
    page.get_by_label("Konu").fill("Şifremi sıfırlayamıyorum")
    page.get_by_label("Açıklama").fill("Sıfırlama e-postası gelmiyor.")
    page.get_by_role("button", name="Talebi gönder").click()
    page.get_by_role("heading", name="Şifremi sıfırlayamıyorum").wait_for()

    [ticket] = ok(operator.get("/api/v1/operator/tickets"))["ticketlar"]
    ok(operator.post(f"/api/v1/operator/ticket/{ticket['id']}/reply",
                     {"icerik": "Spam klasörünü kontrol eder misiniz?"}, format="json"))
    page.get_by_role("button", name="Geri").click()
    page.get_by_role("button", name=re.compile("Şifremi sıfırlayamıyorum")).click()
    page.get_by_text("Spam klasörünü kontrol eder misiniz?").wait_for()
    page.get_by_label("Yanıtla").fill("Orada da yok, ekran görüntüsü ekte.")
    page.locator("input[name=ekler]").set_input_files(
        files=[{"name": "spam.png", "mimeType": "image/png", "buffer": _png()}])
    page.get_by_role("button", name="Yanıtla").click()
    page.get_by_text("Orada da yok, ekran görüntüsü ekte.").wait_for()
    page.get_by_role("img", name="spam.png").wait_for()
    yanitlar = ok(operator.get(f"/api/v1/operator/ticket/{ticket['id']}"))["ticket"]["yanitlar"]
    assert yanitlar[-1]["icerik"] == "Orada da yok, ekran görüntüsü ekte."
    assert yanitlar[-1]["ekler"][0]["ad"] == "spam.png"

    ok(operator.put(f"/api/v1/operator/ticket/{ticket['id']}/status", {"durum": "kapandi"}, format="json"))
    page.get_by_role("button", name="Geri").click()
    page.get_by_role("button", name=re.compile("Şifremi sıfırlayamıyorum")).click()
    page.get_by_text("Bu talep kapatıldı").wait_for()
    assert page.get_by_label("Yanıtla").count() == 0


def test_spa_replace_state_ve_geri_tusu_sayfa_bildirir(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    yukle(page, url)
    sayfa.istek_bekle("context/page-info", 1)
    with page.expect_request(lambda r: "/context/page-info" in r.url) as ikinci:
        page.evaluate("history.pushState({}, '', '/demo/urunler')")
    assert ikinci.value.post_data_json["url"].endswith("/demo/urunler")
    with page.expect_request(lambda r: "/context/page-info" in r.url) as ucuncu:
        page.evaluate("history.replaceState({}, '', '/demo/urunler?renk=mavi')")
    govde = ucuncu.value.post_data_json
    assert govde["url"].endswith("/demo/urunler?renk=mavi") and govde["referrer"].endswith("/demo/urunler")
    with page.expect_request(lambda r: "/context/page-info" in r.url) as dorduncu:
        page.go_back(wait_until="commit")
    assert dorduncu.value.post_data_json["url"].endswith("/demo/")
    assert len(sayfa.istekler("context/page-info")) == 4


def test_identify_imzali_kimligi_dogrular_gecersiz_imza_paneli_bozmaz(sayfa, demo):
    import hashlib
    import hmac
    import time

    musteri, url = demo
    page = sayfa.page
    yukle(page, url)
    zid = page.evaluate("window.SupportDesk.ziyaretciId")
    zaman = int(time.time())
    imza = hmac.new(musteri.api_secret.encode(), f"{zid}|ayse@example.com|{zaman}".encode(), hashlib.sha256).hexdigest()
    with page.expect_request(lambda r: "/context/customer-info" in r.url) as bilgi:
        sonuc = page.evaluate(
            "b => window.SupportDesk.identify(b).then(d => d, e => ({hata: e.message}))",
            {"ad": "Ayşe", "email": "ayse@example.com", "timestamp": zaman, "signature": imza})
    govde = bilgi.value.post_data_json
    assert govde["timestamp"] == zaman and govde["signature"] == imza and govde["ziyaretci_id"] == zid
    assert sonuc.get("identity_dogrulandi") is True, sonuc

    sonuc = page.evaluate(
        "b => window.SupportDesk.identify(b).then(d => ({ok: d}), e => ({hata: e.message, durum: e.durum}))",
        {"email": "ayse@example.com", "timestamp": zaman, "signature": "0" * 64})
    assert sonuc.get("durum") == 401, sonuc
    # A refused signature is the host's business: the widget keeps working and stays quiet.
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    assert page.get_by_role("tab", name="Sohbet").is_visible()
    assert not page.get_by_role("alert").is_visible()


def test_gizli_sekmede_yoklama_seyreklesir_ve_sonra_kullanir(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    page.clock.install()
    yukle(page, url)
    sohbet_baslat(page)
    sayfa.istek_bekle("widget/chat/messages", 1)
    page.clock.pause_at(page.evaluate("Date.now()") + 100)
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
        Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    once = len(sayfa.istekler("widget/chat/messages"))
    for _ in range(60):  # two minutes of page time, two seconds at a time
        page.clock.run_for(2000)
        page.wait_for_timeout(15)
    gizli = len(sayfa.istekler("widget/chat/messages")) - once
    # Visible and open, the panel polls every 2.5 s (48 calls in 2 minutes); hidden it backs off
    # 10 s → 20 s → 40 s → 60 s.
    assert 2 <= gizli <= 5, gizli
    assert all("sonra=" in u for u in sayfa.istekler("widget/chat/messages")[1:])
    page.evaluate("""() => {
        delete document.hidden; delete document.visibilityState;
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.clock.run_for(50)
    sayfa.istek_bekle("widget/chat/messages", once + gizli + 1, sure_ms=3000)


def test_yeniden_yuklemede_uzun_gecmis_tek_seferde_gelir(sayfa, demo, baska_site):
    from chat.services import chat_baslat, chat_ziyaretci_mesaj_gonder

    musteri, _ = demo
    ulasilabilir_yap(operator_yap(musteri))  # someone online: the chat waits, no ticket offer line
    oturum, _ = chat_baslat(musteri=musteri, ziyaretci_id="uzun-gecmis", mesaj="Mesaj 1")
    for i in range(2, 61):
        chat_ziyaretci_mesaj_gonder(musteri=musteri, ziyaretci_id="uzun-gecmis", oturum_id=oturum.id, icerik=f"Mesaj {i}")
    url = baska_site.sayfa("/uzun.html", musteri, ek_oznitelik="data-ziyaretci-id='uzun-gecmis'")
    page = sayfa.page
    page.goto(url)
    # The closed panel polls every 6 s; the whole history must not wait for that.
    sayfa.istek_bekle("widget/chat/messages", 2, sure_ms=4000)
    gecmis = page.get_by_role("log", include_hidden=True)
    gecmis.get_by_text("Mesaj 60", exact=True).wait_for(state="attached", timeout=2000)
    assert gecmis.locator(".bb").all_text_contents() == [f"Mesaj {i}" for i in range(1, 61)]


def test_gec_gelen_init_yazilani_ve_baslayan_sohbeti_silmez(sayfa, demo):
    """`widget/init` answering after the visitor typed, or even started a chat, keeps both."""
    musteri, url = demo
    page = sayfa.page
    tutulan = []
    # The server answers init at once; the page gets the answer only when the test lets it.
    page.route("**/api/v1/widget/init", lambda route: tutulan.append((route, route.fetch())))

    def init_bekle_ve_birak():
        for _ in range(100):
            if tutulan:
                break
            page.wait_for_timeout(50)
        route, yanit = tutulan.pop()
        return route, yanit

    page.goto(url, wait_until="domcontentloaded")
    route, yanit = init_bekle_ve_birak()
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_label("Mesajınız").fill("Yazarken init geldi.")
    with page.expect_request(lambda r: "/api/v1/widget/campaigns" in r.url):
        route.fulfill(response=yanit)
    page.get_by_text("Şu an çevrimiçi temsilcimiz yok").wait_for()  # init's answer is applied ...
    assert page.get_by_label("Mesajınız").input_value() == "Yazarken init geldi."  # ... around the form

    page.reload(wait_until="domcontentloaded")
    route, yanit = init_bekle_ve_birak()  # read by the server before the chat exists
    # Started before init's answer: the start waits for its token (CONTRACT 2a), then goes.
    sohbet_formu_gonder(page, mesaj="Init gelmeden başladım.")
    with page.expect_request(lambda r: "/api/v1/widget/campaigns" in r.url):
        route.fulfill(response=yanit)
    page.get_by_role("log").get_by_text("Init gelmeden başladım.").wait_for()
    page.wait_for_timeout(300)  # a window for what must not happen: the late init's answer putting the form back
    assert page.get_by_role("log").get_by_text("Init gelmeden başladım.").is_visible()
    assert page.get_by_role("button", name="Sohbeti başlat").count() == 0


def test_gecersiz_anahtar_sakin_hata_ve_tek_cagri(sayfa, demo, baska_site):
    from types import SimpleNamespace

    url = baska_site.sayfa("/eski-anahtar.html", SimpleNamespace(api_key="pk_iptal_edilmis_anahtar"))
    page = sayfa.page
    with page.expect_response(lambda r: "/api/v1/widget/init" in r.url) as yanit:
        page.goto(url)
    assert yanit.value.status == 401
    page.get_by_role("button", name=re.compile("^Destek penceresini")).click()
    page.get_by_role("alert").get_by_text("Destek penceresi bu sitede şu an kullanılamıyor").wait_for()
    page.wait_for_timeout(500)  # a window for what must not happen: another call after the 401
    assert [u.split("/api/v1/")[1] for _, u in sayfa.api_istekleri] == ["widget/init"]
    assert not sayfa.hatalar
