# ruff: noqa: F811  (pytest fixtures imported from the widget e2e module are parameters here)
"""The widget's visitor token in real headless Chromium (CONTRACT 2a): it asks for one, keeps it,
sends it on every call, and a site's signature (data- attributes) gives a second device its own."""
import hashlib
import hmac
import re
import time

from tenants.ziyaretci import ziyaretci_tokenlari_iptal_et

# Fixtures and marks (browser, skipped without chromium, transactional db) of the widget's e2e tests.
from .test_widget_e2e import baska_site, demo, pytestmark, sayfa, sohbet_baslat, tarayici  # noqa: F401


def _imza_oznitelikleri(musteri, zid: str, email: str) -> str:
    ts = int(time.time())
    imza = hmac.new(musteri.api_secret.encode(), f"{zid}|{email}|{ts}".encode(), hashlib.sha256).hexdigest()
    return f"data-ziyaretci-id='{zid}' data-timestamp='{ts}' data-signature='{imza}' data-email='{email}'"



def test_imzali_site_token_alir_ikinci_cihaz_gorur_saldirgan_goremez(sayfa, demo, baska_site, tarayici):
    musteri, _ = demo
    imzali = baska_site.sayfa("/uye.html", musteri, ek_oznitelik=_imza_oznitelikleri(musteri, "u-1842", "a@b.example"))
    page = sayfa.page
    basliklar: list[tuple[str, str | None]] = []
    page.on("request", lambda r: "/api/v1/" in r.url and r.method != "OPTIONS"
            and basliklar.append((r.url.split("/api/v1/")[1].split("?")[0], r.headers.get("x-ziyaretci-token"))))
    with page.expect_response(lambda r: "/api/v1/widget/init" in r.url) as yanit:
        page.goto(imzali)
    init = yanit.value.json()["data"]
    token = init["ziyaretci_token"]
    assert yanit.value.request.post_data_json["token_iste"] is True
    assert yanit.value.request.post_data_json["signature"]
    page.wait_for_function(f"localStorage.getItem('supportdesk:{musteri.api_key}:token:u-1842') === {token!r}")
    sohbet_baslat(page, mesaj="Faturamda bir hata var.")
    # Every call after init carries the token.
    sonra = [(yol, t) for yol, t in basliklar if yol != "widget/init"]
    assert sonra and all(t == token for _, t in sonra), sonra
    assert any(yol == "widget/chat/start" for yol, _ in sonra)

    # A second device: the site signs again, the widget gets a token of its own and sees the chat.
    ikinci = tarayici.new_context(locale="tr-TR")
    try:
        p2 = ikinci.new_page()
        with p2.expect_response(lambda r: "/api/v1/widget/init" in r.url) as yanit2:
            p2.goto(baska_site.sayfa("/uye2.html", musteri,
                                     ek_oznitelik=_imza_oznitelikleri(musteri, "u-1842", "a@b.example")))
        veri2 = yanit2.value.json()["data"]
        assert veri2["ziyaretci_token"] != token and veri2["oturum"]["durum"] == "bekliyor"
    finally:
        ikinci.close()

    # Someone who knows only the id (the site's user number) and the public key: no chat, no data.
    saldirgan = tarayici.new_context(locale="tr-TR")
    try:
        p3 = saldirgan.new_page()
        durumlar = []
        p3.on("response", lambda r: "/api/v1/widget/init" in r.url and durumlar.append(r.status))
        p3.goto(baska_site.sayfa("/sahte.html", musteri, ek_oznitelik="data-ziyaretci-id='u-1842'"))
        p3.get_by_role("button", name=re.compile("^Destek penceresini")).click()
        p3.get_by_role("alert").get_by_text("Destek penceresi bu sitede şu an kullanılamıyor").wait_for()
        assert durumlar == [401, 401]
        assert not p3.get_by_text("Faturamda bir hata var.").is_visible()
    finally:
        saldirgan.close()


def test_anonim_ziyaretci_tokeni_iptal_edilince_yeni_kimlikle_baslar(sayfa, demo):
    musteri, url = demo
    page = sayfa.page
    with page.expect_response(lambda r: "/api/v1/widget/init" in r.url) as yanit:
        page.goto(url)
    assert yanit.value.json()["data"]["ziyaretci_token"]
    ilk = page.evaluate("window.SupportDesk.ziyaretciId")
    sohbet_baslat(page)
    ziyaretci_tokenlari_iptal_et(musteri=musteri, ziyaretci_id=ilk)
    page.reload()
    page.wait_for_function(f"window.SupportDesk && window.SupportDesk.ziyaretciId !== {ilk!r}")
    yeni = page.evaluate("window.SupportDesk.ziyaretciId")
    page.wait_for_function(f"!!localStorage.getItem('supportdesk:{musteri.api_key}:token:{yeni}')")
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_label("Adınız").wait_for()  # a new visitor: the start form, not the revoked chat
