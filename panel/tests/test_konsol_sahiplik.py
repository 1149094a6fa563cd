"""Who owns a chat, in the console over the real operator socket (CONTRACT 3a, issue 24): an accept
of an open waiting chat shows its `sistem` line once; an answer to a waiting chat takes it; a chat
handed over arrives as a new one; the visitor's read marks survive a reload."""
import json
import re
import time

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_soket import http, konsol_ac
from .test_konsol_tarayici import bekle

pytestmark = TARAYICI_ISARETLERI


def _baslat(taban, musteri, ziyaretci_id, ad="Ayşe", mesaj="Merhaba"):
    return http(taban, "POST", "/api/v1/widget/chat/start", {"ziyaretci_id": ziyaretci_id, "ad": ad, "mesaj": mesaj},
                {"X-API-Key": musteri.api_key})["oturum"]


def _token(taban, user):
    return http(taban, "POST", "/api/v1/auth/login", {"email": user.email, "sifre": TEST_SIFRE})["token"]


def _satirlar(page, metin):
    return page.get_by_role("log").locator(".mesaj").filter(has_text=metin)


def _sohbeti_ac(page, oturum_id):
    page.locator(f'.satir[data-id="{oturum_id}"] .satir-ac').click()


def test_acik_bekleyen_sohbet_kabul_edilince_katildi_satiri_bir_kez(asgi_sunucu, tarayici):
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    ben.ad = "Ayla"
    ben.save(update_fields=["ad"])
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    for tur in range(3):
        o = _baslat(asgi_sunucu, a, f"z-{tur}", mesaj=f"Merhaba {tur}")
        page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)
        # Read before accepting: the chat is open when "Kabul et" is pressed in its header.
        _sohbeti_ac(page, o["id"])
        page.get_by_role("log").get_by_text(f"Merhaba {tur}").wait_for()
        page.locator(".sohbet-baslik").get_by_role("button", name="Kabul et").click()
        page.locator("#aktifler").locator(f'.satir[data-id="{o["id"]}"]').wait_for()
        _satirlar(page, "Ayla sohbete katıldı.").first.wait_for()
        time.sleep(1.0)  # a window for what must not happen: a second line once the accept's answer, frames and reads have come
        assert _satirlar(page, "Ayla sohbete katıldı.").count() == 1, tur
    # Re-read: once, as stored.
    page.reload()
    page.locator(".mod", has_text="Canlı").wait_for()
    _sohbeti_ac(page, o["id"])
    _satirlar(page, "Ayla sohbete katıldı.").first.wait_for()
    time.sleep(0.5)  # a window for what must not happen: the stored line drawn twice
    assert _satirlar(page, "Ayla sohbete katıldı.").count() == 1
    assert not hatalar, hatalar
    context.close()


def test_bekleyen_sohbete_yazmak_onu_alir_meslektasin_kuyrugundan_kalkar(asgi_sunucu, tarayici):
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    ben.ad = "Ayla"
    ben.save(update_fields=["ad"])
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    hatalar = []
    c1, page, _ = konsol_ac(tarayici, asgi_sunucu, ben, hatalar)
    c2, p2, _ = konsol_ac(tarayici, asgi_sunucu, meslektas, hatalar)
    o = _baslat(asgi_sunucu, a, "z-yaz", mesaj="Orada mısınız?")
    arkadaki = _baslat(asgi_sunucu, a, "z-arka", ad="Can", mesaj="Ben de bekliyorum")
    assert arkadaki["sira_no"] == 2
    p2.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)

    _sohbeti_ac(page, o["id"])
    page.get_by_role("log").get_by_text("Orada mısınız?").wait_for()
    page.locator("#yazi").fill("Buradayım, buyrun.")
    page.locator("#yazi").press("Enter")

    # Mine at once; gone from the colleague's queue; the accept's line once, before my answer.
    page.locator("#aktifler").locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)
    p2.locator(f'.satir[data-id="{o["id"]}"]').wait_for(state="detached", timeout=2000)
    _satirlar(page, "Ayla sohbete katıldı.").first.wait_for(timeout=2000)
    page.get_by_role("log").get_by_text("Buradayım, buyrun.").wait_for(timeout=5000)  # my answer, after the accept's
    metinler = page.get_by_role("log").locator(".mesaj .metin").all_inner_texts()
    assert metinler == ["Orada mısınız?", "Ayla sohbete katıldı.", "Buradayım, buyrun."], metinler
    assert page.locator(".sohbet-baslik").get_by_role("button", name="Kabul et").count() == 0
    # The visitor is no longer waiting; the one behind moved up.
    widget = {"X-API-Key": a.api_key}
    w = http(asgi_sunucu, "GET", f"/api/v1/widget/chat/messages?ziyaretci_id=z-yaz&oturum_id={o['id']}", None, widget)
    assert w["oturum"]["durum"] == "aktif" and w["sira_no"] is None
    assert http(asgi_sunucu, "GET", f"/api/v1/widget/chat/messages?ziyaretci_id=z-arka&oturum_id={arkadaki['id']}",
                None, widget)["sira_no"] == 1
    assert not hatalar, hatalar
    c1.close()
    c2.close()


