"""Issue 24 (found by an outside tester): a stored date or size must never break the operator's
context. Refused at customer-info (400), and a value already stored only loses its banner item."""
import json

import pytest

from context.models import Ziyaretci
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.tests.test_auth import hata

from .test_operator_context import oturum, url
from .yardimci import CUSTOMER_INFO, durum, ok

pytestmark = pytest.mark.django_db


def gonder(client, govde: dict):
    # By hand: 5e-324 must reach the server as written.
    return client.generic("POST", CUSTOMER_INFO, json.dumps({"ziyaretci_id": "z-1", **govde}),
                          content_type="application/json")


def banner(musteri) -> list[dict]:
    return ok(oturum(operator_yap(musteri)).get(url("z-1")))["data"]["banner"]


def sakla(musteri, **alanlar) -> None:
    """A value stored before the checks below existed (or by another path): straight to the row."""
    ok(gonder(widget_client(musteri), {"paket": "Pro", "kontor": 5}))
    Ziyaretci.objects.filter(musteri=musteri, ziyaretci_id="z-1").update(**alanlar)


# --- 3. dates beyond what Python can move between zones -------------------------------------

@pytest.mark.parametrize("bitis", [
    "9999-12-31T23:59:59-23:59",  # past datetime.max once in UTC
    "0001-01-01T00:00:00+23:59",  # before datetime.min once in UTC
    "9999-12-31T23:59:59+00:00",  # fine in UTC, past datetime.max in any zone east of it
    "0001-01-01T00:00:00Z",
])
def test_a_trial_end_no_zone_can_hold_is_a_400(widget, musteri, bitis):
    body = hata(gonder(widget, {"ekstra": {"trial_bitis": bitis}}), 400, "GECERSIZ_ISTEK")
    assert "ekstra.trial_bitis" in body["hata"]["alanlar"], body
    assert durum(musteri) == [[], 0, 0, 0]


@pytest.mark.parametrize("zaman_dilimi", ["UTC", "Europe/Istanbul", "Pacific/Kiritimati", "Etc/GMT+12"])
@pytest.mark.parametrize("bitis", ["9999-12-31", "9999-12-31T23:59:59", "9999-12-30T23:59:59+00:00",
                                   "0001-01-02T00:00:00+00:00", "0001-01-01"])
def test_far_trial_ends_that_fit_are_stored_and_shown(settings, widget, musteri, zaman_dilimi, bitis):
    settings.TIME_ZONE = zaman_dilimi
    ok(gonder(widget, {"ekstra": {"trial_bitis": bitis}}))
    (item,) = banner(musteri)
    assert item["tip"] == "trial"
    assert item["deger"] == "Süresi doldu" if bitis.startswith("0001") else item["deger"].endswith(" gün kaldı")


@pytest.mark.parametrize("zaman_dilimi, bitis, okunur", [
    ("UTC", "9999-12-31T23:59:59-23:59", False),
    ("UTC", "0001-01-01T00:00:00+23:59", False),
    ("UTC", "9999-12-31T23:59:59Z", True),
    ("Europe/Istanbul", "9999-12-31T23:59:59Z", False),
    ("Europe/Istanbul", "9999-12-31T23:59:59-23:59", False),
])
def test_a_stored_date_that_cannot_be_read_only_loses_its_item(musteri, zaman_dilimi, bitis, okunur):
    # the banner's days are the tenant's (CONTRACT 15 `saat_dilimi`), not the server's
    musteri.saat_dilimi = zaman_dilimi
    musteri.save()
    sakla(musteri, ekstra={"trial_bitis": bitis, "depolama_kullanilan_gb": 1, "depolama_toplam_gb": 2})
    ogeler = banner(musteri)  # was a 500 (OverflowError) on every read
    assert [i["tip"] for i in ogeler] == ["paket", "kontor", *(["trial"] if okunur else []), "depolama"]
    assert ogeler[-1]["deger"] == "1 / 2 GB (%50)"


# --- 4. sizes whose percent has hundreds of digits ------------------------------------------

@pytest.mark.parametrize("ekstra, alan", [
    ({"depolama_kullanilan_gb": 1, "depolama_toplam_gb": 5e-324}, "ekstra.depolama_toplam_gb"),
    ({"depolama_kullanilan_gb": 1, "depolama_toplam_gb": 1e-10}, "ekstra.depolama_toplam_gb"),
    ({"depolama_kullanilan_gb": 5e-324, "depolama_toplam_gb": 1}, "ekstra.depolama_kullanilan_gb"),
])
def test_a_storage_size_below_a_byte_is_a_400(widget, musteri, ekstra, alan):
    body = hata(gonder(widget, {"ekstra": ekstra}), 400, "GECERSIZ_ISTEK")
    assert alan in body["hata"]["alanlar"], body
    assert durum(musteri) == [[], 0, 0, 0]


@pytest.mark.parametrize("ekstra, deger, kritik", [
    ({"depolama_kullanilan_gb": 0, "depolama_toplam_gb": 0}, "0 / 0 GB", False),
    ({"depolama_kullanilan_gb": 1e-9, "depolama_toplam_gb": 1e-9}, "0.000000001 / 0.000000001 GB (%100)", True),
    ({"depolama_kullanilan_gb": 9.99, "depolama_toplam_gb": 1}, "9.99 / 1 GB (%999)", True),
    ({"depolama_kullanilan_gb": 10, "depolama_toplam_gb": 1}, "10 / 1 GB (%999+)", True),
    ({"depolama_kullanilan_gb": 1e15, "depolama_toplam_gb": 1e-9}, "1000000000000000 / 0.000000001 GB (%999+)", True),
    ({"depolama_dolu_yuzde": 1e15}, "%999+", True),
    ({"depolama_dolu_yuzde": 999.9}, "%999", True),
])
def test_the_percent_is_written_readably(widget, musteri, ekstra, deger, kritik):
    ok(gonder(widget, {"ekstra": ekstra}))
    (item,) = banner(musteri)
    assert (item["tip"], item["deger"], item["kritik"]) == ("depolama", deger, kritik)


def test_a_tiny_total_already_stored_reads_readably(musteri):
    sakla(musteri, ekstra={"depolama_kullanilan_gb": 1, "depolama_toplam_gb": 5e-324})
    item = banner(musteri)[-1]
    assert item["tip"] == "depolama" and item["kritik"] is True
    assert item["deger"] == "1 / 0 GB (%999+)"
