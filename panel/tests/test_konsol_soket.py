"""The console over the real operator socket of issue 14 (`canli`), served with HTTP by one ASGI
server (uvicorn on an ephemeral port), as `make run` serves it. The visitor's side goes over HTTP
and the widget socket of the same server, so every frame comes from a real commit."""
import json
import re
import time
import urllib.request

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_tarayici import BILDIRIM_KAYDI, bekle

pytestmark = TARAYICI_ISARETLERI


def http(taban, yontem, yol, govde=None, basliklar=None):
    istek = urllib.request.Request(taban + yol, method=yontem, data=None if govde is None else json.dumps(govde).encode(),
                                   headers={"Content-Type": "application/json", **(basliklar or {})})
    with urllib.request.urlopen(istek, timeout=10) as yanit:
        return json.loads(yanit.read())["data"]


def konsol_ac(tarayici, taban, kullanici, hatalar=None):
    """A browser context logged in to the console, its socket live: (context, page, page errors)."""
    hatalar = [] if hatalar is None else hatalar
    context = tarayici.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    context.add_init_script(BILDIRIM_KAYDI)
    page = context.new_page()
    page.on("pageerror", lambda e: hatalar.append(str(e)))
    page.goto(f"{taban}/panel/")
    page.get_by_label("E-posta").fill(kullanici.email)
    page.get_by_label("Şifre").fill(TEST_SIFRE)
    page.get_by_role("button", name="Giriş yap").click()
    page.locator(".mod", has_text="Canlı").wait_for()
    return context, page, hatalar


