"""Issue 39.3: "Her zaman açık" does not erase the weekly calendar. The days are kept beside the
switch (`Musteri.kayitli_calisma_saatleri`) and come back when it is unticked, while the API still
answers `calisma_saatleri: null` (always open, CONTRACT 15) as long as the switch is on."""
import pytest

from portal.tests.yardimci import giris_yapmis
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import giris_yap, operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium
from tenants.models import Musteri

pytestmark = pytest.mark.django_db
URL = "/portal/yonlendirme"
GUNLER = ("pzt", "sal", "car", "per", "cum", "cmt", "paz")
HAFTA = {"pzt": [["09:00", "12:00"], ["13:00", "17:00"]], "sal": [["09:00", "17:00"]], "car": [], "per": [],
         "cum": [["22:00", "24:00"]], "cmt": [["00:00", "02:00"]], "paz": []}


def form(**degisen) -> dict:
    veri = {"saat_dilimi": "Europe/Istanbul", "atama_modu": "manuel", "tatiller": "", "mesai_disi_mesaji": "",
            "bekleme_zaman_asimi_dk": "10", "sessiz_kapatma_dk": "30", "yeniden_atama_dk": "", "saklama_gun": "",
            "dil": "tr", **{f"gun_{g}": "" for g in GUNLER},
            "gun_pzt": "09:00-12:00, 13:00-17:00", "gun_sal": "09:00-17:00", "gun_cum": "22:00-24:00",
            "gun_cmt": "00:00-02:00"}
    veri.update(degisen)
    return {k: v for k, v in veri.items() if v is not None}


@pytest.fixture
def sahip_kullanici(musteri):
    return operator_yap(musteri, rol="sahip")


@pytest.fixture
def sahip(sahip_kullanici):
    return giris_yapmis(sahip_kullanici)


def _ayarlar_api(api, kullanici, musteri) -> dict:
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, kullanici)}")
    res = api.get(f"/api/v1/operator/tenants/{musteri.id}/ayarlar")
    assert res.status_code == 200, res.content
    return res.json()["data"]["ayarlar"]


def test_always_open_keeps_the_days_and_unticking_shows_them_again(musteri, sahip, sahip_kullanici, api):
    assert sahip.post(URL, form()).status_code == 302
    musteri.refresh_from_db()
    assert musteri.calisma_saatleri == HAFTA
    # Tick "always open": the page sends the days too (as a browser does), the calendar is null.
    res = sahip.post(URL, form(her_zaman_acik="1"))
    assert res.status_code == 302, res.content.decode()[:3000]
    musteri.refresh_from_db()
    assert musteri.calisma_saatleri is None and musteri.kayitli_calisma_saatleri == HAFTA
    assert _ayarlar_api(api, sahip_kullanici, musteri)["calisma_saatleri"] is None
    html = sahip.get(URL).content.decode()
    assert 'name="her_zaman_acik" value="1" checked' in html
    assert 'value="09:00-12:00, 13:00-17:00"' in html and 'value="22:00-24:00"' in html
    # Untick it: the days the page shows are the calendar again.
    assert sahip.post(URL, form()).status_code == 302
    musteri.refresh_from_db()
    assert musteri.calisma_saatleri == HAFTA
    assert _ayarlar_api(api, sahip_kullanici, musteri)["calisma_saatleri"] == HAFTA


def test_days_edited_while_always_open_are_kept_and_bad_ones_are_named(musteri, sahip):
    sahip.post(URL, form(her_zaman_acik="1"))
    assert sahip.post(URL, form(her_zaman_acik="1", gun_car="10:00-11:00")).status_code == 302
    musteri.refresh_from_db()
    assert musteri.calisma_saatleri is None and musteri.kayitli_calisma_saatleri["car"] == [["10:00", "11:00"]]
    once = (musteri.calisma_saatleri, musteri.kayitli_calisma_saatleri)
    res = sahip.post(URL, form(her_zaman_acik="1", gun_per="17:00-09:00"))
    assert res.status_code == 400
    html = res.content.decode()
    assert 'data-hata="calisma_saatleri"' in html and 'value="17:00-09:00"' in html
    musteri.refresh_from_db()
    assert (musteri.calisma_saatleri, musteri.kayitli_calisma_saatleri) == once


def test_the_api_turning_always_open_on_keeps_the_calendar_for_the_portal(musteri, sahip, sahip_kullanici, api):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, sahip_kullanici)}")
    yol = f"/api/v1/operator/tenants/{musteri.id}/ayarlar"
    assert api.put(yol, {"calisma_saatleri": HAFTA}, format="json").status_code == 200
    res = api.put(yol, {"calisma_saatleri": None}, format="json")
    assert res.status_code == 200 and res.json()["data"]["ayarlar"]["calisma_saatleri"] is None
    # the widget is open at any moment
    musteri.refresh_from_db()
    from tenants.ayarlar import mesai_verisi
    assert mesai_verisi(musteri)["acik"] is True
    html = sahip.get(URL).content.decode()
    assert 'name="her_zaman_acik" value="1" checked' in html and 'value="09:00-17:00"' in html
    # a calendar that never existed shows empty days, not an error
    yeni = Musteri.objects.create(firma_adi="Yeni")
    operator_yap(yeni, rol="sahip")
    assert yeni.kayitli_calisma_saatleri is None


@TARAYICI_ISARETLERI[0]
@TARAYICI_ISARETLERI[1]
@TARAYICI_ISARETLERI[2]
def test_in_chromium_the_days_survive_always_open(live_server, musteri):
    kullanici = operator_yap(musteri, rol="sahip")
    with chromium() as tarayici:
        context = tarayici.new_context(viewport={"width": 1280, "height": 900}, locale="tr-TR")
        context.set_default_timeout(10_000)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/portal/giris")
            page.fill("#id_email", kullanici.email)
            page.fill("#id_sifre", TEST_SIFRE)
            page.click("button[type=submit]")
            page.wait_for_url(f"{live_server.url}/portal/")
            page.goto(f"{live_server.url}{URL}")
            page.fill("#gun_pzt", "09:00-18:00")
            page.fill("#gun_cum", "10:00-12:00, 13:00-16:00")
            page.click("form[data-test=yonlendirme-formu] button[type=submit]")
            page.wait_for_url(f"{live_server.url}{URL}")
            page.check("input[name=her_zaman_acik]")
            page.click("form[data-test=yonlendirme-formu] button[type=submit]")
            page.wait_for_url(f"{live_server.url}{URL}")
            assert page.is_checked("input[name=her_zaman_acik]")
            assert page.input_value("#gun_pzt") == "09:00-18:00"
            page.uncheck("input[name=her_zaman_acik]")
            page.click("form[data-test=yonlendirme-formu] button[type=submit]")
            page.wait_for_url(f"{live_server.url}{URL}")
            assert not page.is_checked("input[name=her_zaman_acik]")
            assert page.input_value("#gun_cum") == "10:00-12:00, 13:00-16:00"
            musteri.refresh_from_db()
            assert musteri.calisma_saatleri["pzt"] == [["09:00", "18:00"]]
        finally:
            context.close()
