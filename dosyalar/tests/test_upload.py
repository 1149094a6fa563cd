import os

import pytest
from django.conf import settings

from dosyalar import yukleme
from dosyalar.models import Dosya
from dosyalar.selectors import dosya_get
from supportdesk.testing.fixtures import widget_client
from tenants.tests.test_auth import hata

from .yardimci import akis_oku, exe_bayt, jpeg_bayt, pdf_bayt, png_bayt, yukle

pytestmark = pytest.mark.django_db

METIN = "Merhaba, faturamı göremiyorum.\nSatır 2\tsekme\r\nŞ Ğ İ ı ç ö ü\n".encode()


def _medya_dosyalari() -> list[str]:
    out = []
    for kok, _, adlar in os.walk(settings.MEDIA_ROOT):
        out += [os.path.join(kok, a) for a in adlar]
    return out


@pytest.mark.parametrize(("ad", "icerik", "mime"), [
    ("ekran.png", png_bayt(), "image/png"),
    ("foto.jpeg", jpeg_bayt(), "image/jpeg"),
    ("fatura.pdf", pdf_bayt(), "application/pdf"),
    ("not.txt", METIN, "text/plain"),
    # The type comes from the bytes, not the name nor the client's Content-Type.
    ("adsiz", png_bayt(), "image/png"),
])
def test_allowed_types_stored_and_served_unchanged(widget, musteri, ad, icerik, mime):
    res = yukle(widget, "z1", ad, icerik, content_type="application/octet-stream")
    assert res.status_code == 201, res.content
    body = res.json()
    assert body["basarili"] is True
    veri = body["data"]["dosya"]
    assert set(veri) == {"id", "ad", "boyut", "mime_tipi", "url"}
    assert veri["ad"] == ad and veri["boyut"] == len(icerik) and veri["mime_tipi"] == mime
    kayit = Dosya.objects.get(pk=veri["id"])
    assert kayit.musteri_id == musteri.id and kayit.ziyaretci_id == "z1"
    # Stored under a random name, not the client's.
    assert ad not in kayit.dosya.name and len(os.path.basename(kayit.dosya.name)) >= 32
    served = widget.get(veri["url"])
    assert served.status_code == 200
    assert akis_oku(served) == icerik


@pytest.mark.parametrize(("ad", "icerik"), [
    ("resim.png", exe_bayt()),
    ("belge.txt", b"\x7fELF\x02\x01\x01" + b"\x00" * 100),
    ("metin.txt", b"ikili\x00veri"),
    ("metin.txt", b"kontrol \x1b[31m karakteri"),
    ("latin1.txt", "çalışma ğüş".encode("cp1254")),
    ("arsiv.png", b"PK\x03\x04" + b"\x00" * 100),
    ("resim.svg", b"<svg xmlns='http://www.w3.org/2000/svg'>\x00</svg>"),
])
def test_disallowed_content_is_415_and_nothing_stored(widget, ad, icerik):
    hata(yukle(widget, "z1", ad, icerik), 415, "DESTEKLENMEYEN_DOSYA")
    assert Dosya.objects.count() == 0
    assert _medya_dosyalari() == []


def test_eleven_megabytes_is_413_and_nothing_stored(widget):
    hata(yukle(widget, "z1", "buyuk.png", png_bayt() + b"\x00" * (11 * 1024 * 1024)), 413, "DOSYA_COK_BUYUK")
    assert Dosya.objects.count() == 0
    assert _medya_dosyalari() == []


def test_exactly_ten_megabytes_of_text_accepted(widget):
    icerik = b"a" * yukleme.EN_BUYUK_BOYUT
    res = yukle(widget, "z1", "uzun.txt", icerik, "text/plain")
    assert res.status_code == 201, res.content[:300]
    assert res.json()["data"]["dosya"]["boyut"] == yukleme.EN_BUYUK_BOYUT