def test_gercek_soketle_canli_konsol(asgi_sunucu, tarayici):
    from websockets.sync.client import connect

    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    widget = {"X-API-Key": a.api_key}

    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)

    # A new chat arrives by its frame (polling is off while the socket is live).
    o1 = http(asgi_sunucu, "POST", "/api/v1/widget/chat/start",
              {"ziyaretci_id": "z-canli", "ad": "Ayşe", "mesaj": "Canlı merhaba"}, widget)["oturum"]
    page.locator(f'.satir[data-id="{o1["id"]}"]').wait_for(timeout=2000)
    bekle(lambda: len(page.evaluate("window.__bildirimler")) == 1)

    # A colleague's accept removes another chat from this queue at once.
    o2 = http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-canli-2", "ad": "Can"}, widget)["oturum"]
    page.locator(f'.satir[data-id="{o2["id"]}"]').wait_for(timeout=2000)
    token = http(asgi_sunucu, "POST", "/api/v1/auth/login", {"email": meslektas.email, "sifre": TEST_SIFRE})["token"]
    http(asgi_sunucu, "POST", f"/api/v1/operator/chat/{o2['id']}/accept", None, {"Authorization": f"Bearer {token}"})
    page.locator(f'.satir[data-id="{o2["id"]}"]').wait_for(state="detached", timeout=2000)

    # Accept, then typing and read marks both ways through the widget socket.
    page.locator(f'.satir[data-id="{o1["id"]}"]').get_by_role("button", name=re.compile("Kabul et")).click()
    page.get_by_role("log").get_by_text("Canlı merhaba").wait_for()
    ws_url = asgi_sunucu.replace("http", "ws") + f"/ws/v1/widget/?api_key={a.api_key}&ziyaretci_id=z-canli"
    with connect(ws_url, origin=asgi_sunucu, open_timeout=10) as ziyaretci:
        page.locator("#yazi").type("Merhaba Ayşe")
        gelen = []
        son = time.monotonic() + 15
        while time.monotonic() < son and not any(c["tip"] == "yaziyor" for c in gelen):
            try:
                gelen.append(json.loads(ziyaretci.recv(timeout=2.2)))
            except TimeoutError:
                # The widget socket joins its group just after the handshake (it has no `hazir`);
                # type on, and the console sends `yaziyor` again (at most once in 2 s).
                page.locator("#yazi").press("Space")
                page.locator("#yazi").press("Backspace")
        assert {"tip": "yaziyor", "data": {"oturum_id": o1["id"]}} in gelen, gelen
        ziyaretci.send(json.dumps({"tip": "yaziyor", "data": {"oturum_id": o1["id"]}}))
        page.get_by_text("yazıyor…").wait_for()
        page.locator("#yazi").press("Enter")
        page.locator(".mesaj.operator").get_by_text("Merhaba Ayşe").wait_for()
        mesaj_id = int(page.locator(".mesaj.operator").last.get_attribute("data-id"))
        ziyaretci.send(json.dumps({"tip": "okundu", "data": {"oturum_id": o1["id"], "mesaj_id": mesaj_id}}))
        page.locator(".mesaj.operator .okundu-isaret", has_text="Okundu").wait_for()

    # The visitor's answer comes by the socket's `mesaj` frame.
    http(asgi_sunucu, "POST", "/api/v1/widget/chat/message",
         {"ziyaretci_id": "z-canli", "oturum_id": o1["id"], "icerik": "Soketten cevap"}, widget)
    page.get_by_role("log").get_by_text("Soketten cevap").wait_for(timeout=2000)
    assert page.get_by_role("log").get_by_text("Soketten cevap").count() == 1

    # Transfer to the colleague's live console, who closes it: both by frames.
    c2, p2, _ = konsol_ac(tarayici, asgi_sunucu, meslektas, hatalar)
    page.get_by_role("button", name="Aktar", exact=True).click()
    page.get_by_label("Hedef").select_option(str(meslektas.id))
    page.get_by_role("dialog").get_by_role("button", name="Aktar").click()
    page.locator(f'.satir[data-id="{o1["id"]}"]').wait_for(state="detached", timeout=2000)
    p2.locator("#aktifler").locator(f'.satir[data-id="{o1["id"]}"]').wait_for(timeout=2000)
    p2.locator(f'.satir[data-id="{o1["id"]}"] .satir-ac').click()
    p2.get_by_role("button", name="Kapat", exact=True).click()
    p2.get_by_role("dialog").get_by_role("button", name="Evet").click()
    p2.locator(f'.satir[data-id="{o1["id"]}"]').wait_for(state="detached")
    assert http(asgi_sunucu, "GET", f"/api/v1/widget/chat/messages?ziyaretci_id=z-canli&oturum_id={o1['id']}",
                None, widget)["oturum"]["durum"] == "kapandi"

    # The cookie token revoked elsewhere: the server closes the socket opened with its ticket
    # (4401), the reconnect's ticket request is refused, and the login form comes back.
    [cerez] = [c for c in context.cookies() if c["name"] == "sd_operator"]
    http(asgi_sunucu, "POST", "/api/v1/auth/logout", None, {"Authorization": f"Bearer {cerez['value']}"})
    page.get_by_text("Oturumunuzun süresi doldu").wait_for(timeout=15_000)
    assert not hatalar, hatalar
    c2.close()
    context.close()


def test_projeden_cikarilan_operatorun_sekmesi_ve_sohbetleri_gider(asgi_sunucu, tarayici):
    # CONTRACT 11 as built: a membership deleted makes the operator socket send a fresh `hazir`;
    # the console's tabs and queue follow it, without a reload.
    from tenants.models import Uyelik
    from tenants.services import uyelik_ekle

    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    b = MusteriFactory(firma_adi="Boğaziçi Market")
    ben = operator_yap(a, b, email="ben@ornek.com")
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    adlar = lambda: page.locator(".sekme .ad").all_inner_texts()  # noqa: E731
    bekle(lambda: adlar() == ["Tümü", "Anadolu Yazılım", "Boğaziçi Market"])
    o = http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-b", "ad": "Can", "mesaj": "Selam"},
             {"X-API-Key": b.api_key})["oturum"]
    page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)
    page.get_by_role("tab", name=re.compile("Boğaziçi Market")).click()

    Uyelik.objects.filter(kullanici=ben, musteri=b).delete()
    bekle(lambda: adlar() == ["Tümü", "Anadolu Yazılım"], sure=5)
    page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(state="detached", timeout=2000)
    assert page.get_by_role("tab", name=re.compile("Tümü")).get_attribute("aria-selected") == "true"

    uyelik_ekle(kullanici=ben, musteri=b)
    bekle(lambda: adlar() == ["Tümü", "Anadolu Yazılım", "Boğaziçi Market"], sure=5)
    page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=5000)
    assert not hatalar, hatalar
    context.close()


