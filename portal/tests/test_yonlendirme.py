"""`/portal/yonlendirme` (CONTRACT 15, 21): the settings form, its errors by field, the openings preview."""
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from portal.tests.yardimci import giris_yapmis
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Musteri

pytestmark = pytest.mark.django_db
URL = "/portal/yonlendirme"
GUNLER = ("pzt", "sal", "car", "per", "cum", "cmt", "paz")


def gecerli(**degisen) -> dict:
    form = {"saat_dilimi": "Europe/Berlin", "atama_modu": "sirayla", "tatiller": "2026-12-25\n2026-12-26",
            "mesai_disi_mesaji": "Yarın 09:00'da buradayız.", "bekleme_zaman_asimi_dk": "15",
            "sessiz_kapatma_dk": "", "yeniden_atama_dk": "5", "dil": "en",
            **{f"gun_{g}": "" for g in GUNLER}, "gun_pzt": "09:00-12:00, 13:00-17:00", "gun_cum": "22:00-24:00",
            "gun_cmt": "00:00-02:00"}
    form.update(degisen)
    return {k: v for k, v in form.items() if v is not None}


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def test_the_page_shows_every_field_with_the_defaults_and_is_in_the_navigation(sahip):
    res = sahip.get(URL)
    html = res.content.decode()
    assert res.status_code == 200
    assert 'href="/portal/yonlendirme"' in html
    for alan in ("saat_dilimi", "atama_modu", "her_zaman_acik", "tatiller", "mesai_disi_mesaji", "bekleme_zaman_asimi_dk",
                 "sessiz_kapatma_dk", "yeniden_atama_dk", "dil", *(f"gun_{g}" for g in GUNLER)):
        assert f'name="{alan}"' in html, alan
    assert '<option value="Europe/Istanbul" selected>' in html
    assert 'name="her_zaman_acik" value="1" checked' in html
    assert "Her zaman açık." in html


def test_owner_saves_and_the_api_reads_the_same(musteri, sahip):
    res = sahip.post(URL, gecerli())
    assert res.status_code == 302, res.content.decode()[:3000]
    musteri.refresh_from_db()
    assert musteri.saat_dilimi == "Europe/Berlin" and musteri.atama_modu == "sirayla"
    assert musteri.calisma_saatleri == {"pzt": [["09:00", "12:00"], ["13:00", "17:00"]], "sal": [], "car": [],
                                        "per": [], "cum": [["22:00", "24:00"]], "cmt": [["00:00", "02:00"]], "paz": []}
    assert musteri.tatiller == ["2026-12-25", "2026-12-26"]
    assert (musteri.bekleme_zaman_asimi_dk, musteri.sessiz_kapatma_dk, musteri.yeniden_atama_dk,
            musteri.saklama_gun, musteri.dil) == (15, None, 5, None, "en")
    html = sahip.get(URL).content.decode()
    assert 'value="09:00-12:00, 13:00-17:00"' in html and "2026-12-25\n2026-12-26" in html
    # the preview: the next openings, in the tenant's zone, an opening over midnight as one
    assert html.count('data-test="acilis"') == 5
    assert "22:00 – Cmt" in html
    # "always open" again
    assert sahip.post(URL, gecerli(her_zaman_acik="1")).status_code == 302
    musteri.refresh_from_db()
    assert musteri.calisma_saatleri is None


@pytest.mark.parametrize("degisen,alan", [
    ({"saat_dilimi": "Mars/Olympus"}, "saat_dilimi"),
    ({"atama_modu": "rastgele"}, "atama_modu"),
    ({"gun_sal": "9-17"}, "calisma_saatleri"),
    ({"gun_sal": "17:00-09:00"}, "calisma_saatleri"),
    ({"gun_sal": "09:00-13:00, 12:00-17:00"}, "calisma_saatleri"),
    ({"gun_sal": "sabah"}, "calisma_saatleri"),
    ({"tatiller": "2026-02-30"}, "tatiller"),
    ({"mesai_disi_mesaji": "x" * 501}, "mesai_disi_mesaji"),
    ({"bekleme_zaman_asimi_dk": ""}, "bekleme_zaman_asimi_dk"),
    ({"bekleme_zaman_asimi_dk": "on"}, "bekleme_zaman_asimi_dk"),
    ({"sessiz_kapatma_dk": "4"}, "sessiz_kapatma_dk"),
    ({"yeniden_atama_dk": "241"}, "yeniden_atama_dk"),
    ({"dil": "de"}, "dil"),
])
def test_a_bad_value_is_shown_by_its_field_and_nothing_changes(musteri, sahip, degisen, alan):
    res = sahip.post(URL, gecerli(**degisen))
    html = res.content.decode()
    assert res.status_code == 400, html[:2000]
    assert f'data-hata="{alan}"' in html
    assert html.count('class="alan-hata"') == 1
    # what was typed stays in the form (a choice list shows its own options)
    yazilan = next(iter(degisen.values()))
    assert alan in ("atama_modu", "dil") or yazilan[:20] in html
    assert Musteri.objects.get(pk=musteri.pk).saat_dilimi == "Europe/Istanbul"
    assert Musteri.objects.get(pk=musteri.pk).atama_modu == "manuel"


def test_operator_reads_but_may_not_save(musteri):
    t = giris_yapmis(operator_yap(musteri))
    res = t.get(URL)
    assert res.status_code == 200 and "<fieldset disabled>" in res.content.decode()
    assert t.post(URL, gecerli()).status_code == 403
    assert Musteri.objects.get(pk=musteri.pk).atama_modu == "manuel"


def test_yonetici_may_save(musteri):
    t = giris_yapmis(operator_yap(musteri, rol="yonetici"))
    assert t.post(URL, gecerli()).status_code == 302
    assert Musteri.objects.get(pk=musteri.pk).atama_modu == "sirayla"


def test_the_preview_is_in_the_tenants_zone(musteri, sahip):
    musteri.saat_dilimi = "Pacific/Auckland"
    musteri.calisma_saatleri = {g: [["09:00", "10:00"]] for g in GUNLER}
    musteri.save()
    html = sahip.get(URL).content.decode()
    z = ZoneInfo("Pacific/Auckland")
    simdi = timezone.now().astimezone(z)
    gun = simdi.date() if simdi.time() < dt.time(9) else simdi.date() + dt.timedelta(days=1)
    assert f"{gun:%d.%m.%Y} 09:00 – 10:00" in html
    assert "(Pacific/Auckland)" in html


def test_always_open_names_the_coming_holidays_that_close_it(musteri, sahip):
    # CONTRACT 15: a holiday closes an always-open tenant too; the preview said only "Her zaman açık."
    bugun = timezone.now().astimezone(ZoneInfo("Europe/Istanbul")).date()
    yakin, uzak = bugun + dt.timedelta(days=3), bugun + dt.timedelta(days=60)
    Musteri.objects.filter(pk=musteri.pk).update(calisma_saatleri=None, tatiller=[yakin.isoformat(), uzak.isoformat()])
    html = sahip.get(URL).content.decode()
    assert "Her zaman açık; şu tatillerde bütün gün kapalı:" in html
    satir = html.split('data-test="her-zaman-acik"')[1].split("</p>")[0].split("kapalı:")[1]
    assert f" {yakin.day} " in satir and "," not in satir  # the near one only, not the one in 60 days
    Musteri.objects.filter(pk=musteri.pk).update(tatiller=[uzak.isoformat()])  # none in the next 4 weeks
    assert "Her zaman açık." in sahip.get(URL).content.decode()
