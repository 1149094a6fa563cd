"""The calendar (tenants/takvim.py, CONTRACT 15): pure tests, no database."""
import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from tenants.takvim import Takvim, calisma_saatleri_hatasi, saat_dilimi_hatasi, tatiller_hatasi

UTC = dt.UTC
BERLIN = ZoneInfo("Europe/Berlin")
NY = ZoneInfo("America/New_York")
IST = ZoneInfo("Europe/Istanbul")
HAFTA_ICI = {g: [["09:00", "17:00"]] for g in ("pzt", "sal", "car", "per", "cum")}


def yerel(bolge, *args):
    return dt.datetime(*args, tzinfo=bolge)


def test_null_hours_always_open_and_plain_arithmetic():
    t = Takvim("Europe/Istanbul", None, [])
    an = dt.datetime(2026, 1, 1, 3, tzinfo=UTC)
    assert t.acik_mi(an)
    assert t.sonraki_acilis(an) is None
    assert t.acilislar(an) == []
    assert t.vade(an, dt.timedelta(hours=30)) == an + dt.timedelta(hours=30)
    assert t.gecen(an, an + dt.timedelta(days=9)) == dt.timedelta(days=9)


def test_null_hours_are_closed_on_a_holiday():
    # CONTRACT 15: `acik` needs today (local) not in `tatiller` first, whatever the hours.
    t = Takvim("Europe/Istanbul", None, ["2026-01-01"])
    tatil = yerel(IST, 2026, 1, 1, 3)
    assert not t.acik_mi(tatil)
    assert t.acik_mi(yerel(IST, 2025, 12, 31, 23, 59)) and t.acik_mi(yerel(IST, 2026, 1, 2, 0))
    assert t.sonraki_acilis(tatil) == yerel(IST, 2026, 1, 2, 0).astimezone(UTC)
    # Service levels count no time on the holiday either.
    assert t.vade(tatil, dt.timedelta(hours=1)) == yerel(IST, 2026, 1, 2, 1).astimezone(UTC)
    assert t.gecen(yerel(IST, 2025, 12, 31, 12), yerel(IST, 2026, 1, 2, 12)) == dt.timedelta(hours=24)


def test_half_open_slots_and_several_slots_a_day():
    t = Takvim("Europe/Istanbul", {"pzt": [["09:00", "12:00"], ["13:00", "17:00"]]}, [])
    pzt = dt.date(2026, 11, 23)  # a Monday
    assert pzt.weekday() == 0
    assert not t.acik_mi(yerel(IST, 2026, 11, 23, 8, 59, 59))
    assert t.acik_mi(yerel(IST, 2026, 11, 23, 9))
    assert t.acik_mi(yerel(IST, 2026, 11, 23, 11, 59, 59))
    assert not t.acik_mi(yerel(IST, 2026, 11, 23, 12))  # the end is not inside
    assert t.acik_mi(yerel(IST, 2026, 11, 23, 13))
    assert not t.acik_mi(yerel(IST, 2026, 11, 23, 17))
    assert not t.acik_mi(yerel(IST, 2026, 11, 24, 10))  # a missing day is closed
    assert t.sonraki_acilis(yerel(IST, 2026, 11, 23, 12, 30)) == yerel(IST, 2026, 11, 23, 13).astimezone(UTC)
    assert t.sonraki_acilis(yerel(IST, 2026, 11, 23, 10)) is None  # open now
    # answers are UTC
    assert t.sonraki_acilis(yerel(IST, 2026, 11, 23, 12, 30)).tzinfo == UTC


def test_touching_slots_are_one_opening_and_24_00_ends_a_day():
    t = Takvim("Europe/Istanbul", {"pzt": [["09:00", "12:00"], ["12:00", "24:00"]], "sal": [["00:00", "01:00"]]}, [])
    assert t.acik_mi(yerel(IST, 2026, 11, 23, 23, 59, 59))
    assert t.acik_mi(yerel(IST, 2026, 11, 24, 0, 0))
    assert not t.acik_mi(yerel(IST, 2026, 11, 24, 1, 0))
    acilislar = t.acilislar(yerel(IST, 2026, 11, 23, 8), adet=3)
    assert acilislar[0] == (yerel(IST, 2026, 11, 23, 9).astimezone(UTC), yerel(IST, 2026, 11, 24, 1).astimezone(UTC))
    assert acilislar[1][0] == yerel(IST, 2026, 11, 30, 9).astimezone(UTC)


