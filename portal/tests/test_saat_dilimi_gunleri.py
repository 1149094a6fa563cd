"""Days are the tenant's days (CONTRACT 15 `saat_dilimi`): reports and their CSV, trial days left,
"today" counts of the portal and the console, for a tenant far from the server's zone
(Pacific/Auckland, +13 in November) around its midnight."""
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from chat.models import Oturum
from portal.tests.yardimci import giris_yapmis
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.models import Musteri

pytestmark = pytest.mark.django_db
NZ = ZoneInfo("Pacific/Auckland")


@pytest.fixture
def nz(musteri) -> Musteri:
    musteri.saat_dilimi = "Pacific/Auckland"
    musteri.save()
    return musteri


def _sohbet(musteri, ziyaretci, baslangic, **alanlar):
    return Oturum.objects.create(musteri=musteri, ziyaretci_id=ziyaretci, baslangic=baslangic, **alanlar)


def _nz_bugun_baslangici():
    return timezone.now().astimezone(NZ).replace(hour=0, minute=0, second=0, microsecond=0)


def test_report_and_csv_count_the_tenants_days(nz):
    # 2026-11-20 10:30 UTC is 23:30 of the 20th in Auckland; 11:30 UTC is 00:30 of the 21st
    _sohbet(nz, "a", dt.datetime(2026, 11, 20, 10, 30, tzinfo=dt.UTC), durum="kapandi")
    _sohbet(nz, "b", dt.datetime(2026, 11, 20, 11, 30, tzinfo=dt.UTC), durum="kapandi")
    sahip = giris_yapmis(operator_yap(nz, rol="sahip"))
    csv = sahip.get("/portal/raporlar", {"bas": "2026-11-21", "son": "2026-11-21", "bicim": "csv"}).content.decode()
    assert "ozet,sohbet,1" in csv and "gun,2026-11-21,1" in csv, csv
    csv = sahip.get("/portal/raporlar", {"bas": "2026-11-20", "son": "2026-11-21", "bicim": "csv"}).content.decode()
    assert "gun,2026-11-20,1" in csv and "gun,2026-11-21,1" in csv, csv
    res = sahip.get("/portal/raporlar", {"bas": "2026-11-21", "son": "2026-11-21"})
    assert res.status_code == 200 and res.context["r"]["ozet"]["toplam"] == 1


def test_the_report_pages_default_range_ends_today_in_the_tenants_zone(nz):
    sahip = giris_yapmis(operator_yap(nz, rol="sahip"))
    res = sahip.get("/portal/raporlar")
    assert res.context["son"] == timezone.now().astimezone(NZ).date()


def test_today_counts_start_at_the_tenants_midnight(nz, api):
    gece_yarisi = _nz_bugun_baslangici()
    if timezone.now() - gece_yarisi < dt.timedelta(seconds=5):
        pytest.skip("too close to Auckland's midnight")
    bugun = gece_yarisi + dt.timedelta(seconds=1)
    dun = gece_yarisi - dt.timedelta(seconds=1)
    _sohbet(nz, "bugun", bugun, durum="kapandi", bitis_zamani=bugun)
    _sohbet(nz, "dun", dun, durum="kapandi", bitis_zamani=dun)
    sahip_kullanici = operator_yap(nz, rol="sahip")
    sahip = giris_yapmis(sahip_kullanici)
    assert sahip.get("/portal/").context["bugunku_sohbet"] == 1
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, sahip_kullanici)}")
    [satir] = api.get("/api/v1/operator/dashboard").json()["data"]["musteriler"]
    assert satir["bugun_kapanan_chat"] == 1


def test_trial_days_left_are_the_tenants_days(nz):
    gece_yarisi = _nz_bugun_baslangici()
    nz.trial_bitis = gece_yarisi + dt.timedelta(days=1, minutes=30)  # tomorrow 00:30 in Auckland
    nz.save()
    sahip = giris_yapmis(operator_yap(nz, rol="sahip"))
    res = sahip.get("/portal/")
    assert res.context["trial_kalan"] == 1
    yarin = (gece_yarisi + dt.timedelta(days=1, hours=12)).date()
    assert f"{yarin.day} " in res.content.decode()  # the end date as the tenant's calendar reads it
