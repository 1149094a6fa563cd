"""/portal/kisiler (CONTRACT 25): list and search for every member; CSV export and import for sahip
and yonetici, formulas neutralised (CONTRACT 13), an export imported back changing nothing, a bad row
writing nothing; another project's contacts never shown or touched."""
import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kisiler.models import Kisi, KisiZiyaretci, NitelikTanimi
from supportdesk.testing.fixtures import operator_yap

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
KISILER = "/portal/kisiler"


def kisi(musteri, ziyaretci_id=None, **alanlar):
    k = Kisi.objects.create(musteri=musteri, email_anahtari=alanlar.get("email", "").lower(), **alanlar)
    if ziyaretci_id:
        KisiZiyaretci.objects.create(musteri=musteri, kisi=k, ziyaretci_id=ziyaretci_id)
    return k


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


@pytest.fixture
def operator_(musteri):
    return giris_yapmis(operator_yap(musteri))


def csv_satirlari(res) -> list[list[str]]:
    assert res.status_code == 200 and res["Content-Type"].startswith("text/csv"), res.content[:500]
    return list(csv.reader(io.StringIO(res.content.decode("utf-8-sig"))))


def yukle(tarayici, metin: str):
    dosya = SimpleUploadedFile("kisiler.csv", metin.encode("utf-8"), content_type="text/csv")
    return tarayici.post(KISILER, {"dosya": dosya})


def test_liste_arama_ve_menu(musteri, diger_musteri, operator_):
    kisi(musteri, "z-1", ad="Ayşe Öztürk", email="ayse@ornek.com")
    kisi(musteri, "z-2", ad="Mehmet Can")
    kisi(diger_musteri, "z-3", ad="Başkasının Öztürk'ü")
    sayfa = operator_.get(KISILER).content.decode()
    assert "Ayşe Öztürk" in sayfa and "Mehmet Can" in sayfa and "Başkasının" not in sayfa
    assert 'data-test="menu-kisiler"' in sayfa
    assert 'data-test="kisiler-ice-aktar"' not in sayfa  # an operator reads only
    bulunan = operator_.get(KISILER, {"q": "ozturk"}).content.decode()
    assert "Ayşe Öztürk" in bulunan and "Mehmet Can" not in bulunan and "Başkasının" not in bulunan


def test_operator_csv_alamaz_ice_aktaramaz(musteri, operator_):
    assert operator_.get(KISILER, {"bicim": "csv"}).status_code == 403
    assert yukle(operator_, "ad,email\nYeni,yeni@ornek.com\n").status_code == 403
    assert not Kisi.objects.filter(musteri=musteri).exists()


def test_csv_formulleri_etkisizlestirir_ve_geri_yukleme_degistirmez(musteri, diger_musteri, sahip):
    NitelikTanimi.objects.create(musteri=musteri, anahtar="plan", ad="Plan", tur="secim", secenekler=["Pro", "=1+1"])
    NitelikTanimi.objects.create(musteri=musteri, anahtar="vip", ad="VIP", tur="evet_hayir")
    k = kisi(musteri, "z-1", ad="=HYPERLINK(\"http://kotu.test\")", email="a@ornek.com", sirket="+90 Ltd",
             telefon="-5", nitelikler={"plan": "=1+1", "vip": True})
    kisi(diger_musteri, "z-9", ad="Başka")
    satirlar = csv_satirlari(sahip.get(KISILER, {"bicim": "csv"}))
    assert satirlar[0][:6] == ["id", "ad", "email", "telefon", "sirket", "ziyaretci_idleri"]
    assert satirlar[0][-2:] == ["plan", "vip"] and len(satirlar) == 2
    satir = dict(zip(satirlar[0], satirlar[1], strict=True))
    assert satir["ad"] == "'=HYPERLINK(\"http://kotu.test\")" and satir["sirket"] == "'+90 Ltd"
    assert satir["telefon"] == "'-5" and satir["plan"] == "'=1+1" and satir["vip"] == "evet"
    assert satir["ziyaretci_idleri"] == "z-1"
    for s in satirlar[1:]:
        assert not any(h.startswith(("=", "+", "-", "@", "\t", "\r")) for h in s), s
    onceki = Kisi.objects.get(pk=k.pk)
    metin = sahip.get(KISILER, {"bicim": "csv"}).content.decode("utf-8-sig")
    res = yukle(sahip, metin)
    assert res.status_code == 302, res.content.decode()[:3000]
    sonra = Kisi.objects.get(pk=k.pk)
    assert (sonra.ad, sonra.email, sonra.sirket, sonra.telefon, sonra.nitelikler) == (
        onceki.ad, onceki.email, onceki.sirket, onceki.telefon, onceki.nitelikler)
    assert Kisi.objects.filter(musteri=musteri).count() == 1


def test_ice_aktarma_ekler_ve_epostayla_gunceller(musteri, diger_musteri, sahip):
    NitelikTanimi.objects.create(musteri=musteri, anahtar="koltuk", ad="Koltuk", tur="sayi")
    var = kisi(musteri, "z-1", ad="Eski Ad", email="ayse@ornek.com")
    baska = kisi(diger_musteri, "z-2", ad="Başka", email="yeni@ornek.com")
    res = yukle(sahip, "ad;email;sirket;koltuk\nAyşe;AYSE@ornek.com;Örnek;12\nYeni Kişi;yeni@ornek.com;;3,5\n")
    assert res.status_code == 302, res.content.decode()[:3000]
    var.refresh_from_db()
    assert (var.ad, var.sirket, var.nitelikler) == ("Ayşe", "Örnek", {"koltuk": 12})
    yeni = Kisi.objects.get(musteri=musteri, email="yeni@ornek.com")
    assert yeni.ad == "Yeni Kişi" and yeni.nitelikler == {"koltuk": 3.5}
    baska.refresh_from_db()
    assert baska.ad == "Başka"
    assert "1 yeni kişi, 1 kişi güncellendi" in sahip.get(KISILER).content.decode()


def test_baska_projenin_kimligi_ice_aktarmada_yeni_kisi_olur(musteri, diger_musteri, sahip):
    baska = kisi(diger_musteri, "z-2", ad="Başka")
    res = yukle(sahip, f"id,ad\n{baska.pk},Ele Geçirildi\n")
    assert res.status_code == 302
    baska.refresh_from_db()
    assert baska.ad == "Başka" and Kisi.objects.get(musteri=musteri).ad == "Ele Geçirildi"


@pytest.mark.parametrize("metin,parca", [
    ("ad,email\nİyi,iyi@ornek.com\nKötü,eposta-degil\n", "Satır 3"),
    ("ad,email,koltuk\nBir,b@ornek.com,on iki\n", "Satır 2"),
    ("ad,email\n,\n", "Satır 2"),
    ("isim,soyisim\nA,B\n", "sütun"),
    ("", "sütun"),
])
def test_hatali_dosya_hicbir_sey_yazmaz(musteri, sahip, metin, parca):
    NitelikTanimi.objects.create(musteri=musteri, anahtar="koltuk", ad="Koltuk", tur="sayi")
    res = yukle(sahip, metin)
    assert res.status_code == 400
    assert parca in res.content.decode()
    assert not Kisi.objects.filter(musteri=musteri).exists()


def test_dosyasiz_ve_utf8_olmayan(musteri, sahip):
    assert sahip.post(KISILER, {}).status_code == 400
    dosya = SimpleUploadedFile("k.csv", "ad\nŞükrü\n".encode("iso8859-9"), content_type="text/csv")
    res = sahip.post(KISILER, {"dosya": dosya})
    assert res.status_code == 400 and "UTF-8" in res.content.decode()