def test_a_slot_over_midnight_is_one_continuous_opening():
    t = Takvim("Europe/Istanbul", {"cum": [["22:00", "24:00"]], "cmt": [["00:00", "02:00"]]}, [])
    cuma_23 = yerel(IST, 2026, 11, 27, 23)  # Friday
    assert t.acik_mi(cuma_23) and t.acik_mi(yerel(IST, 2026, 11, 28, 1, 30))
    assert not t.acik_mi(yerel(IST, 2026, 11, 28, 2))
    # from inside, there is no "opening" at Saturday 00:00: the next is next Friday 22:00
    sonraki = (yerel(IST, 2026, 12, 4, 22).astimezone(UTC), yerel(IST, 2026, 12, 5, 2).astimezone(UTC))
    assert t.acilislar(cuma_23, adet=1) == [sonraki]
    assert t.sonraki_acilis(yerel(IST, 2026, 11, 27, 12)) == yerel(IST, 2026, 11, 27, 22).astimezone(UTC)
    # business time runs straight through midnight
    assert t.vade(cuma_23, dt.timedelta(hours=2)) == yerel(IST, 2026, 11, 28, 1).astimezone(UTC)
    assert t.gecen(yerel(IST, 2026, 11, 27, 0), yerel(IST, 2026, 11, 29, 0)) == dt.timedelta(hours=4)


def test_holidays_close_the_whole_local_day():
    t = Takvim("Europe/Berlin", HAFTA_ICI, ["2026-11-23"])
    assert not t.acik_mi(yerel(BERLIN, 2026, 11, 23, 10))
    assert t.sonraki_acilis(yerel(BERLIN, 2026, 11, 23, 10)) == yerel(BERLIN, 2026, 11, 24, 9).astimezone(UTC)
    assert t.acik_mi(yerel(BERLIN, 2026, 11, 24, 10))


def test_friday_afternoon_with_a_monday_holiday_is_due_tuesday():
    t = Takvim("Europe/Berlin", HAFTA_ICI, ["2026-11-30"])
    cuma = yerel(BERLIN, 2026, 11, 27, 16, 30)
    assert t.vade(cuma, dt.timedelta(hours=1)) == yerel(BERLIN, 2026, 12, 1, 9, 30).astimezone(UTC)
    assert t.gecen(cuma, yerel(BERLIN, 2026, 12, 1, 9, 30)) == dt.timedelta(hours=1)


def test_due_at_closing_and_start_outside_hours():
    t = Takvim("Europe/Berlin", HAFTA_ICI, [])
    assert t.vade(yerel(BERLIN, 2026, 11, 23, 16), dt.timedelta(hours=1)) == yerel(BERLIN, 2026, 11, 23, 17).astimezone(UTC)
    # a start at night counts from the next opening; zero time outside hours is that opening
    assert t.vade(yerel(BERLIN, 2026, 11, 23, 20), dt.timedelta(minutes=30)) == yerel(BERLIN, 2026, 11, 24, 9, 30).astimezone(UTC)
    assert t.vade(yerel(BERLIN, 2026, 11, 28, 12), dt.timedelta(0)) == yerel(BERLIN, 2026, 11, 30, 9).astimezone(UTC)
    assert t.gecen(yerel(BERLIN, 2026, 11, 23, 18), yerel(BERLIN, 2026, 11, 23, 10)) == dt.timedelta(0)


def test_a_target_longer_than_a_week():
    t = Takvim("Europe/Berlin", HAFTA_ICI, [])
    bas = yerel(BERLIN, 2026, 11, 23, 9)  # Monday
    # 60 business hours = 7.5 days of 8 hours: the second Wednesday, 13:00
    vade = t.vade(bas, dt.timedelta(hours=60))
    assert vade == yerel(BERLIN, 2026, 12, 2, 13).astimezone(UTC)
    assert t.gecen(bas, vade) == dt.timedelta(hours=60)
    assert t.gecen(bas, bas + dt.timedelta(days=28)) == dt.timedelta(hours=160)


def test_a_calendar_with_no_open_time_never_loops():
    for t in (Takvim("Europe/Berlin", {}, []), Takvim("Europe/Berlin", {"pzt": []}, [])):
        an = yerel(BERLIN, 2026, 11, 23, 10)
        assert not t.acik_mi(an)
        assert t.sonraki_acilis(an) is None
        assert t.vade(an, dt.timedelta(hours=1)) is None
        assert t.gecen(an, an + dt.timedelta(days=400)) == dt.timedelta(0)


def test_holidays_on_every_working_day_within_reach_answer_none():
    t = Takvim("Europe/Berlin", {"pzt": [["09:00", "10:00"]]}, [])
    an = yerel(BERLIN, 2026, 11, 24, 10)  # Tuesday
    assert t.sonraki_acilis(an, gun=5) is None
    assert t.sonraki_acilis(an, gun=6) == yerel(BERLIN, 2026, 11, 30, 9).astimezone(UTC)
    tatiller = [(dt.date(2026, 11, 30) + dt.timedelta(weeks=i)).isoformat() for i in range(3)]
    t = Takvim("Europe/Berlin", {"pzt": [["09:00", "10:00"]]}, tatiller)
    assert t.sonraki_acilis(an) is None  # within 14 days there is none
    assert t.vade(an, dt.timedelta(minutes=30)) == yerel(BERLIN, 2026, 12, 21, 9, 30).astimezone(UTC)


