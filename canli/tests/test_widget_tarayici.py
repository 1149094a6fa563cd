"""The widget in headless Chromium against a live uvicorn process (issue 14): an operator's reply
arrives through the socket while the polling URL is blocked; with the socket blocked, it arrives
by polling. The host page comes from a small HTTP server of its own on loopback (another origin
than the service; a real loopback address, so Chromium's private-network checks stay quiet)."""
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .yardimci import Rest, giris

pytestmark = TARAYICI_ISARETLERI


@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser


@pytest.fixture
def ev_sahibi():
    """A host page server on 127.0.0.1:0 (the tenant's site); `sayfa(html)` sets its page."""
    govde = {"html": b""}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(govde["html"])))
            self.end_headers()
            self.wfile.write(govde["html"])

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def sayfa(html: str) -> str:
        govde["html"] = html.encode()
        return f"http://127.0.0.1:{server.server_address[1]}/magaza.html"

    yield sayfa
    server.shutdown()
    server.server_close()


def _sayfa(tarayici, ev_sahibi, sunucu, musteri):
    context = tarayici.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    page = context.new_page()
    site = ev_sahibi(
        f"<!doctype html><html lang='tr'><head><meta charset='utf-8'><title>Mağaza</title></head><body>"
        f"<h1>Mağaza</h1><script src='{sunucu.url}/static/widget/widget.js' data-api-key='{musteri.api_key}'"
        f" async></script></body></html>"
    )
    return context, page, site


def _sohbet_baslat(page, mesaj):
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_label("Mesajınız").fill(mesaj)
    page.get_by_role("button", name="Sohbeti başlat").click()
    page.get_by_role("log").get_by_text(mesaj).wait_for()


def _operator(sunucu, musteri):
    op = operator_yap(musteri)
    return Rest(sunucu, token=giris(sunucu, op))


def _yanitla(operator, mesaj):
    [oturum] = operator.get("operator/chats")["oturumlar"]
    operator.post(f"operator/chat/{oturum['id']}/accept", beklenen=200)
    operator.post(f"operator/chat/{oturum['id']}/message", {"icerik": mesaj}, 201)


def test_yanit_soketle_gelir_yoklama_engelliyken(tarayici, ev_sahibi, canli_sunucu):
    musteri = MusteriFactory()
    context, page, site = _sayfa(tarayici, ev_sahibi, canli_sunucu, musteri)
    yoklamalar = []
    with page.expect_websocket(lambda ws: "/ws/v1/widget/" in ws.url) as bilgi:
        page.goto(site)
    soket = bilgi.value
    soket.wait_for_event("framesent")  # the `kimlik` frame (the widget holds a visitor token): open
    _sohbet_baslat(page, "Kargom nerede?")

    def engelle(route):
        yoklamalar.append(route.request.url)
        route.abort()

    page.route("**/api/v1/widget/chat/messages**", engelle)
    _yanitla(_operator(canli_sunucu, musteri), "Kargonuz yolda, yarın elinizde.")
    page.get_by_role("log").get_by_text("Kargonuz yolda, yarın elinizde.").wait_for(timeout=3000)
    assert page.get_by_role("log").get_by_text("Kargonuz yolda").count() == 1
    # the operator's read mark and typing reach the visitor's page too
    context.close()


def test_soket_engelliyken_yanit_yoklamayla_gelir(tarayici, ev_sahibi, canli_sunucu):
    musteri = MusteriFactory()
    context, page, site = _sayfa(tarayici, ev_sahibi, canli_sunucu, musteri)
    denemeler = []

    def soketi_engelle(ws):
        denemeler.append(ws.url)
        ws.close(code=1011)  # a proxy that refuses the upgrade: never connected to the service

    page.route_web_socket(re.compile(r".*/ws/v1/widget/.*"), soketi_engelle)
    page.goto(site)
    _sohbet_baslat(page, "Fatura sorusu")
    _yanitla(_operator(canli_sunucu, musteri), "Faturanız e-postanıza gönderildi.")
    with page.expect_response(lambda r: "/api/v1/widget/chat/messages" in r.url, timeout=8000):
        pass
    page.get_by_role("log").get_by_text("Faturanız e-postanıza gönderildi.").wait_for(timeout=8000)
    assert page.get_by_role("log").get_by_text("Faturanız").count() == 1
    assert denemeler  # it did try the socket
    context.close()


