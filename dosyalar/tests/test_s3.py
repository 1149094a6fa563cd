"""Files on S3-compatible storage (CONTRACT 26), against a real S3 API on loopback (moto's server,
supportdesk.testing.s3): uploads and screenshots land in the bucket, their signed URLs download the
same bytes with the headers a user file must carry (CONTRACT 5, docs/api.md "Uploads": anything but
an image as an attachment; S3 cannot send `Content-Security-Policy: sandbox`, which is why the bucket
is its own origin), the export reads them back from the bucket, erasure deletes them there, and the
backups go to their own bucket."""
import base64
import io
import json
import shutil
import time
import zipfile
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from dosyalar.tests.test_sunum import JS_PDF
from dosyalar.tests.yardimci import akis_oku, png_bayt, yukle
from supportdesk.core import yedek
from supportdesk.testing.fixtures import giris_yap, operator_yap
from supportdesk.testing.s3 import s3, s3_sunucusu  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
Z = "z_" + "c" * 32


@pytest.fixture
def sahip(musteri, api):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, operator_yap(musteri, rol='sahip'))}")
    return api


def _ok(res, status=200):
    assert res.status_code == status, res.content
    return res.json()["data"]


@pytest.mark.parametrize(("ad", "icerik", "ek"), [("fatura.pdf", JS_PDF, True), ("ekran.png", png_bayt(), False)])
def test_yukleme_kovaya_gider_imzali_url_ayni_baytlari_dogru_basliklarla_indirir(widget, s3, ad, icerik, ek):  # noqa: F811
    dosya = _ok(yukle(widget, Z, ad, icerik, content_type="application/octet-stream"), 201)["dosya"]

    [(anahtar, nesne)] = s3.nesneler(s3.dosyalar).items()
    assert anahtar.startswith("yuklemeler/") and s3.oku(s3.dosyalar, anahtar) == icerik
    assert nesne.get("ContentDisposition") == ("attachment" if ek else None)

    indirilen = requests.get(dosya["url"], timeout=10)  # the signed URL, straight from the bucket
    assert indirilen.status_code == 200, indirilen.text
    assert indirilen.content == icerik
    if ek:
        assert indirilen.headers["Content-Disposition"] == "attachment"
    else:
        assert "attachment" not in indirilen.headers.get("Content-Disposition", "")
        assert indirilen.headers["Content-Type"] == "image/png"


def test_kova_ozel_url_imzali_ve_suresi_sinirli(widget, s3, settings):  # noqa: F811
    dosya = _ok(yukle(widget, Z, "fatura.pdf", JS_PDF, content_type="application/pdf"), 201)["dosya"]
    # The bucket is private: without the signature, nothing (moto checks no signature's value,
    # real S3 does; what it can show is that the URL is signed and ends).
    assert requests.get(dosya["url"].split("?", 1)[0], timeout=10).status_code == 403
    sorgu = parse_qs(urlsplit(dosya["url"]).query)
    assert sorgu["Signature"] and sorgu["AWSAccessKeyId"] == ["test"]
    kalan = int(sorgu["Expires"][0]) - time.time()
    assert 0 < kalan <= settings.STORAGES["default"]["OPTIONS"]["querystring_expire"]


def test_ekran_goruntusu_kovada_operator_baglamindan_imzali_url_ile(musteri, widget, operator_client, s3):  # noqa: F811
    ekran = _ok(widget.post("/api/v1/context/screenshot", {
        "ziyaretci_id": Z, "gorsel": "data:image/png;base64," + base64.b64encode(png_bayt()).decode()}, format="json"),
        201)["ekran_goruntusu"]
    [anahtar] = s3.nesneler(s3.dosyalar)
    assert s3.oku(s3.dosyalar, anahtar) == png_bayt()

    baglam = _ok(operator_client.get(f"/api/v1/operator/context/{Z}"))
    [goruntu] = [g for g in baglam["ekran_goruntuleri"] if g["id"] == ekran["id"]]
    indirilen = requests.get(goruntu["gorsel_url"], timeout=10)
    assert indirilen.status_code == 200 and indirilen.content == png_bayt()


