"""The portal's privacy pages (CONTRACT 18, 21): a visitor's history page with export and erasure,
the audit log with filters, and a project deleted by its last owner leaving no row and no file."""
import io
import os
import zipfile

import pytest
from django.conf import settings
from django.test import Client

from chat.models import Oturum
from denetim.models import DenetimKaydi
from dosyalar.tests.yardimci import akis_oku
from gizlilik.tests.test_saklama import _dosyalar, _musteri_satirlari
from gizlilik.tests.test_ziyaretci import Z, _ziyaretci_verisi
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Musteri


def _portal(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_visitor_page_exports_and_erases(musteri, django_capture_on_commit_callbacks):
    _ziyaretci_verisi(musteri)
    sahip = _portal(operator_yap(musteri, rol="sahip"))
    oturum = Oturum.objects.get(musteri=musteri, ziyaretci_id=Z)
    assert f"/portal/ziyaretci/{Z}" in sahip.get(f"/portal/gecmis/sohbet/{oturum.id}").content.decode()
    sayfa = sahip.get(f"/portal/ziyaretci/{Z}")
    assert sayfa.status_code == 200 and 'data-test="sil"' in sayfa.content.decode()
    arsiv = zipfile.ZipFile(io.BytesIO(akis_oku(sahip.get(f"/portal/ziyaretci/{Z}?disa_aktar=1"))))
    assert "ziyaretci.json" in arsiv.namelist()
    sahip.post(f"/portal/ziyaretci/{Z}", {"onay": "yanlis"})
    assert Oturum.objects.filter(musteri=musteri, ziyaretci_id=Z).exists()  # no confirmation, nothing erased
    with django_capture_on_commit_callbacks(execute=True):
        assert sahip.post(f"/portal/ziyaretci/{Z}", {"onay": Z}).status_code == 302
    assert not Oturum.objects.filter(musteri=musteri, ziyaretci_id=Z).exists()
    assert {"ziyaretci_disa_aktarildi", "ziyaretci_silindi"} <= set(
        DenetimKaydi.objects.filter(musteri=musteri).values_list("eylem", flat=True))


def test_operators_cannot_export_or_erase_in_the_portal(musteri):
    _ziyaretci_verisi(musteri)
    operator = _portal(operator_yap(musteri, rol="operator"))
    assert 'data-test="sil"' not in operator.get(f"/portal/ziyaretci/{Z}").content.decode()
    assert operator.get(f"/portal/ziyaretci/{Z}?disa_aktar=1").status_code == 403
    assert operator.post(f"/portal/ziyaretci/{Z}", {"onay": Z}).status_code == 403
    assert operator.get("/portal/gizlilik").status_code == 403
    assert Oturum.objects.filter(musteri=musteri, ziyaretci_id=Z).exists()


def test_audit_page_filters(musteri):
    user = operator_yap(musteri, rol="yonetici")
    DenetimKaydi.objects.create(musteri=musteri, eylem="etiket_silindi", hedef="etiket:7", kullanici_id=user.id,
                                email=user.email)
    DenetimKaydi.objects.create(musteri=musteri, eylem="ayar_degisti", hedef="musteri:1")
    client = _portal(user)
    icerik = client.get("/portal/gizlilik?eylem=etiket_silindi").content.decode()
    assert 'data-eylem="etiket_silindi"' in icerik and 'data-eylem="ayar_degisti"' not in icerik
    icerik = client.get(f"/portal/gizlilik?kullanici={user.id}").content.decode()
    assert 'data-eylem="etiket_silindi"' in icerik and 'data-eylem="ayar_degisti"' not in icerik
    icerik = client.get("/portal/gizlilik?bas=2000-01-01&son=2000-01-02").content.decode()
    assert 'data-eylem="etiket_silindi"' not in icerik
    assert client.get("/portal/gizlilik?eylem=yok").status_code == 400


@pytest.mark.django_db(transaction=True)
def test_the_last_owner_deletes_the_project_after_typing_its_name():
    musteri = MusteriFactory(firma_adi="Silinecek Proje")
    kalan = MusteriFactory(firma_adi="Kalan")
    _ziyaretci_verisi(musteri)
    sahip = operator_yap(musteri, kalan, rol="sahip")
    ikinci = operator_yap(musteri, rol="sahip")
    client = _portal(sahip)
    client.post(f"/portal/projeler/sec/{musteri.id}")
    client.post("/portal/proje-sil", {"onay": "Silinecek Proje"})
    assert Musteri.objects.filter(pk=musteri.pk).exists()  # another owner: not the last one
    ikinci.uyelikler.filter(musteri=musteri).delete()
    client.post("/portal/proje-sil", {"onay": "yanlış ad"})
    assert Musteri.objects.filter(pk=musteri.pk).exists()
    res = client.post("/portal/proje-sil", {"onay": "Silinecek Proje"})
    assert res.status_code == 302
    assert not Musteri.objects.filter(pk=musteri.pk).exists()
    assert _musteri_satirlari(musteri.pk) == {}
    assert _dosyalar() == []  # its upload and screenshot are gone from storage
    assert os.path.isdir(settings.MEDIA_ROOT)
    assert Musteri.objects.filter(pk=kalan.pk).exists()