def test_konsol_yuklenirken_tarayici_konsoluna_hata_dusmez(asgi_sunucu, tarayici):
    # Issue 24: before a login the console called `GET /panel/oturum` to learn whether a token
    # cookie existed (HttpOnly: no script sees it), and every logged-out load logged that 401. The
    # server now sets a hint cookie beside the token (no secret, scoped to /panel/, as long-lived
    # as the token); the console asks for its session only when the hint is there.
    kullanici = operator_yap(MusteriFactory(firma_adi="Anadolu Yazılım"))
    context = tarayici.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    page = context.new_page()
    hatalar, basarisiz = [], []
    page.on("console", lambda m: hatalar.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: hatalar.append(str(e)))
    page.on("response", lambda r: basarisiz.append((r.status, r.url)) if r.status >= 400 else None)

    def yukle():
        page.goto(f"{asgi_sunucu}/panel/")
        page.wait_for_load_state("networkidle")

    yukle()  # a first visit: the login form, and no call that must fail
    page.get_by_role("button", name="Giriş yap").wait_for()
    assert hatalar == [] and basarisiz == []

    page.get_by_label("E-posta").fill(kullanici.email)
    page.get_by_label("Şifre").fill(TEST_SIFRE)
    page.get_by_role("button", name="Giriş yap").click()
    page.locator(".mod", has_text="Canlı").wait_for()
    [token] = [c["value"] for c in context.cookies() if c["name"] == "sd_operator"]
    assert page.evaluate("document.cookie") == "sd_operator_girisli=1" and token not in page.evaluate("document.cookie")

    yukle()  # a reload keeps the session (and the socket), still without an error
    page.locator(".mod", has_text="Canlı").wait_for()
    page.get_by_role("button", name="Çıkış").click()
    page.get_by_role("button", name="Giriş yap").wait_for()
    yukle()  # after logout: the login form again, no 401
    page.get_by_role("button", name="Giriş yap").wait_for()
    assert hatalar == [] and basarisiz == [], (hatalar, basarisiz)


def test_cikis_yoldaki_okumanin_yanitini_bekler(asgi_sunucu, tarayici):
    # A read on its way when "Çıkış" is pressed (the views' count a new chat's frame asked for) is
    # answered before the session ends: the logout waits for it, so no 401 reaches the browser
    # (CI saw one when the count's answer came after the logout had revoked the token).
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    kullanici = operator_yap(a)
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, kullanici)
    basarisiz, tutulan, cikislar = [], [], []
    page.on("response", lambda r: basarisiz.append((r.status, r.url)) if r.status >= 400 else None)
    page.on("request", lambda r: cikislar.append(r.url) if r.url.endswith("/panel/cikis") else None)
    page.route("**/api/v1/operator/gorunumler", lambda route: tutulan.append(route))
    http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-cikis", "mesaj": "Merhaba"},
         {"X-API-Key": a.api_key})
    for _ in range(100):  # the frame's count, held on its way (the route's handler runs in Playwright's calls)
        if tutulan:
            break
        page.wait_for_timeout(100)
    assert tutulan
    page.get_by_role("button", name="Çıkış").click()
    page.wait_for_timeout(700)  # a window for what must not happen: the logout overtaking the held read
    assert cikislar == []
    for route in tutulan:
        route.continue_()
    page.get_by_role("button", name="Giriş yap").wait_for()
    assert len(cikislar) == 1
    page.wait_for_timeout(300)  # the held read's answer, if it were a 401, lands here
    assert basarisiz == [] and not hatalar, (basarisiz, hatalar)
    context.close()