def test_disa_aktarma_dosyalari_kovadan_okur_silme_kovadan_siler(widget, sahip, musteri, s3,  # noqa: F811
                                                                 django_capture_on_commit_callbacks):
    _ok(yukle(widget, Z, "fatura.pdf", JS_PDF, content_type="application/pdf"), 201)
    _ok(widget.post("/api/v1/context/screenshot", {
        "ziyaretci_id": Z, "gorsel": "data:image/png;base64," + base64.b64encode(png_bayt()).decode()}, format="json"), 201)
    assert len(s3.nesneler(s3.dosyalar)) == 2

    res = sahip.get(f"/api/v1/operator/ziyaretci/{Z}/disa-aktar?musteri_id={musteri.id}")
    assert res.status_code == 200, res.content
    arsiv = zipfile.ZipFile(io.BytesIO(akis_oku(res)))
    icerikler = sorted(arsiv.read(ad) for ad in arsiv.namelist() if ad != "ziyaretci.json")
    assert icerikler == sorted([JS_PDF, png_bayt()])

    with django_capture_on_commit_callbacks(execute=True):  # the files go once the erasure commits
        silinen = _ok(sahip.delete(f"/api/v1/operator/ziyaretci/{Z}?musteri_id={musteri.id}"))["silinen"]
    assert silinen["dosya"] >= 1
    assert s3.nesneler(s3.dosyalar) == {}


@pytest.fixture
def postgresql():
    from django.db import connection

    if connection.vendor != "postgresql" or not shutil.which("pg_dump"):
        pytest.skip("Yedekleme PostgreSQL ve pg_dump ister.")


def test_zamanli_yedek_kovaya_gider_ve_en_yeni_yedek_sakla_kadari_kalir(postgresql, s3, settings):  # noqa: F811
    settings.YEDEK_KLASORU = ""  # a host with a short-lived disk: the bucket alone
    settings.YEDEK_SAKLA = 2
    for gun in (1, 2, 3):
        yedek.zamanli_yedek(simdi=datetime(2099, 1, gun, 4, 0, tzinfo=UTC))

    nesneler = s3.nesneler(s3.yedekler)
    assert {a.split("/")[0] for a in nesneler} == {"supportdesk-20990102-040000", "supportdesk-20990103-040000"}
    manifest = json.loads(s3.oku(s3.yedekler, "supportdesk-20990103-040000/yedek.json"))
    dokum = s3.oku(s3.yedekler, "supportdesk-20990103-040000/veritabani.dump")
    assert manifest["veritabani"]["boyut"] == len(dokum) and dokum.startswith(b"PGDMP")
    # Uploads live in their own bucket, which the backup names instead of copying.
    assert "depolama" in manifest["dosyalar"]
    # Never readable without credentials.
    assert requests.get(f"{s3.sunucu.url}/{s3.yedekler}/supportdesk-20990103-040000/yedek.json",
                        timeout=10).status_code == 403


def test_yedek_al_komutu_kovaya_da_kopyalar(postgresql, s3, tmp_path):  # noqa: F811
    from django.core.management import call_command

    hedef = tmp_path / "supportdesk-20990105-040000"
    call_command("yedek_al", "--hedef", str(hedef), "--kovaya", stdout=io.StringIO())
    assert set(s3.nesneler(s3.yedekler)) == {f"{hedef.name}/{p.name}" for p in hedef.iterdir()}


def test_yukleyenin_iddia_ettigi_tip_saklanmaz_adin_tipi_saklanir(widget, s3):  # noqa: F811
    dosya = _ok(yukle(widget, Z, "ekran.png", png_bayt(), content_type="text/html"), 201)["dosya"]
    [nesne] = s3.nesneler(s3.dosyalar).values()
    assert nesne["ContentType"] == "image/png"
    assert requests.get(dosya["url"], timeout=10).headers["Content-Type"] == "image/png"
