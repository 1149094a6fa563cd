"""otomasyon.sorgular (issue 42): the runs whose conditions did not hold, one statement for all the
rules of an event, write exactly what the ORM wrote (one row per rule, that target, `kosul_tutmadi`,
empty details, one time), and nothing for no rule."""
from datetime import timedelta

import pytest
from django.db import connection  # noqa: F401 (the skipif condition reads it)
from django.utils import timezone

from otomasyon import sorgular
from otomasyon.models import Kural, KuralCalismasi
from supportdesk.testing.factories import MusteriFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL-only statement"),
]


def _kural(musteri, ad: str) -> Kural:
    return Kural.objects.create(musteri=musteri, ad=ad, olay="ziyaretci_mesaji", eylemler=[{"tur": "kapat"}])


def test_one_row_per_rule_with_the_target_the_time_and_no_details():
    musteri = MusteriFactory()
    kurallar = [_kural(musteri, f"K{i}") for i in range(3)]
    baska = _kural(musteri, "başka")
    zaman = timezone.now()
    sorgular.kosul_tutmadi_yaz([([k.pk for k in kurallar], "chat:42", zaman)])
    satirlar = list(KuralCalismasi.objects.order_by("id").values("kural_id", "hedef", "sonuc", "ayrinti", "zaman"))
    assert satirlar == [{"kural_id": k.pk, "hedef": "chat:42", "sonuc": "kosul_tutmadi", "ayrinti": [], "zaman": zaman}
                        for k in kurallar]
    assert not baska.calismalar.exists()


def test_rows_of_several_events_keep_their_order_and_a_deleted_rules_row_is_left_out():
    musteri = MusteriFactory()
    a, b, silinen = (_kural(musteri, ad) for ad in ("A", "B", "silinen"))
    once, sonra = timezone.now(), timezone.now() + timedelta(seconds=1)
    silinen_id = silinen.pk
    silinen.delete()
    sorgular.kosul_tutmadi_yaz([([b.pk, silinen_id, a.pk], "chat:1", once), ([], "chat:9", once),
                                ([a.pk], "ticket:2", sonra)])
    assert list(KuralCalismasi.objects.order_by("id").values_list("kural_id", "hedef", "zaman")) == [
        (b.pk, "chat:1", once), (a.pk, "chat:1", once), (a.pk, "ticket:2", sonra)]


def test_no_row_writes_nothing():
    sorgular.kosul_tutmadi_yaz([])
    sorgular.kosul_tutmadi_yaz([([], "chat:1", timezone.now())])
    assert not KuralCalismasi.objects.exists()
