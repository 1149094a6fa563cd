"""page-info, error-log and screenshot: stored per visitor, newest 50 of each kind (CONTRACT 6)."""
import base64

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile

from context.models import SAKLANAN_KAYIT, EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci
from supportdesk.testing.fixtures import widget_client
from tenants.tests.test_auth import hata

from .yardimci import ERROR_LOG, GIF, JPEG, PAGE_INFO, PNG, SCREENSHOT, durum, ok

pytestmark = pytest.mark.django_db
MB = 1024 * 1024


def data_url(icerik: bytes, mime="image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(icerik).decode()}"


# --- page-info ------------------------------------------------------------------------------

def test_page_info_is_stored_and_creates_the_visitor(widget, musteri):
    res = ok(widget.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://shop.example.com/sepet", "baslik": "Sepet",
                                     "referrer": "https://google.com/"}, format="json"), 201)
    sayfa = res["data"]["sayfa"]
    assert {k: sayfa[k] for k in ("url", "baslik", "referrer")} == {
        "url": "https://shop.example.com/sepet", "baslik": "Sepet", "referrer": "https://google.com/"}
    assert isinstance(sayfa["id"], int) and sayfa["zaman"]
    z = Ziyaretci.objects.get(musteri=musteri, ziyaretci_id="z-1")
    assert z.identity_dogrulandi is False and SayfaGoruntuleme.objects.get().ziyaretci == z


def test_a_referrer_of_another_scheme_is_dropped_not_refused(widget):
    res = widget.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://s.example/", "referrer": "android-app://com.x/"},
                      format="json")
    assert ok(res, 201)["data"]["sayfa"]["referrer"] == ""


@pytest.mark.parametrize("referrer", ["android-app://" + "x" * 2100, "https://ornek.com/" + "x" * 2100])
def test_an_overlong_referrer_is_refused_whatever_its_scheme(widget, referrer):
    # The schema says at most 2048 characters; a referrer of another scheme is dropped only when it
    # is otherwise acceptable.
    res = widget.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://s.example/", "referrer": referrer},
                      format="json")
    body = hata(res, 400, "GECERSIZ_ISTEK")
    assert "referrer" in body["hata"]["alanlar"]
    assert not SayfaGoruntuleme.objects.exists()


