"""DerlenmisSorgu (issue 12): a queryset compiled once per process gives the same rows as the ORM,
runs one unchanging statement text, and refuses builders it cannot run faithfully."""
from datetime import datetime

import pytest
from django.db import connection
from django.db.models import Count, F
from django.test.utils import CaptureQueriesContext

from chat.models import Mesaj, Oturum
from supportdesk.core.derlenmis_sorgu import DerlenmisSorgu
from tenants.models import Musteri

pytestmark = pytest.mark.django_db

PG = pytest.mark.skipif("connection.vendor != 'postgresql'", reason="compiled once only on PostgreSQL")


@pytest.fixture
def veri():
    musteri = Musteri.objects.create(firma_adi="Hazır A")
    baska = Musteri.objects.create(firma_adi="Hazır B")
    oturumlar = [Oturum.objects.create(musteri=musteri, ziyaretci_id=f"z{i}", ziyaretci_adi=f"Z{i}") for i in range(3)]
    Oturum.objects.create(musteri=baska, ziyaretci_id="z0", ziyaretci_adi="başka")
    for o in oturumlar[:2]:
        for j in range(3):
            Mesaj.objects.create(musteri=musteri, oturum=o, gonderen=Mesaj.Gonderen.ZIYARETCI, icerik=f"m{j}")
    return musteri, baska, oturumlar


def _kur(cagrilar):
    def kur(musteri_id, ziyaretci_id, adet):
        cagrilar.append(adet)
        return (Oturum.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id)
                .annotate(_adet=Count("mesajlar"), _firma=F("musteri__firma_adi")).order_by("id")[:adet])
    return kur


def test_same_rows_and_annotations_as_the_orm(veri):
    musteri, baska, oturumlar = veri
    sorgu = DerlenmisSorgu(_kur([]), parametreler={"musteri_id": int, "ziyaretci_id": str})
    for m, z in ((musteri, "z0"), (musteri, "z1"), (musteri, "z2"), (baska, "z0"), (musteri, "yok")):
        beklenen = list(_kur([])(m.id, z, 10))
        sonuc = sorgu(musteri_id=m.id, ziyaretci_id=z, adet=10)
        assert [(o.id, o.ziyaretci_adi, o._adet, o._firma) for o in sonuc] == \
               [(o.id, o.ziyaretci_adi, o._adet, o._firma) for o in beklenen]
    assert [o._adet for o in sorgu(musteri_id=musteri.id, ziyaretci_id="z0", adet=10)] == [3]
    assert sorgu(musteri_id=musteri.id, ziyaretci_id="yok", adet=10) == []


@PG
def test_built_once_per_fixed_arguments(veri):
    musteri, baska, _ = veri
    cagrilar = []
    sorgu = DerlenmisSorgu(_kur(cagrilar), parametreler={"musteri_id": int, "ziyaretci_id": str})
    with CaptureQueriesContext(connection) as sorgular:
        sorgu(musteri_id=musteri.id, ziyaretci_id="z0", adet=10)
        sorgu(musteri_id=baska.id, ziyaretci_id="z1", adet=10)
        sorgu(musteri_id=musteri.id, ziyaretci_id="z2", adet=10)
    assert cagrilar == [10]  # built once, with stand-ins; three statements, one per call
    assert len(sorgular) == 3
    sorgu(musteri_id=musteri.id, ziyaretci_id="z0", adet=2)  # a fixed argument is part of the key
    assert cagrilar == [10, 2]


def test_a_parameter_the_orm_transforms_is_refused(veri):
    musteri, _, _ = veri
    sorgu = DerlenmisSorgu(lambda ad: Oturum.objects.filter(ziyaretci_adi__icontains=ad),
                       parametreler={"ad": str})
    if connection.vendor != "postgresql":
        assert sorgu(ad="z1")  # runs the builder's queryset as it is
        return
    with pytest.raises(ValueError, match="dönüştürülerek"):
        sorgu(ad="z1")


@PG
def test_a_parameter_missing_from_the_sql_is_refused(veri):
    sorgu = DerlenmisSorgu(lambda musteri_id, oturum_id: Oturum.objects.filter(musteri_id=musteri_id),
                       parametreler={"musteri_id": int, "oturum_id": int})
    with pytest.raises(ValueError, match="bulunmayan"):
        sorgu(musteri_id=1, oturum_id=2)


def test_missing_argument_is_a_type_error(veri):
    sorgu = DerlenmisSorgu(lambda musteri_id: Oturum.objects.filter(musteri_id=musteri_id), parametreler={"musteri_id": int})
    with pytest.raises(TypeError):
        sorgu()


def test_herhangi_lookup_any_size_and_empty(veri):
    musteri, baska, oturumlar = veri
    idler = [o.id for o in oturumlar]
    assert set(Oturum.objects.filter(id__herhangi=idler).values_list("id", flat=True)) == set(idler)
    assert list(Oturum.objects.filter(id__herhangi=[])) == []
    sorgu = DerlenmisSorgu(lambda idler: Oturum.objects.filter(id__herhangi=idler).order_by("id"), parametreler={"idler": list})
    assert [o.id for o in sorgu(idler=idler[:2])] == idler[:2]
    assert [o.id for o in sorgu(idler=idler)] == idler
    assert sorgu(idler=[]) == []


def test_a_datetime_parameter(veri):
    from datetime import timedelta

    from django.utils import timezone

    musteri, _, oturumlar = veri
    Oturum.objects.filter(pk=oturumlar[0].pk).update(baslangic=timezone.now() - timedelta(days=2))
    sorgu = DerlenmisSorgu(lambda musteri_id, sinir: Oturum.objects.filter(musteri_id=musteri_id, baslangic__gte=sinir)
                       .order_by("id"), parametreler={"musteri_id": int, "sinir": datetime})
    for gun in (1, 3):
        sinir = timezone.now() - timedelta(days=gun)
        beklenen = list(Oturum.objects.filter(musteri_id=musteri.id, baslangic__gte=sinir).order_by("id"))
        assert [o.id for o in sorgu(musteri_id=musteri.id, sinir=sinir)] == [o.id for o in beklenen]
    assert len(sorgu(musteri_id=musteri.id, sinir=timezone.now() - timedelta(days=1))) == 2