def test_limit_enforced_while_streaming_when_content_length_passes(widget, monkeypatch):
    # A body whose header passes the pre-check is still cut off by the streaming handler.
    monkeypatch.setattr(yukleme, "EN_BUYUK_BOYUT", 1000)
    monkeypatch.setattr("dosyalar.api.views.EN_BUYUK_BOYUT", 10**9)
    hata(yukle(widget, "z1", "buyuk.txt", b"a" * 5000, "text/plain"), 413, "DOSYA_COK_BUYUK")
    assert Dosya.objects.count() == 0
    assert _medya_dosyalari() == []


def test_django_body_limit_answers_413_envelope(widget, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    res = widget.post("/api/v1/widget/upload", {"ziyaretci_id": "z1", "not": "x" * 500}, format="multipart")
    hata(res, 413, "DOSYA_COK_BUYUK")


def test_too_many_files_is_400_not_500(widget, settings):
    from .yardimci import dosya

    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    veri = {"ziyaretci_id": "z1", "dosya": [dosya(f"{i}.png", png_bayt()) for i in range(3)]}
    hata(widget.post("/api/v1/widget/upload", veri, format="multipart"), 400, "GECERSIZ_ISTEK")
    assert Dosya.objects.count() == 0


def test_empty_file_is_400(widget):
    body = hata(yukle(widget, "z1", "bos.png", b""), 400, "GECERSIZ_ISTEK")
    assert "dosya" in body["hata"]["alanlar"]
    assert Dosya.objects.count() == 0


@pytest.mark.parametrize("veri", [{"ziyaretci_id": "z1"}, {"ziyaretci_id": "z1", "dosya": "metin, dosya değil"}])
def test_missing_file_is_400(widget, veri):
    hata(widget.post("/api/v1/widget/upload", veri, format="multipart"), 400, "GECERSIZ_ISTEK")


def test_missing_visitor_is_400(widget):
    from .yardimci import dosya

    res = widget.post("/api/v1/widget/upload", {"dosya": dosya("a.png", png_bayt())}, format="multipart")
    hata(res, 400, "GECERSIZ_ISTEK")
    assert Dosya.objects.count() == 0


def test_json_body_refused(widget):
    res = widget.post("/api/v1/widget/upload", {"ziyaretci_id": "z1"}, format="json")
    assert res.status_code == 415 and res.json()["basarili"] is False


def test_requires_api_key(api):
    res = yukle(api, "z1", "a.png", png_bayt())
    assert res.status_code == 401 and res.json()["basarili"] is False
    assert Dosya.objects.count() == 0


def test_dosya_get_scoped_to_visitor_and_tenant(widget, musteri, diger_musteri):
    dosya_id = yukle(widget, "z1", "a.png", png_bayt()).json()["data"]["dosya"]["id"]
    assert dosya_get(musteri=musteri, ziyaretci_id="z1", dosya_id=dosya_id).id == dosya_id
    from supportdesk.core.exceptions import Bulunamadi

    for kwargs in [
        {"musteri": musteri, "ziyaretci_id": "z2", "dosya_id": dosya_id},
        {"musteri": diger_musteri, "ziyaretci_id": "z1", "dosya_id": dosya_id},
        {"musteri": musteri, "ziyaretci_id": "z1", "dosya_id": dosya_id + 1000},
        {"musteri": musteri, "ziyaretci_id": "z1", "dosya_id": "abc"},
    ]:
        with pytest.raises(Bulunamadi):
            dosya_get(**kwargs)


def test_other_tenant_upload_separate(widget, diger_musteri):
    diger = widget_client(diger_musteri)
    res = yukle(diger, "z1", "a.png", png_bayt())
    assert res.status_code == 201
    assert Dosya.objects.get().musteri_id == diger_musteri.id


def test_oversized_content_length_refused_before_reading(widget):
    # The header alone decides: a claimed 50 MB body is refused without parsing a byte of it.
    from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

    from .yardimci import dosya

    govde = encode_multipart(BOUNDARY, {"ziyaretci_id": "z1", "dosya": dosya("a.png", png_bayt())})
    res = widget.generic("POST", "/api/v1/widget/upload", govde, content_type=MULTIPART_CONTENT,
                         CONTENT_LENGTH=str(50 * 1024 * 1024))
    hata(res, 413, "DOSYA_COK_BUYUK")
    assert Dosya.objects.count() == 0


# --- audit additions -----------------------------------------------------------------------------
def test_upload_url_is_absolute(widget):
    veri = yukle(widget, "z1", "a.png", png_bayt()).json()["data"]["dosya"]
    assert veri["url"].startswith("http://testserver/media/yuklemeler/"), veri["url"]
    assert akis_oku(widget.get(veri["url"])) == png_bayt()


def test_one_byte_over_ten_megabytes_is_413_and_nothing_stored(widget):
    hata(yukle(widget, "z1", "uzun.txt", b"a" * (yukleme.EN_BUYUK_BOYUT + 1), "text/plain"), 413, "DOSYA_COK_BUYUK")
    assert Dosya.objects.count() == 0
    assert _medya_dosyalari() == []


@pytest.mark.parametrize(("ad", "icerik", "mime"), [
    ("anim.gif", b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00"
                 b"\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;", "image/gif"),
    ("foto.webp", b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00",
     "image/webp"),
    ("notlar.csv", b"ad,tutar\nfatura,100\n", "text/plain"),
    ("bom.txt", "\ufeffMerhaba <dünya>\n".encode(), "text/plain"),
])
def test_gif_webp_and_other_plain_text_accepted(widget, ad, icerik, mime):
    res = yukle(widget, "z1", ad, icerik, "application/octet-stream")
    assert res.status_code == 201, res.content
    assert res.json()["data"]["dosya"]["mime_tipi"] == mime


@pytest.mark.parametrize(("ad", "icerik"), [
    # Scripts and markup are text, but not plain text: a browser or a shell would run them.
    ("resim.png", b"#!/bin/sh\nrm -rf ~\n"),
    ("betik.txt", b"\xef\xbb\xbf#!/usr/bin/env python3\nprint(1)\n"),
    ("resim.svg", b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
    ("sayfa.txt", b"  \n<!DOCTYPE html><html><body>x</body></html>"),
    ("sayfa.png", b"<html><script>alert(1)</script></html>"),
    ("veri.txt", b"<?xml version='1.0'?><a/>"),
    ("yorum.txt", b"<!-- x --><p>y</p>"),
])
def test_scripts_and_markup_are_415(widget, ad, icerik):
    hata(yukle(widget, "z1", ad, icerik), 415, "DESTEKLENMEYEN_DOSYA")
    assert Dosya.objects.count() == 0
    assert _medya_dosyalari() == []


def test_form_encoded_body_without_file_is_400(widget):
    # A plain form post (no multipart) simply lacks the file: a validation error, not 415.
    res = widget.post("/api/v1/widget/upload", "ziyaretci_id=z1", content_type="application/x-www-form-urlencoded")
    body = hata(res, 400, "GECERSIZ_ISTEK")
    assert "dosya" in body["hata"]["alanlar"]
    res = widget.post("/api/v1/widget/upload", "", content_type="application/x-www-form-urlencoded")
    hata(res, 400, "GECERSIZ_ISTEK")
    assert Dosya.objects.count() == 0


def test_another_visitors_or_tenants_upload_cannot_be_attached(widget, diger_musteri):
    from tickets.models import TicketYanit

    baskasi = yukle(widget, "z2", "a.png", png_bayt()).json()["data"]["dosya"]["id"]
    yabanci = yukle(widget_client(diger_musteri), "z1", "a.png", png_bayt()).json()["data"]["dosya"]["id"]
    for ek in (baskasi, yabanci):
        res = widget.post("/api/v1/widget/ticket/create",
                          {"ziyaretci_id": "z1", "konu": "k", "mesaj": "m", "ek_idleri": [ek]}, format="json")
        hata(res, 404, "BULUNAMADI")
    assert TicketYanit.objects.count() == 0
