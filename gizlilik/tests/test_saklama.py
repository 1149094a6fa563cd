"""Retention (CONTRACT 18) with a fake clock: rows made through the API, then backdated; and a
deleted tenant leaves no row and no file."""
import os
from datetime import timedelta

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.utils import timezone

from chat.models import Mesaj, Oturum
from context.models import EkranGoruntusu, HataKaydi, SayfaGoruntuleme
from denetim.models import DenetimKaydi
from dosyalar.models import Dosya
from gizlilik import services, tasks
from gizlilik.models import BekleyenDosyaSilme
from supportdesk.testing.factories import KullaniciFactory, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Musteri
from tickets.models import Ticket

from .test_ziyaretci import DIGER_Z, Z, _ziyaretci_verisi

ESKI = timezone.now() - timedelta(days=40)


def _geri_tarihle(musteri, ziyaretci_id):
    """Move a visitor's closed chat, its tickets and context records 40 days into the past."""
    Oturum.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).update(baslangic=ESKI, bitis_zamani=ESKI)
    Mesaj.objects.filter(oturum__musteri=musteri, oturum__ziyaretci_id=ziyaretci_id).update(zaman=ESKI)
    Ticket.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).update(guncellenme=ESKI, olusturulma=ESKI)
    for model in (SayfaGoruntuleme, HataKaydi, EkranGoruntusu):
        model.objects.filter(musteri=musteri, ziyaretci__ziyaretci_id=ziyaretci_id).update(zaman=ESKI)


def test_retention_erases_what_is_older_and_only_that(musteri, django_capture_on_commit_callbacks):
    eski = _ziyaretci_verisi(musteri, Z)
    yeni = _ziyaretci_verisi(musteri, DIGER_Z)
    _geri_tarihle(musteri, Z)
    Ticket.objects.filter(pk=eski["ticket"]["id"]).update(durum="cozuldu")
    Ticket.objects.filter(pk=yeni["ticket"]["id"]).update(durum="cozuldu")
    # An old ticket still open is kept, whatever its age.
    acik = Ticket.objects.create(musteri=musteri, ziyaretci_id=Z, konu="açık", durum="acik")
    Ticket.objects.filter(pk=acik.pk).update(guncellenme=ESKI)

    assert tasks.saklama_uygula() == dict.fromkeys(services.SILINEN_ANAHTARLARI, 0)  # saklama_gun unset: keep all
    Musteri.objects.filter(pk=musteri.pk).update(saklama_gun=30)
    ekran_dosyasi = EkranGoruntusu.objects.get(musteri=musteri, ziyaretci__ziyaretci_id=Z).gorsel.path
    with django_capture_on_commit_callbacks(execute=True):
        silinen = tasks.saklama_uygula()
    assert silinen["oturum"] == 1 and silinen["ticket"] == 1 and silinen["baglam"] == 3 and silinen["dosya"] == 2
    assert not Oturum.objects.filter(pk=eski["oturum"]["id"]).exists()
    assert not Ticket.objects.filter(pk=eski["ticket"]["id"]).exists()
    assert Ticket.objects.filter(pk=acik.pk).exists()
    assert Oturum.objects.filter(pk=yeni["oturum"]["id"]).exists() and Ticket.objects.filter(pk=yeni["ticket"]["id"]).exists()
    assert not Dosya.objects.filter(pk=eski["dosya"]["id"]).exists()  # the chat's attachment
    assert Dosya.objects.filter(pk=yeni["dosya"]["id"]).exists()
    assert not os.path.exists(ekran_dosyasi)
    assert not SayfaGoruntuleme.objects.filter(musteri=musteri, ziyaretci__ziyaretci_id=Z).exists()
    assert SayfaGoruntuleme.objects.filter(musteri=musteri, ziyaretci__ziyaretci_id=DIGER_Z).exists()
    assert not BekleyenDosyaSilme.objects.exists()
    # Idempotent: the next run finds nothing.
    assert services.saklama_uygula() == dict.fromkeys(services.SILINEN_ANAHTARLARI, 0)


def test_a_closed_chat_with_a_recent_note_is_kept(musteri):
    veri = _ziyaretci_verisi(musteri, Z)
    _geri_tarihle(musteri, Z)
    Mesaj.objects.create(musteri=musteri, oturum_id=veri["oturum"]["id"], gonderen="operator", icerik="yeni not", ozel=True)
    Musteri.objects.filter(pk=musteri.pk).update(saklama_gun=30)
    assert services.saklama_uygula()["oturum"] == 0
    assert Oturum.objects.filter(pk=veri["oturum"]["id"]).exists()