@pytest.mark.parametrize("bolge,ilkbahar,sonbahar", [
    ("Europe/Berlin", dt.date(2026, 3, 29), dt.date(2026, 10, 25)),
    ("America/New_York", dt.date(2026, 3, 8), dt.date(2026, 11, 1)),
])
def test_dst_changes(bolge, ilkbahar, sonbahar):
    z = ZoneInfo(bolge)
    hergun = {g: [["09:00", "17:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}
    t = Takvim(bolge, hergun, [])
    for gun in (ilkbahar, sonbahar):
        once = dt.datetime.combine(gun - dt.timedelta(days=1), dt.time(18), tzinfo=z)
        acilis = dt.datetime.combine(gun, dt.time(9), tzinfo=z).astimezone(UTC)
        assert t.sonraki_acilis(once) == acilis
        assert t.acik_mi(dt.datetime.combine(gun, dt.time(9), tzinfo=z))
        assert not t.acik_mi(dt.datetime.combine(gun, dt.time(8, 59), tzinfo=z))
        # the working day is 8 real hours on both change days
        assert t.gecen(once, once + dt.timedelta(days=1)) == dt.timedelta(hours=8)
        assert t.vade(once, dt.timedelta(hours=5)) == dt.datetime.combine(gun, dt.time(14), tzinfo=z).astimezone(UTC)
    # a slot through the skipped hour is an hour shorter, through the repeated hour one longer
    gece = {g: [["00:00", "06:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}
    t = Takvim(bolge, gece, [])
    gun_bas = lambda g: dt.datetime.combine(g, dt.time(0), tzinfo=z)  # noqa: E731
    assert t.gecen(gun_bas(ilkbahar), gun_bas(ilkbahar + dt.timedelta(days=1))) == dt.timedelta(hours=5)
    assert t.gecen(gun_bas(sonbahar), gun_bas(sonbahar + dt.timedelta(days=1))) == dt.timedelta(hours=7)


def test_a_slot_starting_in_the_skipped_hour_opens_at_the_change():
    t = Takvim("Europe/Berlin", {"paz": [["02:30", "05:00"]]}, [])
    # 2026-03-29: 02:00 CET -> 03:00 CEST at 01:00 UTC
    assert t.sonraki_acilis(dt.datetime(2026, 3, 28, 12, tzinfo=UTC)) == dt.datetime(2026, 3, 29, 1, tzinfo=UTC)
    assert t.acik_mi(dt.datetime(2026, 3, 29, 1, 0, tzinfo=UTC))
    assert not t.acik_mi(dt.datetime(2026, 3, 29, 0, 59, tzinfo=UTC))
    assert t.gecen(dt.datetime(2026, 3, 29, 0, tzinfo=UTC), dt.datetime(2026, 3, 29, 6, tzinfo=UTC)) == dt.timedelta(hours=2)


def test_invalid_stored_settings_read_as_defaults_field_by_field():
    t = Takvim("Mars/Olympus", {"pzt": [["09:00", "08:00"]]}, ["2026-02-30"])
    assert t.saat_dilimi == "Europe/Istanbul" and t.her_zaman_acik and t.tatiller == frozenset()
    t = Takvim("Europe/Berlin", HAFTA_ICI, "bozuk")
    assert t.saat_dilimi == "Europe/Berlin" and not t.her_zaman_acik
    t = Takvim(None, {"xyz": []}, None)
    assert t.her_zaman_acik and t.acik_mi(dt.datetime(2026, 1, 1, tzinfo=UTC))


def test_musteriden_reads_the_tenant_fields():
    class M:
        saat_dilimi = "America/New_York"
        calisma_saatleri = HAFTA_ICI
        tatiller = ["2026-11-26"]
    t = Takvim.musteriden(M())
    assert not t.acik_mi(yerel(NY, 2026, 11, 26, 10))
    assert t.acik_mi(yerel(NY, 2026, 11, 27, 10))


@pytest.mark.parametrize("deger,gecerli", [
    (None, True), ({}, True), ({"pzt": []}, True), ({"pzt": [["00:00", "24:00"]]}, True),
    ({"pzt": [["09:00", "12:00"], ["12:00", "13:00"]]}, True),
    ({"pzt": [["09:00", "12:00"], ["11:59", "13:00"]]}, False),
    ({"mon": []}, False), ({"pzt": [["9:00", "12:00"]]}, False), ({"pzt": [["09:00", "24:01"]]}, False),
    ({"pzt": [["24:00", "24:00"]]}, False), ({"pzt": [["12:00", "12:00"]]}, False),
    ({"pzt": [["09:00"]]}, False), ({"pzt": "09:00-17:00"}, False), ([], False), ({"pzt": [[9, 17]]}, False),
])
def test_hours_check(deger, gecerli):
    assert (calisma_saatleri_hatasi(deger) is None) is gecerli


def test_zone_and_holiday_checks():
    assert saat_dilimi_hatasi("Pacific/Auckland") is None
    assert saat_dilimi_hatasi("Pacific/Nowhere") and saat_dilimi_hatasi(3)
    assert tatiller_hatasi(["2026-12-31"]) is None
    assert tatiller_hatasi(["2026-13-01"]) and tatiller_hatasi(["31.12.2026"]) and tatiller_hatasi("2026-12-31")
