"""CONTRACT 6 banner rules, by table: the pure function, no database, a fixed 'today'."""
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from context.banner import banner_olustur, sayi_yaz

BUGUN = date(2026, 11, 22)


def banner(paket=None, kontor=None, **ekstra):
    return banner_olustur(paket=paket, kontor=kontor, ekstra=ekstra, bugun=BUGUN)


def tek(items, tip):
    found = [i for i in items if i["tip"] == tip]
    assert len(found) == 1, items
    assert set(found[0]) == {"tip", "icon", "label", "deger", "kritik"}
    return found[0]


def test_nothing_present_gives_no_items():
    assert banner() == []
    assert banner_olustur(paket="", kontor=None, ekstra=None, bugun=BUGUN) == []


def test_order_paket_kontor_trial_depolama():
    items = banner("Pro", 10, trial_kalan_gun=9, depolama_kullanilan_gb=1, depolama_toplam_gb=10)
    assert [i["tip"] for i in items] == ["paket", "kontor", "trial", "depolama"]
    assert tek(items, "paket") == {"tip": "paket", "icon": "📦", "label": "Paket", "deger": "Pro", "kritik": False}


@pytest.mark.parametrize(("kontor", "deger", "kritik"), [
    (120, "120", False), (12.5, "12.5", False), (1.0, "1", False), (0, "0", True), (0.0, "0", True), (-3, "-3", True),
    (0.00001, "0.00001", False), (0.1 + 0.2, "0.3", False),
])
def test_kontor(kontor, deger, kritik):
    item = tek(banner(kontor=kontor), "kontor")
    assert (item["deger"], item["kritik"]) == (deger, kritik)


@pytest.mark.parametrize(("gun", "deger", "kritik"), [
    (4, "4 gün kaldı", False), (3, "3 gün kaldı", True), (0, "0 gün kaldı", True), (-1, "Süresi doldu", True),
    (30, "30 gün kaldı", False),
])
def test_trial_from_end_date_and_from_days_left(gun, deger, kritik):
    bitis = (BUGUN + timedelta(days=gun)).isoformat()
    for ekstra in ({"trial_bitis": bitis}, {"trial_kalan_gun": gun}):
        item = tek(banner(**ekstra), "trial")
        assert (item["deger"], item["kritik"]) == (deger, kritik), ekstra


def test_trial_datetime_counts_calendar_days_in_the_server_zone(settings):
    settings.TIME_ZONE = "Europe/Istanbul"
    # 23:30 UTC on the 25th is already the 26th in Istanbul: 4 days, not 3.
    bitis = datetime(2026, 11, 25, 23, 30, tzinfo=ZoneInfo("UTC")).isoformat()
    assert tek(banner(trial_bitis=bitis), "trial")["deger"] == "4 gün kaldı"
    assert tek(banner(trial_bitis="2026-11-25T08:00:00"), "trial")["deger"] == "3 gün kaldı"


def test_trial_end_date_wins_over_days_left():
    items = banner(trial_bitis=(BUGUN + timedelta(days=10)).isoformat(), trial_kalan_gun=1)
    assert tek(items, "trial")["deger"] == "10 gün kaldı"


@pytest.mark.parametrize(("kullanilan", "toplam", "deger", "kritik", "icon"), [
    (45.5, 50, "45.5 / 50 GB (%91)", True, "⚠️"),
    (44.9, 50, "44.9 / 50 GB (%89)", False, "💾"),
    (45, 50, "45 / 50 GB (%90)", True, "⚠️"),
    (45.0, 50.0, "45 / 50 GB (%90)", True, "⚠️"),
    (0, 50, "0 / 50 GB (%0)", False, "💾"),
    (0.29, 1, "0.29 / 1 GB (%29)", False, "💾"),
    (60, 50, "60 / 50 GB (%120)", True, "⚠️"),
    (5, 0, "5 / 0 GB", False, "💾"),
    (0, 0, "0 / 0 GB", False, "💾"),
    (0.00001, 10, "0.00001 / 10 GB (%0)", False, "💾"),  # a small size is shown, not rounded to 0
    (1e-9, 1e-9, "0.000000001 / 0.000000001 GB (%100)", True, "⚠️"),
])
def test_storage_form_a(kullanilan, toplam, deger, kritik, icon):
    item = tek(banner(depolama_kullanilan_gb=kullanilan, depolama_toplam_gb=toplam), "depolama")
    assert item == {"tip": "depolama", "icon": icon, "label": "Depolama", "deger": deger, "kritik": kritik}


@pytest.mark.parametrize(("ekstra", "deger", "kritik"), [
    ({"depolama_kullanim": "12 GB / 20 GB", "depolama_kritik": True}, "12 GB / 20 GB", True),
    ({"depolama_kullanim": "19 GB / 20 GB", "depolama_kritik": False, "depolama_dolu_yuzde": 95}, "19 GB / 20 GB", False),
    ({"depolama_kullanim": "19 GB / 20 GB", "depolama_dolu_yuzde": 95}, "19 GB / 20 GB", True),
    ({"depolama_kullanim": "18 GB / 20 GB", "depolama_dolu_yuzde": 89.9}, "18 GB / 20 GB", False),
    ({"depolama_kullanim": "az"}, "az", False),
    ({"depolama_dolu_yuzde": 92.5}, "%92", True),
])
def test_storage_form_b(ekstra, deger, kritik):
    item = tek(banner(**ekstra), "depolama")
    assert (item["deger"], item["kritik"], item["icon"]) == (deger, kritik, "⚠️" if kritik else "💾")


def test_form_a_wins_when_both_forms_are_present():
    items = banner(depolama_kullanilan_gb=10, depolama_toplam_gb=50, depolama_kullanim="49 / 50", depolama_kritik=True)
    item = tek(items, "depolama")
    assert (item["deger"], item["kritik"]) == ("10 / 50 GB (%20)", False)


@pytest.mark.parametrize("ekstra", [
    {"depolama_kullanilan_gb": 10},  # half of Form A is no Form A
    {"depolama_toplam_gb": 10},
    {"depolama_kritik": True},
    {"son_yedek": "2 saat önce"},
    {"trial_bitis": None, "trial_kalan_gun": None},
    {"baska": 1},
])
def test_missing_fields_give_no_item(ekstra):
    assert banner(**ekstra) == []


@pytest.mark.parametrize(("value", "text"), [(45.5, "45.5"), (50, "50"), (50.0, "50"), (0.1 + 0.2, "0.3"), (1e6, "1000000"),
                                             (-0.0, "0"), (2.125, "2.125"), (1e15, "1000000000000000"),
                                             (0.00001, "0.00001"), (0.00005, "0.00005"), (-0.0000001, "-0.0000001"),
                                             (1 / 3, "0.3333333333"), (1e-300, "0"), (12345678901234, "12345678901234")])
def test_numbers_without_trailing_zeros(value, text):
    assert sayi_yaz(value) == text
