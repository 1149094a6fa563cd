"""CONTRACT 23 runs stay bounded: the daily task keeps a rule's newest 100 runs (all the API
shows) and, for a tenant with `saklama_gun`, none older than that (CONTRACT 18)."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from otomasyon.models import KuralCalismasi
from otomasyon.tasks import calismalari_buda
from supportdesk.celery import app
from supportdesk.testing.factories import MusteriFactory

from .yardimci import START, istemci, kural_yaz, ok, operator_yap, widget_client

pytestmark = pytest.mark.django_db


def _calismalar(client, kural) -> list[dict]:
    return ok(client.get(f"/api/v1/operator/kurallar/{kural['id']}/calismalar"))["calismalar"]


def _eski_calismalar(kural, adet: int, *, gun: int) -> None:
    # Runs recorded long ago (a rule that has run for months): written as the engine writes them.
    zaman = timezone.now() - timedelta(days=gun)
    KuralCalismasi.objects.bulk_create([KuralCalismasi(kural_id=kural["id"], hedef=f"chat:{i}", zaman=zaman,
                                                       sonuc="kosul_tutmadi") for i in range(adet)])


def test_a_rule_keeps_its_newest_100_runs_and_none_past_the_tenants_retention(musteri):
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    kural = kural_yaz(yc, musteri.id, olay="chat_baslatildi", eylemler=[{"tur": "kapat"}])
    _eski_calismalar(kural, 150, gun=2)
    widget = widget_client(musteri)
    for i in range(3):  # three runs through the service, newer than the rest
        ok(widget.post(START, {"ziyaretci_id": f"z{i}"}, format="json"), 201)
    newest = _calismalar(yc, kural)
    assert len(newest) == 100 and KuralCalismasi.objects.count() == 153

    assert calismalari_buda.apply().get() == 53
    assert _calismalar(yc, kural) == newest  # what the API shows is what is kept
    assert KuralCalismasi.objects.count() == 100
    assert calismalari_buda.apply().get() == 0  # idempotent

    # A tenant with a retention of 30 days: its runs older than that go, even among the newest 100;
    # another tenant's, as old, stay (it keeps no retention).
    diger = MusteriFactory(firma_adi="B")
    dc = istemci(operator_yap(diger, rol="yonetici"))
    diger_kural = kural_yaz(dc, diger.id, olay="chat_baslatildi", eylemler=[{"tur": "kapat"}])
    _eski_calismalar(diger_kural, 5, gun=40)
    musteri.saklama_gun = 30
    musteri.save(update_fields=["saklama_gun"])
    _eski_calismalar(kural, 5, gun=40)
    assert calismalari_buda.apply().get() == 5
    assert [c["hedef"] for c in _calismalar(yc, kural)] == [c["hedef"] for c in newest]
    assert len(_calismalar(dc, diger_kural)) == 5


def test_the_prune_runs_daily_with_the_other_jobs():
    giris = settings.CELERY_BEAT_SCHEDULE["otomasyon-calisma-budama"]
    assert giris["task"] == "otomasyon.calismalari_buda" and giris["task"] in app.tasks
    assert sorted(giris["schedule"].minute) == [50]  # 10 minutes after the backup, as the others