def test_only_the_newest_50_pages_are_kept_per_visitor(widget, musteri):
    for i in range(SAKLANAN_KAYIT + 5):
        ok(widget.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": f"https://s.example/{i}"}, format="json"), 201)
    ok(widget.post(PAGE_INFO, {"ziyaretci_id": "z-2", "url": "https://s.example/x"}, format="json"), 201)
    urls = list(SayfaGoruntuleme.objects.filter(ziyaretci__ziyaretci_id="z-1").order_by("id").values_list("url", flat=True))
    assert urls == [f"https://s.example/{i}" for i in range(5, SAKLANAN_KAYIT + 5)]
    assert SayfaGoruntuleme.objects.filter(ziyaretci__ziyaretci_id="z-2").count() == 1


@pytest.mark.parametrize("body", [
    {"ziyaretci_id": "z-1"},
    {"ziyaretci_id": "z-1", "url": ""},
    {"ziyaretci_id": "z-1", "url": "javascript:alert(1)"},
    {"ziyaretci_id": "z-1", "url": 5},
    {"ziyaretci_id": "z-1", "url": "https://a.example/" + "x" * 2100},
    {"ziyaretci_id": "z-1", "url": "https://a.example/", "referrer": 5},
    {"ziyaretci_id": "z-1", "url": "https://a.example/", "baslik": "x" * 501},
    {"ziyaretci_id": "z-1", "url": "https://a.example/", "baslik": 42},
    {"url": "https://a.example/"},
])
def test_bad_page_info_is_400_and_stores_nothing(widget, body):
    hata(widget.post(PAGE_INFO, body, format="json"), 400, "GECERSIZ_ISTEK")
    assert durum() == [[], 0, 0, 0]


# --- error-log ------------------------------------------------------------------------------

def test_error_log_is_stored(widget):
    body = {"ziyaretci_id": "z-1", "mesaj": "TypeError: x is undefined", "kaynak": "https://s.example/app.js", "satir": 42,
            "stack": "at f (app.js:42)", "url": "https://s.example/odeme", "tarayici": "Firefox 140"}
    kayit = ok(widget.post(ERROR_LOG, body, format="json"), 201)["data"]["hata_kaydi"]
    assert {k: kayit[k] for k in body if k != "ziyaretci_id"} == {k: v for k, v in body.items() if k != "ziyaretci_id"}


def test_error_log_defaults_browser_to_user_agent_and_cuts_long_text(widget):
    res = widget.post(ERROR_LOG, {"ziyaretci_id": "z-1", "mesaj": "m" * 6000, "stack": "s" * 30000}, format="json",
                      HTTP_USER_AGENT="Mozilla/5.0 Test")
    kayit = ok(res, 201)["data"]["hata_kaydi"]
    assert kayit["tarayici"] == "Mozilla/5.0 Test" and len(kayit["mesaj"]) == 5000 and len(kayit["stack"]) == 20000
    assert kayit["satir"] is None


def test_only_the_newest_50_errors_are_kept(widget):
    for i in range(SAKLANAN_KAYIT + 2):
        ok(widget.post(ERROR_LOG, {"ziyaretci_id": "z-1", "mesaj": f"h{i}"}, format="json"), 201)
    assert HataKaydi.objects.count() == SAKLANAN_KAYIT
    assert not HataKaydi.objects.filter(mesaj__in=["h0", "h1"]).exists()


@pytest.mark.parametrize("body", [
    {"ziyaretci_id": "z-1"},
    {"ziyaretci_id": "z-1", "mesaj": ""},
    {"ziyaretci_id": "z-1", "mesaj": 5},
    {"ziyaretci_id": "z-1", "mesaj": "m", "satir": -1},
    {"ziyaretci_id": "z-1", "mesaj": "m", "satir": "12"},
    {"ziyaretci_id": "z-1", "mesaj": "m", "satir": 1.5},
    {"ziyaretci_id": "z-1", "mesaj": "m", "url": "data:text/html,x"},
    {"ziyaretci_id": "z-1", "mesaj": "m", "stack": ["a"]},
])
def test_bad_error_log_is_400_and_stores_nothing(widget, body):
    hata(widget.post(ERROR_LOG, body, format="json"), 400, "GECERSIZ_ISTEK")
    assert durum() == [[], 0, 0, 0]


# --- screenshot -----------------------------------------------------------------------------

@pytest.mark.parametrize(("icerik", "mime"), [(PNG, "image/png"), (JPEG, "image/jpeg")])
def test_multipart_screenshot_is_stored_by_content(widget, icerik, mime):
    # The name and declared type lie; the content decides.
    dosya = SimpleUploadedFile("ekran.gif", icerik, content_type="application/octet-stream")
    res = widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": dosya, "url": "https://s.example/"}, format="multipart")
    eg = ok(res, 201)["data"]["ekran_goruntusu"]
    assert (eg["mime_tipi"], eg["boyut"], eg["url"]) == (mime, len(icerik), "https://s.example/")
    assert eg["gorsel_url"].startswith("http://testserver/media/context/ekran/")
    kayit = EkranGoruntusu.objects.get()
    assert "ekran" not in kayit.gorsel.name.rsplit("/", 1)[-1]  # the upload's name is not used
    assert len(kayit.gorsel.name.rsplit("/", 1)[-1]) >= 32
    with default_storage.open(kayit.gorsel.name) as f:
        assert f.read() == icerik


def test_screenshot_url_can_be_opened(widget, client):
    eg = ok(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": data_url(PNG)}, format="json"), 201)
    res = client.get(eg["data"]["ekran_goruntusu"]["gorsel_url"].replace("http://testserver", ""))
    assert res.status_code == 200
    assert b"".join(res.streaming_content) == PNG


def test_json_data_url_screenshot(widget):
    eg = ok(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": data_url(JPEG, "image/png")}, format="json"), 201)
    assert eg["data"]["ekran_goruntusu"]["mime_tipi"] == "image/jpeg"


def test_six_megabyte_screenshot_is_413(widget):
    buyuk = PNG + b"\x00" * (6 * MB)
    dosya = SimpleUploadedFile("e.png", buyuk, content_type="image/png")
    hata(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": dosya}, format="multipart"), 413, "DOSYA_COK_BUYUK")
    hata(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": data_url(buyuk)}, format="json"), 413, "DOSYA_COK_BUYUK")
    assert durum() == [[], 0, 0, 0]


def test_just_over_five_megabytes_is_413_and_five_is_fine(widget):
    tam = PNG + b"\x00" * (5 * MB - len(PNG))
    ok(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": SimpleUploadedFile("a.png", tam)}, format="multipart"), 201)
    fazla = tam + b"\x00"
    hata(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": SimpleUploadedFile("a.png", fazla)}, format="multipart"),
         413, "DOSYA_COK_BUYUK")
    hata(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": data_url(fazla)}, format="json"), 413, "DOSYA_COK_BUYUK")
    assert EkranGoruntusu.objects.count() == 1


@pytest.mark.parametrize("icerik", [GIF, b"%PDF-1.7\n" + b"0" * 100, b"duz metin, resim degil", b"\x00" * 10])
def test_gif_and_other_content_is_415(widget, icerik):
    dosya = SimpleUploadedFile("e.png", icerik, content_type="image/png")
    hata(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": dosya}, format="multipart"), 415, "DESTEKLENMEYEN_DOSYA")
    hata(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": data_url(icerik)}, format="json"), 415, "DESTEKLENMEYEN_DOSYA")
    assert durum() == [[], 0, 0, 0]


@pytest.mark.parametrize("gorsel", [None, "", "gorsel-degil", "data:image/png;base64,@@@@", 5, "data:image/png,ham"])
def test_bad_screenshot_body_is_400(widget, gorsel):
    body = {"ziyaretci_id": "z-1"} if gorsel is None else {"ziyaretci_id": "z-1", "gorsel": gorsel}
    hata(widget.post(SCREENSHOT, body, format="json"), 400, "GECERSIZ_ISTEK")
    assert durum() == [[], 0, 0, 0]


def test_form_post_is_read_like_the_other_bodies(widget):
    # A plain form post (what `requests.post(url, data=...)` sends without files) is not a 415
    # about the body: without a file it is the field's 400, and a data URL field is taken.
    res = widget.post(SCREENSHOT, "ziyaretci_id=z-1", content_type="application/x-www-form-urlencoded")
    assert hata(res, 400, "GECERSIZ_ISTEK")["hata"]["alanlar"].keys() == {"gorsel"}
    assert durum() == [[], 0, 0, 0]
    from urllib.parse import urlencode

    body = urlencode({"ziyaretci_id": "z-1", "gorsel": data_url(JPEG)})
    eg = ok(widget.post(SCREENSHOT, body, content_type="application/x-www-form-urlencoded"), 201)
    assert eg["data"]["ekran_goruntusu"]["mime_tipi"] == "image/jpeg"


def test_screenshot_needs_visitor_id_in_multipart_too(widget):
    hata(widget.post(SCREENSHOT, {"gorsel": SimpleUploadedFile("a.png", PNG)}, format="multipart"), 400, "GECERSIZ_ISTEK")


def test_only_the_newest_50_screenshots_are_kept_and_old_files_go(widget, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(SAKLANAN_KAYIT + 1):
            ok(widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": data_url(PNG)}, format="json"), 201)
    assert EkranGoruntusu.objects.count() == SAKLANAN_KAYIT
    kalan = set(EkranGoruntusu.objects.values_list("gorsel", flat=True))
    _, dosyalar = default_storage.listdir("context/ekran")
    assert {f"context/ekran/{d}" for d in dosyalar} == kalan


# --- common to the three ----------------------------------------------------------------------

@pytest.mark.parametrize(("path", "body"), [
    (PAGE_INFO, {"ziyaretci_id": "z", "url": "https://a.example/"}),
    (ERROR_LOG, {"ziyaretci_id": "z", "mesaj": "m"}),
    (SCREENSHOT, {"ziyaretci_id": "z", "gorsel": data_url(PNG)}),
])
def test_key_and_origin_whitelist_apply(api, musteri, path, body):
    hata(api.post(path, body, format="json"), 401, "KIMLIK_GEREKLI")
    musteri.izinli_originler = ["https://shop.example.com"]
    musteri.save()
    hata(widget_client(musteri, HTTP_ORIGIN="https://kotu.example").post(path, body, format="json"), 403, "ORIGIN_IZINSIZ")
    ok(widget_client(musteri, HTTP_ORIGIN="https://shop.example.com").post(path, body, format="json"), 201)
    assert Ziyaretci.objects.get().musteri == musteri


def test_records_go_to_the_calling_tenants_visitor(musteri, diger_musteri):
    ok(widget_client(diger_musteri).post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://b.example/"}, format="json"), 201)
    ok(widget_client(musteri).post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://a.example/"}, format="json"), 201)
    assert dict(SayfaGoruntuleme.objects.values_list("musteri_id", "url")) == {
        diger_musteri.id: "https://b.example/", musteri.id: "https://a.example/"}
    assert all(s.ziyaretci.musteri_id == s.musteri_id for s in SayfaGoruntuleme.objects.select_related("ziyaretci"))