def test_acik_talep_operator_yaniti_ve_durumuyla_yenilemeden_guncellenir(tarayici, ev_sahibi, canli_sunucu):
    # CONTRACT 11's `ticket_guncellendi` on the widget socket: the visitor's open ticket shows an
    # operator's reply (its Markdown formatted, typed HTML as text) and each state change without
    # any read of its own (ticket reads are blocked meanwhile); a reply being typed stays.
    musteri = MusteriFactory()
    context, page, site = _sayfa(tarayici, ev_sahibi, canli_sunucu, musteri)
    with page.expect_websocket(lambda ws: "/ws/v1/widget/" in ws.url) as bilgi:
        page.goto(site)
    bilgi.value.wait_for_event("framesent")  # the `kimlik` frame: subscribed
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("tab", name="Talepler").click()
    page.get_by_role("button", name="Yeni talep").click()
    page.get_by_label("Konu").fill("Kargo gecikti")
    page.get_by_label("Açıklama").fill("**Acil:** siparişim <b>gelmedi</b>")
    page.get_by_role("button", name="Talebi gönder").click()
    akis = page.get_by_role("log", name="Kargo gecikti")
    akis.locator("strong", has_text="Acil:").wait_for()
    assert "<b>gelmedi</b>" in akis.inner_text() and akis.locator("b").count() == 0
    taslak = page.get_by_role("textbox", name="Yanıtla")
    taslak.fill("Yarın evde olmayacağım")

    okumalar = []

    def engelle(route):
        okumalar.append(route.request.url)
        route.abort()

    page.route("**/api/v1/widget/ticket/**", engelle)
    operator = _operator(canli_sunucu, musteri)
    [t] = operator.get("operator/tickets")["ticketlar"]
    operator.post(f"operator/ticket/{t['id']}/reply",
                  {"icerik": "**Kargonuz** yolda.\n\n- takip: `TR123`\n\n<script>window.__xss=1</script>"}, 201)
    akis.locator("strong", has_text="Kargonuz").wait_for(timeout=3000)
    assert akis.locator("li code").inner_text() == "TR123"
    assert "<script>window.__xss=1</script>" in akis.inner_text() and page.evaluate("window.__xss") is None
    assert taslak.input_value() == "Yarın evde olmayacağım"

    operator.post(f"operator/ticket/{t['id']}/status", {"durum": "cozuldu"}, 200, yontem="PUT")
    page.locator("supportdesk-widget .st .ch", has_text="Çözüldü").wait_for(timeout=3000)
    operator.post(f"operator/ticket/{t['id']}/status", {"durum": "kapandi"}, 200, yontem="PUT")
    page.get_by_text("Bu talep kapatıldı; yeni bir talep oluşturabilirsiniz.").wait_for(timeout=3000)
    assert taslak.count() == 0
    assert okumalar == []  # all of it came by the socket
    assert akis.locator(".m").count() == 2
    context.close()


def test_soket_engelliyken_acik_talep_yoklamayla_guncellenir(tarayici, ev_sahibi, canli_sunucu):
    # Polling stays the fallback (CONTRACT 11): with the socket refused, the open ticket is read
    # again (every 10 s while the panel is open) and the operator's reply appears.
    musteri = MusteriFactory()
    context, page, site = _sayfa(tarayici, ev_sahibi, canli_sunucu, musteri)
    page.route_web_socket(re.compile(r".*/ws/v1/widget/.*"), lambda ws: ws.close(code=1011))
    page.goto(site)
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("tab", name="Talepler").click()
    page.get_by_role("button", name="Yeni talep").click()
    page.get_by_label("Konu").fill("Fatura")
    page.get_by_label("Açıklama").fill("Faturam gelmedi")
    page.get_by_role("button", name="Talebi gönder").click()
    akis = page.get_by_role("log", name="Fatura")
    akis.get_by_text("Faturam gelmedi").wait_for()
    operator = _operator(canli_sunucu, musteri)
    [t] = operator.get("operator/tickets")["ticketlar"]
    operator.post(f"operator/ticket/{t['id']}/reply", {"icerik": "Faturanız **gönderildi**.", "durum": "cozuldu"}, 201)
    akis.locator("strong", has_text="gönderildi").wait_for(timeout=15_000)
    page.locator("supportdesk-widget .st .ch", has_text="Çözüldü").wait_for()
    assert akis.locator(".m").count() == 2
    context.close()


def test_okundu_isaretleri_yeniden_yuklemede_kalir(tarayici, ev_sahibi, canli_sunucu):
    # Issue 39: the operator socket's `okundu` is kept (`operator_son_okunan`), so the ✓✓ marks of
    # the visitor's messages come back after a reload (they used to vanish; the console kept its own).
    from .yardimci import operator_soketi

    musteri = MusteriFactory()
    context, page, site = _sayfa(tarayici, ev_sahibi, canli_sunucu, musteri)
    with page.expect_websocket(lambda ws: "/ws/v1/widget/" in ws.url) as bilgi:
        page.goto(site)
    bilgi.value.wait_for_event("framesent")
    _sohbet_baslat(page, "Okundu mu?")
    op = operator_yap(musteri)
    token = giris(canli_sunucu, op)
    operator = Rest(canli_sunucu, token=token)
    [oturum] = operator.get("operator/chats")["oturumlar"]
    operator.post(f"operator/chat/{oturum['id']}/accept", beklenen=200)
    mesajlar = operator.get(f"operator/chat/{oturum['id']}/messages")["mesajlar"]
    son = max(m["id"] for m in mesajlar if m["gonderen"] == "ziyaretci")
    soket, _ = operator_soketi(canli_sunucu, token)
    soket.gonder("okundu", {"oturum_id": oturum["id"], "mesaj_id": son})
    isaretli = page.locator("supportdesk-widget .m.z.ok", has_text="Okundu mu?")
    isaretli.wait_for(timeout=5000)
    soket.kapat()
    page.reload()
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("log").get_by_text("Okundu mu?").wait_for()
    isaretli.wait_for(timeout=5000)
    context.close()
