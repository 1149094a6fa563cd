"""otomasyon.sorgular (issue 42): the runs whose conditions did not hold are one row per event
(its tenant, its rules' ids in order, its target, its time), many events in one statement, nothing
for an event without rules; and each of those runs is listed by its rule's `calismalar` as the
row per rule was (`kosul_tutmadi`, empty details), and by no other rule's. The daily prune's
delete keeps exactly the rows some rule still shows."""
from datetime import timedelta

import pytest
from django.utils import timezone

from otomasyon import selectors, sorgular
from otomasyon.models import Kural, TutmayanCalismalar
from supportdesk.testing.factories import MusteriFactory

pytestmark = pytest.mark.django_db


def _kural(musteri, ad: str) -> Kural:
    return Kural.objects.create(musteri=musteri, ad=ad, olay="ziyaretci_mesaji", eylemler=[{"tur": "kapat"}])


def _liste(kural) -> list[tuple]:
    return [(c.hedef, c.sonuc, c.ayrinti, c.zaman) for c in selectors.calisma_list(kural=kural)]


def test_one_row_per_event_listed_by_each_of_its_rules_and_no_other():
    musteri = MusteriFactory()
    kurallar = [_kural(musteri, f"K{i}") for i in range(3)]
    baska = _kural(musteri, "başka")
    zaman = timezone.now()
    sorgular.kosul_tutmadi_yaz([([k.pk for k in kurallar], "chat:42", zaman, musteri.pk)])
    assert list(TutmayanCalismalar.objects.values_list("musteri_id", "kural_idleri", "hedef", "zaman")) == [
        (musteri.pk, [k.pk for k in kurallar], "chat:42", zaman)]
    for kural in kurallar:
        assert _liste(kural) == [("chat:42", "kosul_tutmadi", [], zaman)]
    assert _liste(baska) == []


def test_rows_of_several_events_keep_their_order_and_list_newest_first():
    musteri = MusteriFactory()
    a, b = _kural(musteri, "A"), _kural(musteri, "B")
    once, sonra = timezone.now(), timezone.now() + timedelta(seconds=1)
    sorgular.kosul_tutmadi_yaz([([b.pk, a.pk], "chat:1", once, musteri.pk), ([], "chat:9", once, musteri.pk),
                                ([a.pk], "ticket:2", sonra, musteri.pk)])
    assert list(TutmayanCalismalar.objects.order_by("id").values_list("kural_idleri", "hedef")) == [
        ([b.pk, a.pk], "chat:1"), ([a.pk], "ticket:2")]
    assert [c[0] for c in _liste(a)] == ["ticket:2", "chat:1"]
    assert [c[0] for c in _liste(b)] == ["chat:1"]


def test_no_row_writes_nothing():
    sorgular.kosul_tutmadi_yaz([])
    sorgular.kosul_tutmadi_yaz([([], "chat:1", timezone.now(), MusteriFactory().pk)])
    assert not TutmayanCalismalar.objects.exists()


def test_the_prune_keeps_a_row_some_rule_shows_and_deletes_the_rest():
    musteri = MusteriFactory()
    a, b = _kural(musteri, "A"), _kural(musteri, "B")
    t0 = timezone.now()
    sorgular.kosul_tutmadi_yaz([([a.pk, b.pk], "chat:1", t0, musteri.pk), ([a.pk], "chat:2", t0, musteri.pk),
                                ([99_999_999], "chat:3", t0, musteri.pk)])  # a deleted rule's only
    # A shows runs from t0 + 1 s on: "chat:1" stays (B shows all its runs), "chat:2" goes, as "chat:3".
    silinen = sorgular.gosterilmeyenleri_sil(musteri_id=musteri.pk, parti=1,
                                             sinirlar={a.pk: t0 + timedelta(seconds=1), b.pk: None})
    assert silinen == 2
    assert list(TutmayanCalismalar.objects.values_list("hedef", flat=True)) == ["chat:1"]
    # Both limits past it: it goes too; another tenant's rows are never touched.
    diger = MusteriFactory(firma_adi="B")
    sorgular.kosul_tutmadi_yaz([([a.pk], "chat:4", t0, diger.pk)])
    assert sorgular.gosterilmeyenleri_sil(musteri_id=musteri.pk, parti=10, sinirlar={
        a.pk: t0 + timedelta(seconds=1), b.pk: t0 + timedelta(seconds=1)}) == 1
    assert list(TutmayanCalismalar.objects.values_list("hedef", flat=True)) == ["chat:4"]
