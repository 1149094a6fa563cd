"""`/portal/kurallar` (CONTRACT 23): list, create and edit through the services' checks, delete, a
rule's runs, and the read-only preview over the latest chats and tickets; and in Chromium."""
import json

import pytest

from chat.models import Mesaj, Oturum
from otomasyon.models import Kural, KuralCalismasi
from portal.tests.yardimci import giris_yapmis
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium
from tickets.models import Ticket

from .yardimci import etiket

URL = "/portal/kurallar"


def _sohbet(musteri, ziyaretci_id: str, metin: str) -> Oturum:
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id=ziyaretci_id, son_mesaj=metin)
    Mesaj.objects.create(musteri=musteri, oturum=oturum, gonderen="ziyaretci", icerik=metin)
    return oturum


def _form(**alanlar) -> dict:
    return {"ad": "Fatura", "olay": "chat_baslatildi", "aktif": "on", "sira": "1",
            "kosullar": json.dumps([{"alan": "metin", "islem": "icerir", "deger": "fatura"}]),
            "eylemler": json.dumps([{"tur": "kapat"}]), **alanlar}


@pytest.mark.django_db
def test_an_owner_creates_edits_and_deletes_a_rule_and_a_bad_one_is_shown_in_the_form(musteri, diger_musteri):
    t = giris_yapmis(operator_yap(musteri, rol="sahip"))
    yabanci = etiket(diger_musteri, "Yabancı")
    res = t.post(URL, _form(eylemler=json.dumps([{"tur": "etiket_ekle", "etiket_id": yabanci.id}])))
    assert res.status_code == 400 and "eylemler.0.etiket_id" in res.content.decode()
    res = t.post(URL, _form(kosullar="[bozuk"))
    assert res.status_code == 400 and not Kural.objects.exists()
    assert t.post(URL, _form()).status_code == 302
    kural = Kural.objects.get()
    assert (kural.ad, kural.olay, kural.sira, kural.eylemler) == ("Fatura", "chat_baslatildi", 1, [{"tur": "kapat"}])
    assert "Fatura" in t.get(URL).content.decode()
    assert t.post(f"{URL}/{kural.id}", _form(ad="Fatura 2", aktif="")).status_code == 302
    kural.refresh_from_db()
    assert (kural.ad, kural.aktif) == ("Fatura 2", False)
    KuralCalismasi.objects.create(kural=kural, hedef="chat:7", sonuc="kosul_tutmadi")
    assert "chat:7" in t.get(f"{URL}/{kural.id}").content.decode()
    assert t.post(f"{URL}/{kural.id}", {"islem": "sil"}).status_code == 302
    assert not Kural.objects.exists()


@pytest.mark.django_db
def test_the_preview_lists_what_the_conditions_match_and_runs_nothing(musteri, diger_musteri):
    t = giris_yapmis(operator_yap(musteri))  # a plain member may preview, not save
    eslesen = _sohbet(musteri, "z1", "Faturamı göremiyorum")
    _sohbet(musteri, "z2", "Merhaba")
    _sohbet(diger_musteri, "z3", "fatura")  # another tenant's: never
    Ticket.objects.create(musteri=musteri, ziyaretci_id="z4", konu="FATURA itirazı")
    res = t.post(URL, _form(islem="onizle", kosullar=json.dumps([{"alan": "metin", "islem": "icerir", "deger": "FATURA"}])))
    html = res.content.decode()
    blok = html[html.index('data-test="onizleme-sonuclari"'):]
    assert f"#{eslesen.id}" in blok and "z2" not in blok and "z3" not in blok and "itirazı" not in blok
    res = t.post(URL, _form(islem="onizle", olay="ticket_olusturuldu"))
    assert "FATURA itirazı" in res.content.decode()
    assert not Kural.objects.exists() and not KuralCalismasi.objects.exists()
    assert Oturum.objects.get(pk=eslesen.pk).durum == "bekliyor"
    assert t.post(URL, _form()).status_code == 403 and not Kural.objects.exists()


@TARAYICI_ISARETLERI[0]
@TARAYICI_ISARETLERI[1]
@TARAYICI_ISARETLERI[2]
def test_in_chromium_an_owner_previews_then_saves_a_rule(live_server, musteri):
    user = operator_yap(musteri, rol="sahip")
    _sohbet(musteri, "z1", "İADE istiyorum")
    _sohbet(musteri, "z2", "Merhaba")
    with chromium() as tarayici:
        context = tarayici.new_context(locale="tr-TR")
        context.set_default_timeout(10_000)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/portal/giris")
            page.fill("#id_email", user.email)
            page.fill("#id_sifre", TEST_SIFRE)
            page.click("button[type=submit]")
            page.wait_for_url(f"{live_server.url}/portal/")
            page.click("nav.sekmeler a[href='/portal/kurallar']")
            page.wait_for_url(f"{live_server.url}{URL}")
            page.fill("input[name=ad]", "İade")
            page.fill("textarea[name=kosullar]", '[{"alan": "metin", "islem": "icerir", "deger": "iade"}]')
            page.fill("textarea[name=eylemler]", '[{"tur": "not", "icerik": "İade ekibine"}]')
            page.click("[data-test=onizle]")
            sonuc = page.locator("[data-test=onizleme-sonuclari] li")
            sonuc.first.wait_for()
            assert sonuc.count() == 1 and "z1" in sonuc.first.inner_text()
            assert page.input_value("input[name=ad]") == "İade"  # the form keeps what was typed
            page.click("[data-test=kaydet]")
            page.wait_for_url(f"{live_server.url}{URL}")
            page.locator("[data-test=kurallar] td", has_text="İade").wait_for()
            assert Kural.objects.get(musteri=musteri).eylemler == [{"tur": "not", "icerik": "İade ekibine"}]
        finally:
            context.close()