def test_the_sweep_finishes_what_a_crash_left(db):
    yol = os.path.join(settings.MEDIA_ROOT, "yuklemeler", "kalan.png")
    os.makedirs(os.path.dirname(yol), exist_ok=True)
    with open(yol, "wb") as f:
        f.write(b"x")
    kayit = BekleyenDosyaSilme.objects.create(ad="yuklemeler/kalan.png")
    assert services.dosya_supurge() == 0  # too young: its own after-commit may still be running
    BekleyenDosyaSilme.objects.filter(pk=kayit.pk).update(olusturulma=timezone.now() - timedelta(hours=1))
    assert services.dosya_supurge() == 1
    assert not os.path.exists(yol) and not BekleyenDosyaSilme.objects.exists()
    assert services.dosya_supurge() == 0


def _musteri_satirlari(musteri_id: int) -> dict:
    sayilar = {}
    for model in apps.get_models():
        alanlar = [f.name for f in model._meta.concrete_fields
                   if f.is_relation and f.related_model is Musteri]
        for alan in alanlar:
            n = model._base_manager.filter(**{f"{alan}_id": musteri_id}).count()
            if n:
                sayilar[f"{model._meta.label}.{alan}"] = n
    return sayilar


def _dosyalar() -> list[str]:
    return [os.path.join(k, d) for k, _, ds in os.walk(settings.MEDIA_ROOT) for d in ds]


@pytest.mark.django_db(transaction=True)
def test_a_tenant_deleted_in_the_admin_leaves_no_row_and_no_file():
    musteri = MusteriFactory(firma_adi="Silinecek")
    kalan = MusteriFactory(firma_adi="Kalan")
    _ziyaretci_verisi(musteri, Z)
    _ziyaretci_verisi(kalan, Z)
    from django.core.files.base import ContentFile

    from dosyalar.tests.yardimci import png_bayt
    musteri.logo.save("logo.png", ContentFile(png_bayt()))
    operator_yap(musteri, rol="sahip")  # a membership, and so an audit entry (guarded in the database)
    assert DenetimKaydi.objects.filter(musteri=musteri).exists()
    kalan_dosyalari = {os.path.basename(d.dosya.name) for d in Dosya.objects.filter(musteri=kalan)}
    assert _musteri_satirlari(musteri.pk)
    admin = KullaniciFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    res = client.post(f"/{settings.ADMIN_URL}tenants/musteri/{musteri.pk}/delete/", {"post": "yes"})
    assert res.status_code == 302, res.content[:300]
    assert not Musteri.objects.filter(pk=musteri.pk).exists()
    assert _musteri_satirlari(musteri.pk) == {}
    kalanlar = {os.path.basename(d) for d in _dosyalar()}
    # Only the other tenant's upload and screenshot are left in storage.
    assert kalan_dosyalari <= kalanlar and len(kalanlar) == 2, kalanlar
    assert not BekleyenDosyaSilme.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_share_the_work():
    """Two processes' runs at the same moment: each row is erased once, neither fails or waits."""
    import threading

    from django.db import connections

    musteri = MusteriFactory(saklama_gun=30)
    oturumlar = Oturum.objects.bulk_create(
        Oturum(musteri=musteri, ziyaretci_id=f"z{i}", durum="kapandi", baslangic=ESKI, bitis_zamani=ESKI)
        for i in range(450))
    Mesaj.objects.bulk_create(Mesaj(musteri=musteri, oturum=o, gonderen="ziyaretci", icerik="x", zaman=ESKI)
                              for o in oturumlar for _ in range(3))
    sonuclar, hatalar = [], []

    def calistir():
        try:
            sonuclar.append(services.saklama_uygula())
        except Exception as exc:  # noqa: BLE001
            hatalar.append(exc)
        finally:
            connections.close_all()

    isler = [threading.Thread(target=calistir) for _ in range(2)]
    for i in isler:
        i.start()
    for i in isler:
        i.join()
    assert hatalar == []
    assert sum(s["oturum"] for s in sonuclar) == 450 and sum(s["mesaj"] for s in sonuclar) == 1350
    assert not Oturum.objects.filter(musteri=musteri).exists()