def test_portalda_degisen_hazir_yanit_acik_konsola_yenilemeden_gelir(asgi_sunucu, tarayici):
    # CONTRACT 16: a canned response created, edited or deleted in the portal reaches an open
    # console (`hazir_yanitlar_degisti` on the operator socket); the open list redraws itself.
    from chat.services import hazir_yanitlari_yukle

    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, rol="sahip", email="ben@ornek.com")
    hazir_yanitlari_yukle(musteri=a, kayitlar=[{"kisayol": "/selam", "baslik": "Selamlama", "icerik": "Merhaba!"}])
    o = http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-hazir", "ad": "Ayşe", "mesaj": "Selam"},
             {"X-API-Key": a.api_key})["oturum"]
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    page.locator(f'.satir[data-id="{o["id"]}"]').get_by_role("button", name=re.compile("Kabul et")).click()
    page.get_by_role("log").get_by_text("Selam", exact=True).wait_for()
    liste = page.get_by_role("listbox")
    page.locator("#yazi").fill("/")
    liste.get_by_role("option", name=re.compile("Selamlama")).wait_for()
    page.locator("#yazi").type("kar")
    liste.get_by_text("Eşleşen hazır yanıt yok.").wait_for()

    portal = context.new_page()
    portal.on("dialog", lambda d: d.accept())
    portal.goto(f"{asgi_sunucu}/portal/giris")
    portal.fill("#id_email", ben.email)
    portal.fill("#id_sifre", TEST_SIFRE)
    portal.click("button[type=submit]")
    portal.wait_for_url(f"{asgi_sunucu}/portal/")
    portal.goto(f"{asgi_sunucu}/portal/hazir-yanitlar")
    portal.fill("#id_kisayol", "kargo")  # typed without its `/`
    portal.fill("#id_baslik", "Kargo durumu")
    portal.fill("#id_icerik", "Kargonuz yolda, yarın elinizde.")
    portal.get_by_role("button", name="Ekle").click()
    portal.get_by_text("Kaydedildi.").wait_for()

    # the open list redraws without a keystroke and without a reload
    secenek = liste.get_by_role("option", name=re.compile("Kargo durumu"))
    secenek.wait_for(timeout=3000)
    assert secenek.locator("kbd").inner_text() == "/kargo"
    page.locator("#yazi").press("Enter")
    assert page.locator("#yazi").input_value() == "Kargonuz yolda, yarın elinizde."

    portal.locator("tr", has_text="/kargo").get_by_role("link", name="Düzenle").click()
    portal.get_by_role("button", name="Sil").click()
    portal.get_by_text("Silindi.").wait_for()
    page.locator("#yazi").fill("/kar")
    liste.get_by_text("Eşleşen hazır yanıt yok.").wait_for(timeout=3000)
    assert not hatalar, hatalar
    context.close()


def _ortasina_bas(page, hedef):
    """Press the mouse down (and hold it) on the middle of `hedef`. A redraw between a wait and the
    measure can leave no element for a moment (a CI run met None): measure until there is one."""
    cerceve = None
    for _ in range(50):
        cerceve = hedef.bounding_box()
        if cerceve is not None:
            break
        page.wait_for_timeout(100)
    assert cerceve is not None, f"{hedef} never showed"
    page.mouse.move(cerceve["x"] + cerceve["width"] / 2, cerceve["y"] + cerceve["height"] / 2)
    page.mouse.down()