def test_aktarilan_sohbet_yeni_sohbet_gibi_gelir(asgi_sunucu, tarayici):
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    hatalar = []
    c1, page, _ = konsol_ac(tarayici, asgi_sunucu, ben, hatalar)
    c2, p2, _ = konsol_ac(tarayici, asgi_sunucu, meslektas, hatalar)
    o = _baslat(asgi_sunucu, a, "z-aktar", ad="Deniz", mesaj="Faturam hatalı")
    page.locator(f'.satir[data-id="{o["id"]}"]').get_by_role("button", name=re.compile("Kabul et")).click()
    page.get_by_role("log").get_by_text("Faturam hatalı").wait_for()
    p2.locator(f'.satir[data-id="{o["id"]}"]').wait_for(state="detached", timeout=2000)
    bekle(lambda: p2.evaluate("window.__bildirimler.length") == 1)  # the new waiting chat rang once
    p2.evaluate("window.__bildirimler = []; window.__sesler = 0")

    page.get_by_role("button", name="Aktar", exact=True).click()
    page.get_by_label("Hedef").select_option(str(meslektas.id))
    page.get_by_role("dialog").get_by_role("button", name="Aktar").click()

    # At once in the colleague's active chats, unread, and it rings (no visitor message needed).
    satir = p2.locator("#aktifler").locator(f'.satir[data-id="{o["id"]}"]')
    satir.wait_for(timeout=2000)
    satir.locator(".rozet").wait_for(timeout=2000)
    assert int(satir.locator(".rozet").inner_text()) >= 1
    assert re.match(r"^\(\d+\) ", p2.title()), p2.title()
    bekle(lambda: len(p2.evaluate("window.__bildirimler")) == 1, sure=2)
    [[baslik, govde]] = p2.evaluate("window.__bildirimler")
    assert "Anadolu Yazılım" in baslik and govde == "Deniz"
    assert p2.evaluate("window.__sesler") == 1
    # The one who handed it over hears nothing of it.
    assert page.evaluate("window.__bildirimler.length") == 1  # its own new-chat ring only
    # Opening it reads it.
    satir.locator(".satir-ac").click()
    p2.get_by_role("log").get_by_text("Faturam hatalı").wait_for()
    satir.locator(".rozet").wait_for(state="detached")
    assert not hatalar, hatalar
    c1.close()
    c2.close()


def test_okundu_isaretleri_yeniden_yuklemede_kalir(asgi_sunucu, tarayici):
    from websockets.sync.client import connect

    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    o = _baslat(asgi_sunucu, a, "z-oku", mesaj="Merhaba")
    page.locator(f'.satir[data-id="{o["id"]}"]').get_by_role("button", name=re.compile("Kabul et")).click()
    page.get_by_role("log").get_by_text("Merhaba").wait_for()
    for metin in ("Birinci yanıt", "İkinci yanıt"):
        page.locator("#yazi").fill(metin)
        page.locator("#yazi").press("Enter")
        page.locator(".mesaj.operator").get_by_text(metin).wait_for()
    ilk_id = int(page.locator(".mesaj.operator").first.get_attribute("data-id"))

    ws_url = asgi_sunucu.replace("http", "ws") + f"/ws/v1/widget/?api_key={a.api_key}&ziyaretci_id=z-oku"
    with connect(ws_url, origin=asgi_sunucu, open_timeout=10) as ziyaretci:
        ziyaretci.send(json.dumps({"tip": "ping"}))  # answered once the socket is subscribed
        assert json.loads(ziyaretci.recv(timeout=5))["tip"] == "hata"
        ziyaretci.send(json.dumps({"tip": "okundu", "data": {"oturum_id": o["id"], "mesaj_id": ilk_id}}))
        page.locator(".mesaj.operator .okundu-isaret", has_text="Okundu").wait_for(timeout=2000)

    isaretler = lambda: page.locator(".mesaj.operator .okundu-isaret").all_inner_texts()  # noqa: E731
    assert isaretler() == ["✓✓ Okundu", "✓ İletildi"]
    page.reload()
    page.locator(".mod", has_text="Canlı").wait_for()
    _sohbeti_ac(page, o["id"])
    page.locator(".mesaj.operator").get_by_text("İkinci yanıt").wait_for()
    bekle(lambda: isaretler() == ["✓✓ Okundu", "✓ İletildi"], sure=2)
    # Through HTTP too: the operator's messages answer carries the visitor's read position.
    token = _token(asgi_sunucu, ben)
    veri = http(asgi_sunucu, "GET", f"/api/v1/operator/chat/{o['id']}/messages", None, {"Authorization": f"Bearer {token}"})
    assert veri["ziyaretci_son_okunan"] == ilk_id
    assert not hatalar, hatalar
    context.close()
