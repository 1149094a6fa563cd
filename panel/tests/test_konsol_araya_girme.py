"""A colleague's chat in the console (CONTRACT 3a, wave 4): for a plain operator "yalnızca
okuyorsunuz" is true (the composer writes notes only; no transfer, no close); a manager steps in
with an explicit button, then the composer answers the visitor; a send refused with 409 keeps the
draft in the box."""
from chat.models import Mesaj, Oturum
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_konsol_sahiplik import _baslat, _sohbeti_ac, _token
from .test_konsol_soket import http, konsol_ac
from .test_konsol_tarayici import bekle

pytestmark = TARAYICI_ISARETLERI

TASLAK = "Merhaba, siparişinize bakıyorum."


def _kabul(taban, token, oturum_id):
    http(taban, "POST", f"/api/v1/operator/chat/{oturum_id}/accept", {}, {"Authorization": f"Bearer {token}"})


def _acik_bekleyen_taslakla(page, o):
    _sohbeti_ac(page, o["id"])
    page.get_by_role("log").get_by_text("Merhaba").first.wait_for()
    page.locator("#yazi").fill(TASLAK)


def test_sade_operator_meslektasin_sohbetinde_yalniz_not_yazar(asgi_sunucu, tarayici):
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    o = _baslat(asgi_sunucu, a, "z-1")
    page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)
    _acik_bekleyen_taslakla(page, o)

    # A colleague takes it while the draft is being written: the chat stays open, draft and all.
    _kabul(asgi_sunucu, _token(asgi_sunucu, meslektas), o["id"])
    baslik = page.locator(".sohbet-baslik")
    baslik.get_by_text("Bu sohbet bir meslektaşınızda; yalnızca okuyorsunuz ve not yazabilirsiniz.").wait_for()
    assert page.locator("#yazi").input_value() == TASLAK
    # The banner is true: no reply, no transfer, no close, no stepping in.
    assert page.locator('.yazma-modu [data-mod="yanit"]').is_disabled()
    assert page.locator('.yazma-modu [data-mod="not"]').get_attribute("aria-pressed") == "true"
    for ad in ("Aktar", "Kapat", "Araya gir"):
        assert baslik.get_by_role("button", name=ad, exact=True).count() == 0, ad
    page.locator("#yazi").press("Enter")
    bekle(lambda: Mesaj.objects.filter(oturum_id=o["id"], operator=ben).exists())
    [m] = Mesaj.objects.filter(oturum_id=o["id"], operator=ben)
    assert (m.icerik, m.ozel) == (TASLAK, True)  # a note, never an answer to the visitor
    assert Oturum.objects.get(pk=o["id"]).operator_id == meslektas.id
    assert not hatalar, hatalar
    context.close()


def test_yonetici_acik_dugmeyle_araya_girer_sonra_yaniti_ziyaretciye_gider(asgi_sunucu, tarayici):
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    amir = operator_yap(a, rol="yonetici", email="amir@ornek.com")
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, amir)
    o = _baslat(asgi_sunucu, a, "z-1")
    page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)
    _acik_bekleyen_taslakla(page, o)
    _kabul(asgi_sunucu, _token(asgi_sunucu, meslektas), o["id"])
    baslik = page.locator(".sohbet-baslik")
    baslik.get_by_text("Bu sohbet bir meslektaşınızda. Yanıt yazmak, aktarmak ya da kapatmak için araya girin.").wait_for()
    # Not stepped in yet: notes only, no transfer or close.
    assert page.locator('.yazma-modu [data-mod="yanit"]').is_disabled()
    assert baslik.get_by_role("button", name="Kapat", exact=True).count() == 0
    baslik.get_by_role("button", name="Araya gir").click()
    baslik.get_by_text("Araya girdiniz: yanıtınız ziyaretçiye gider, sohbet meslektaşınızda kalır.").wait_for()
    assert page.locator('.yazma-modu [data-mod="yanit"]').get_attribute("aria-pressed") == "true"
    assert baslik.get_by_role("button", name="Kapat", exact=True).count() == 1
    assert page.locator("#yazi").input_value() == TASLAK
    page.locator("#yazi").press("Enter")
    bekle(lambda: Mesaj.objects.filter(oturum_id=o["id"], operator=amir).exists())
    [m] = Mesaj.objects.filter(oturum_id=o["id"], operator=amir)
    assert (m.icerik, m.ozel) == (TASLAK, False)
    assert Oturum.objects.get(pk=o["id"]).operator_id == meslektas.id  # the chat keeps its operator
    assert not hatalar, hatalar
    context.close()


def test_reddedilen_gonderimde_taslak_kutuda_kalir(asgi_sunucu, tarayici):
    # The colleague's accept lands between the press of Enter and the answer reaching the server:
    # the send is 409 (the claim was lost; a plain operator does not step in), nothing is stored,
    # and the draft stays in the box of a chat that stays open, now notes only.
    a = MusteriFactory(firma_adi="Anadolu Yazılım")
    ben = operator_yap(a, email="ben@ornek.com")
    meslektas = operator_yap(a, email="meslektas@ornek.com")
    meslektas_token = _token(asgi_sunucu, meslektas)
    context, page, hatalar = konsol_ac(tarayici, asgi_sunucu, ben)
    o = _baslat(asgi_sunucu, a, "z-1")
    page.locator(f'.satir[data-id="{o["id"]}"]').wait_for(timeout=2000)
    _acik_bekleyen_taslakla(page, o)

    def once_meslektas(route):
        _kabul(asgi_sunucu, meslektas_token, o["id"])
        route.continue_()

    page.route(f"**/api/v1/operator/chat/{o['id']}/message", once_meslektas)
    with page.expect_response(lambda r: r.url.endswith(f"/chat/{o['id']}/message")) as cevap:
        page.locator("#yazi").press("Enter")
    assert cevap.value.status == 409
    page.locator(".sohbet-baslik").get_by_text("yalnızca okuyorsunuz ve not yazabilirsiniz").wait_for()
    assert page.locator("#yazi").input_value() == TASLAK
    assert page.get_by_role("alert").filter(has_text="meslektaş").count() + page.get_by_role("alert").filter(
        has_text="başka bir temsilci").count() == 1
    assert page.locator('.yazma-modu [data-mod="yanit"]').is_disabled()
    assert not Mesaj.objects.filter(oturum_id=o["id"], operator=ben).exists()
    assert Oturum.objects.get(pk=o["id"]).operator_id == meslektas.id
    assert not hatalar, hatalar
    context.close()
