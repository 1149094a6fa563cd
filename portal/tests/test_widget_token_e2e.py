# ruff: noqa: F811  (pytest fixtures imported from the widget e2e module are parameters here)
"""The widget's visitor token in real headless Chromium (CONTRACT 2a): it asks for one, keeps it,
sends it on every call, and a site's signature (data- attributes) gives a second device its own."""
import hashlib
import hmac
import re
import time

from rest_framework.test import APIClient

from chat.services import chat_baslat
from tenants.models import ZiyaretciKimligi
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
        assert durumlar == [401]  # a site's id unsigned: no token asked for (it would be refused)
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


def test_veri_olan_eski_ziyaretci_tokensiz_eskisi_gibi_devam_eder(sayfa, demo):
    # A visitor of the widget before tokens: it has a chat, so an unsigned call cannot bind it;
    # the widget keeps its id and works unbound, as before.
    musteri, url = demo
    eski = "z_" + "e" * 32
    chat_baslat(musteri=musteri, ziyaretci_id=eski, mesaj="Önceki sohbetim")
    page = sayfa.page
    page.add_init_script(f"localStorage.setItem('supportdesk:{musteri.api_key}:ziyaretci', {eski!r})")
    durumlar = []
    page.on("response", lambda r: "/api/v1/widget/init" in r.url and durumlar.append(r.status))
    with page.expect_response(lambda r: "/api/v1/widget/campaigns" in r.url):
        page.goto(url)
    assert durumlar == [401, 200]
    assert page.evaluate("window.SupportDesk.ziyaretciId") == eski
    page.get_by_role("button", name=re.compile("Destek penceresini aç")).click()
    page.get_by_role("log").get_by_text("Önceki sohbetim").wait_for()


def test_site_kimligi_imzasiz_baglanmaz_ve_kapilamaz(sayfa, demo, baska_site):
    # CONTRACT 2a (issue 24): a site's own id is bound only by its signature. Unsigned, the widget
    # does not ask for a token (one init, no 401) and works as before; someone who asked first
    # for that id with the public key bound nothing, so the real visitor is not locked out.
    musteri, _ = demo
    saldiri = APIClient()
    saldiri.credentials(HTTP_X_API_KEY=musteri.api_key)
    res = saldiri.post("/api/v1/widget/init", {"ziyaretci_id": "u-77", "token_iste": True}, format="json")
    assert res.status_code == 401 and res.json()["hata"]["kod"] == "ZIYARETCI_TOKEN_GEREKLI"
    page = sayfa.page
    initler = []
    page.on("request", lambda r: "/api/v1/widget/init" in r.url and r.method == "POST" and initler.append(r))
    with page.expect_response(lambda r: "/api/v1/widget/campaigns" in r.url):
        page.goto(baska_site.sayfa("/uye.html", musteri, ek_oznitelik="data-ziyaretci-id='u-77'"))
    assert len(initler) == 1 and "token_iste" not in initler[0].post_data_json
    assert initler[0].response().status == 200
    sohbet_baslat(page, mesaj="Siparişim nerede?")
    assert not ZiyaretciKimligi.objects.exists()


def test_kendi_biciminde_olmayan_saklanmis_kimlik_tokensiz_calisir(sayfa, demo):
    # An id in storage that is not of the widget's own form is kept and works unbound: no token
    # is asked for (it would be refused), one init.
    musteri, url = demo
    page = sayfa.page
    page.add_init_script(f"localStorage.setItem('supportdesk:{musteri.api_key}:ziyaretci', 'eski-bicim')")
    durumlar = []
    page.on("response", lambda r: "/api/v1/widget/init" in r.url and durumlar.append(r.status))
    with page.expect_response(lambda r: "/api/v1/widget/campaigns" in r.url):
        page.goto(url)
    assert durumlar == [200]
    assert page.evaluate("window.SupportDesk.ziyaretciId") == "eski-bicim"
    sohbet_baslat(page)
    assert not ZiyaretciKimligi.objects.exists()