def test_bir_yeni_sohbet_kuyrugu_cizerken_basili_tutulan_tiklama_secer(asgi_sunucu, tarayici):
    # A busy queue redraws its rows at every frame. A press and a release that straddle a redraw
    # land on two different elements, and the browser drops the click: the row's box stays
    # unticked (a CI run lost one of two clicks on a phone this way). The list now waits for the
    # release to redraw, so the click counts; then the new chat shows.
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    widget = {"X-API-Key": a.api_key}

    def baslat(zid):
        return http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": zid, "ad": zid, "mesaj": "Selam"},
                    widget)["oturum"]

    bir = baslat("z-tutma-1")
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    atanmamis = page.locator('[data-sayi="sohbet-atanmamis"]')
    atanmamis.filter(has_text="1").wait_for()
    kutu = page.locator(f'.satir[data-id="{bir["id"]}"] .secim-kutusu')
    kutu.wait_for()  # the count and the queue's rows come from two reads: the row may follow the count
    _ortasina_bas(page, kutu)
    iki = baslat("z-tutma-2")
    # `chat_yeni` redraws the queue at once and the views' count a second later: the count says
    # the redraw has been asked for.
    atanmamis.filter(has_text="2").wait_for()
    page.mouse.up()
    page.get_by_role("toolbar", name="Toplu eylemler").locator(".secili-sayisi").filter(has_text="1 seçili").wait_for()
    assert kutu.is_checked()
    page.locator(f'.satir[data-id="{iki["id"]}"]').wait_for()  # the redraw that waited has run
    assert page.locator(f'.satir[data-id="{bir["id"]}"] .secim-kutusu').is_checked()
    assert hatalar == []
    context.close()


def test_bir_yeni_sohbet_sekmeleri_cizerken_basili_tutulan_sessize_alma_tiklamasi_kaybolmaz(asgi_sunucu, tarayici):
    # The tabs are drawn again at every frame (their waiting counts). A press on a project's mute
    # button that a new chat's redraw straddles landed on a button that was gone by the release,
    # and the mute was lost (a loaded CI run). Like the list's rows, the tabs wait for the release.
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    widget = {"X-API-Key": a.api_key}
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    sayi = page.locator(f'.sekme-kap[data-id="{a.id}"] .sayi')
    sayi.filter(has_text="0").wait_for()
    dugme = page.get_by_role("button", name="Anadolu Yazılım: sessize al")
    _ortasina_bas(page, dugme)
    http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-sekme", "ad": "Can", "mesaj": "Selam"}, widget)
    # The views' count follows a frame a second later: by then the tabs' redraw has been asked for.
    page.locator('[data-sayi="sohbet-atanmamis"]').filter(has_text="1").wait_for()
    assert sayi.inner_text() == "0"  # held: not drawn under the pointer
    page.mouse.up()
    page.get_by_role("button", name="Anadolu Yazılım: sesi aç").wait_for()
    sayi.filter(has_text="1").wait_for()  # the redraw that waited has run
    assert hatalar == []
    context.close()


def test_gorunum_sayilari_yenilenirken_basili_tutulan_gorunum_tiklamasi_kaybolmaz(asgi_sunucu, tarayici):
    # The views' counts are read again a second after a frame, every second in a busy queue. Their
    # buttons used to be drawn anew with the counts, so a press and a release that straddled a
    # count lost the operator's choice of a view. The buttons now stay; only their counts change.
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    widget = {"X-API-Key": a.api_key}
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    atanmamis = page.locator('[data-sayi="sohbet-atanmamis"]')
    atanmamis.filter(has_text="0").wait_for()
    dugme = page.locator('button.gorunum[data-tur="sohbet"][data-gorunum="atanmamis"]')
    _ortasina_bas(page, dugme)
    http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-gorunum", "ad": "Can", "mesaj": "Selam"}, widget)
    atanmamis.filter(has_text="1").wait_for()  # counted again under the held pointer
    page.mouse.up()
    bekle(lambda: dugme.get_attribute("aria-pressed") == "true")
    page.locator("#gorunum-listesi .satir").first.wait_for()  # the view chosen, its list read
    assert dugme.get_attribute("aria-label") == "Atanmamış: 1"
    assert hatalar == []
    context.close()


