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


def test_a_large_batch_of_several_tenants_is_one_statement_listed_exactly_in_order():
    """The runner's batch: events of two tenants, id lists given as tuples (the engine's compiled
    ones, shared) and lists, times to the microsecond; one statement whatever its size."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    m1, m2 = MusteriFactory(), MusteriFactory(firma_adi="B")
    a, b = _kural(m1, "A"), _kural(m1, "B")
    c = _kural(m2, "C")
    t0 = timezone.now()
    ortak = (a.pk, b.pk)
    olaylar = [(ortak if i % 3 else [a.pk], f"chat:{i}", t0 + timedelta(microseconds=i * 7), m1.pk)
               for i in range(300)] + [([c.pk], "ticket:5", t0, m2.pk), ((), "chat:0", t0, m2.pk)]
    for parti in (olaylar[:1], olaylar[1:]):
        with CaptureQueriesContext(connection) as sorgular_:
            sorgular.kosul_tutmadi_yaz(parti)
        assert len(sorgular_) == 1
    assert list(TutmayanCalismalar.objects.order_by("id").values_list("musteri_id", "kural_idleri", "hedef", "zaman")) == [
        (m, list(i), h, z) for i, h, z, m in olaylar if i]
    hepsi = [(f"chat:{i}", "kosul_tutmadi", [], t0 + timedelta(microseconds=i * 7)) for i in range(299, -1, -1)]
    assert _liste(a) == hepsi[:100]  # the newest 100, newest first
    assert _liste(b) == [x for x in hepsi if int(x[0][5:]) % 3][:100]
    assert _liste(c) == [("ticket:5", "kosul_tutmadi", [], t0)]


def test_a_write_rolled_back_with_its_transaction_leaves_nothing():
    from django.db import transaction

    musteri = MusteriFactory()
    a = _kural(musteri, "A")

    class Vazgec(Exception):
        pass

    with pytest.raises(Vazgec), transaction.atomic():
        sorgular.kosul_tutmadi_yaz([((a.pk,), "chat:1", timezone.now(), musteri.pk)])
        assert len(_liste(a)) == 1
        raise Vazgec
    assert _liste(a) == [] and not TutmayanCalismalar.objects.exists()
