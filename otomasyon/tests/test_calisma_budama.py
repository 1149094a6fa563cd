"""CONTRACT 23 runs stay bounded: the daily task keeps a rule's newest 100 runs (all the API
shows) and, for a tenant with `saklama_gun`, none older than that (CONTRACT 18)."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from otomasyon.models import KuralCalismasi, TutmayanCalismalar
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


def _eski_olaylar(musteri, kurallar, adet: int, *, gun: int) -> None:
    # Events long ago whose conditions held for none of `kurallar` (issue 42: one row per event).
    zaman = timezone.now() - timedelta(days=gun)
    TutmayanCalismalar.objects.bulk_create([TutmayanCalismalar(
        musteri=musteri, kural_idleri=[k["id"] for k in kurallar], hedef=f"chat:{i}", zaman=zaman + timedelta(seconds=i))
        for i in range(adet)])


def test_non_matching_runs_kept_one_row_per_event_are_pruned_as_the_rules_show_them(musteri):
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    kosul = [{"alan": "metin", "islem": "icerir", "deger": "hiç yazılmayan"}]
    a = kural_yaz(yc, musteri.id, olay="chat_baslatildi", kosullar=kosul, eylemler=[{"tur": "kapat"}])
    b = kural_yaz(yc, musteri.id, olay="chat_baslatildi", kosullar=kosul, eylemler=[{"tur": "kapat"}])
    _eski_olaylar(musteri, [a, b], 20, gun=3)  # both rules' runs: B shows them all
    _eski_olaylar(musteri, [a], 130, gun=2)  # A's only: A shows 97 of them and 3 newer
    widget = widget_client(musteri)
    for i in range(3):
        ok(widget.post(START, {"ziyaretci_id": f"z{i}", "mesaj": "Merhaba"}, format="json"), 201)
    once_a, once_b = _calismalar(yc, a), _calismalar(yc, b)
    assert len(once_a) == 100 and len(once_b) == 23
    assert {c["sonuc"] for c in once_a} == {"kosul_tutmadi"} and TutmayanCalismalar.objects.count() == 153

    assert calismalari_buda.apply().get() == 33  # A's 33 oldest of its own; the 20 shared stay for B
    assert (_calismalar(yc, a), _calismalar(yc, b)) == (once_a, once_b)
    assert TutmayanCalismalar.objects.count() == 120
    assert calismalari_buda.apply().get() == 0

    musteri.saklama_gun = 1  # retention: everything older than a day goes, even what B shows
    musteri.save(update_fields=["saklama_gun"])
    assert calismalari_buda.apply().get() == 117
    assert len(_calismalar(yc, a)) == len(_calismalar(yc, b)) == 3


def test_the_prune_runs_daily_with_the_other_jobs():
    giris = settings.CELERY_BEAT_SCHEDULE["otomasyon-calisma-budama"]
    assert giris["task"] == "otomasyon.calismalari_buda" and giris["task"] in app.tasks
    assert sorted(giris["schedule"].minute) == [50]  # 10 minutes after the backup, as the others