def _meslektasli_proje(taban):
    """A tenant, the console's operator in it, and a colleague's bearer header for the API."""
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    token = http(taban, "POST", "/api/v1/auth/login", {"email": meslektas.email, "sifre": TEST_SIFRE})["token"]
    return a, ben, {"Authorization": f"Bearer {token}"}


def test_acik_sohbet_guncellenirken_basili_tutulan_kapat_tiklamasi_kaybolmaz(asgi_sunucu, tarayici):
    # A frame about the open chat (here a colleague's label) draws its header's buttons again. A
    # press on Close that such a redraw straddled made no click. The header waits for the release,
    # as the list and the tabs do: the dialog opens, and the label shows after it.
    a, ben, yetki = _meslektasli_proje(asgi_sunucu)
    oturum = http(asgi_sunucu, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": "z-baslik", "ad": "Can", "mesaj": "Selam"},
                  {"X-API-Key": a.api_key})["oturum"]
    etiket = http(asgi_sunucu, "POST", f"/api/v1/operator/tenants/{a.id}/etiketler", {"ad": "İade"}, yetki)["etiket"]
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    page.locator(f'.satir[data-id="{oturum["id"]}"] .satir-ac').click()
    baslik = page.locator(".sohbet-baslik")
    kapat = baslik.get_by_role("button", name="Kapat", exact=True)
    _ortasina_bas(page, kapat)
    # The frame reads the views' counts again a second after it: that read says it has come.
    with page.expect_request(lambda r: "/operator/gorunumler" in r.url):
        http(asgi_sunucu, "PUT", f"/api/v1/operator/chat/{oturum['id']}/etiketler", {"etiket_idleri": [etiket["id"]]},
             yetki)
    assert baslik.locator(".baslik-etiketler").inner_text() == ""  # held: not drawn under the pointer
    page.mouse.up()
    page.get_by_role("dialog").get_by_role("button", name="Evet").wait_for()
    baslik.locator(".baslik-etiketler", has_text="İade").wait_for()  # the redraw that waited has run
    assert hatalar == []
    context.close()


def test_acik_talep_guncellenirken_basili_tutulan_yanitla_tiklamasi_kaybolmaz(asgi_sunucu, tarayici):
    # A frame about the open ticket (a colleague's change, the customer's reply) draws it again,
    # its composer and Reply button too. A press on Reply that such a redraw straddled sent
    # nothing. The ticket waits for the release: the reply goes, then the change shows.
    from tickets.models import TicketYanit

    a, ben, yetki = _meslektasli_proje(asgi_sunucu)
    talep = http(asgi_sunucu, "POST", "/api/v1/widget/ticket/create",
                 {"ziyaretci_id": "z-talep", "konu": "İade", "mesaj": "Paketim hasarlı geldi.", "ad": "Can"},
                 {"X-API-Key": a.api_key})["ticket"]
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    page.keyboard.press("v")
    page.locator(f'#talepler .satir[data-id="{talep["id"]}"] .satir-ac').click()
    page.get_by_text("Paketim hasarlı geldi.").wait_for()
    page.get_by_label("Yanıtınız…").fill("Yenisini gönderiyoruz.")
    oncelik = page.locator("#talep-oncelik-degistir")
    _ortasina_bas(page, page.get_by_role("button", name="Yanıtla"))
    # The frame reads the tickets' list again at once: that read says it has come.
    with page.expect_response(lambda r: "/api/v1/operator/tickets" in r.url):
        http(asgi_sunucu, "PATCH", f"/api/v1/operator/ticket/{talep['id']}", {"oncelik": "yuksek"},
             yetki)
    assert oncelik.input_value() == "normal"  # held: not drawn under the pointer
    page.mouse.up()
    bekle(lambda: TicketYanit.objects.filter(ticket_id=talep["id"], icerik="Yenisini gönderiyoruz.").exists())
    page.locator(".mesaj.operator", has_text="Yenisini gönderiyoruz.").wait_for()
    bekle(lambda: oncelik.input_value() == "yuksek")  # the redraw that waited has run
    assert hatalar == []
    context.close()
