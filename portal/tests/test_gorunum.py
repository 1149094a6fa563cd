"""/portal/gorunum: colour with enough contrast, logo upload (SVG sanitized, ≤ 1 MB), greeting and
launcher position, answered by `widget/init` (CONTRACT 13)."""
from xml.etree import ElementTree

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.models import Musteri

from .test_hazir_yanit_kampanya import PNG
from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
URL = "/portal/gorunum"
ZARARLI_SVG = (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">'
               b'<script>alert(2)</script><foreignObject><iframe src="https://x.example"></iframe></foreignObject>'
               b'<a href="javascript:alert(3)"><circle cx="5" cy="5" r="4" fill="#1D4ED8"/></a></svg>')


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def init(musteri):
    res = widget_client(musteri).post("/api/v1/widget/init", {"ziyaretci_id": "v1"}, format="json")
    assert res.status_code == 200, res.content
    return res.json()["data"]


def kaydet(t, **alanlar):
    return t.post(URL, {"renk_primary": "#1D4ED8", "karsilama_metni": "Merhaba, sorunuz nedir?", "baslatici_konum": "sol",
                        **alanlar})


def test_look_saved_in_the_portal_is_what_widget_init_answers(sahip, musteri):
    assert init(musteri)["baslatici_konum"] == "sag"  # cached in the widget-key cache already
    res = kaydet(sahip, logo=SimpleUploadedFile("logo.png", PNG))
    assert res.status_code == 302, res.content.decode()[:2000]
    d = init(musteri)
    assert (d["renk_primary"], d["karsilama_metni"], d["baslatici_konum"]) == ("#1D4ED8", "Merhaba, sorunuz nedir?", "sol")
    assert d["logo_url"].startswith("http://testserver/media/logolar/") and d["logo_url"].endswith(".png")
    assert b"".join(widget_client(musteri).get(d["logo_url"].removeprefix("http://testserver")).streaming_content) == PNG
    # Edit without a new file keeps the logo; "remove" drops it.
    kaydet(sahip, renk_primary="#166534", baslatici_konum="sag")
    assert init(musteri)["logo_url"] == d["logo_url"] and init(musteri)["renk_primary"] == "#166534"
    kaydet(sahip, logo_kaldir="on")
    assert init(musteri)["logo_url"] == ""


def test_svg_logo_is_sanitized(sahip, musteri):
    assert kaydet(sahip, logo=SimpleUploadedFile("logo.svg", ZARARLI_SVG, "image/svg+xml")).status_code == 302
    musteri.refresh_from_db()
    svg = musteri.logo.read().decode()
    assert musteri.logo.name.endswith(".svg") and "<circle" in svg and 'viewBox="0 0 10 10"' in svg
    for yasak in ("script", "onload", "foreignObject", "iframe", "javascript", "href"):
        assert yasak not in svg


def test_an_svg_logo_with_a_no_break_space_stays_well_formed_xml(sahip, musteri):
    # nh3 wrote U+00A0 as `&nbsp;`, which XML does not know: the stored logo did not parse (probe).
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 80 10"><text x="0" y="8">ACME\u00a0Inc &amp; Co'
           '&#160;Ltd</text></svg>').encode()
    assert kaydet(sahip, logo=SimpleUploadedFile("logo.svg", svg, "image/svg+xml")).status_code == 302
    musteri.refresh_from_db()
    kok = ElementTree.fromstring(musteri.logo.read())
    assert "".join(kok.itertext()) == "ACME\u00a0Inc & Co\u00a0Ltd"


@pytest.mark.parametrize("alanlar,alan", [
    ({"renk_primary": "mavi"}, "renk_primary"), ({"renk_primary": "#12345"}, "renk_primary"),
    ({"renk_primary": "#FFFF00"}, "renk_primary"), ({"renk_primary": "#777777"}, "renk_primary"),
    ({"karsilama_metni": "x" * 201}, "karsilama_metni"), ({"baslatici_konum": "orta"}, "baslatici_konum"),
    ({"logo": SimpleUploadedFile("a.gif", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")}, "logo"),
    ({"logo": SimpleUploadedFile("a.png", b"<html><script>alert(1)</script></html>")}, "logo"),
    ({"logo": SimpleUploadedFile("b.png", PNG + b"\x00" * (1024 * 1024))}, "logo"),
])
def test_bad_input_is_a_form_error_and_nothing_changes(sahip, musteri, alanlar, alan):
    res = kaydet(sahip, **alanlar)
    assert res.status_code == 200 and res.context["form"].errors[alan], res.context["form"].errors
    assert 'class="alan-hata"' in res.content.decode()
    musteri.refresh_from_db()
    assert (musteri.renk_primary, musteri.karsilama_metni, musteri.baslatici_konum, musteri.logo.name) == (
        "#2563EB", "", "sag", "")


def test_contrast_error_names_the_ratio(sahip):
    res = kaydet(sahip, renk_primary="#16A34A")
    assert "3.30:1" in res.context["form"].errors["renk_primary"][0]
    assert kaydet(sahip, renk_primary="#767676").status_code == 302  # 4.54:1, just enough


def test_operator_member_cannot_change_the_look(musteri, diger_musteri):
    t = giris_yapmis(operator_yap(musteri))
    assert t.get(URL).status_code == 200
    assert kaydet(t).status_code == 403
    assert Musteri.objects.get(pk=musteri.pk).renk_primary == "#2563EB"


def test_only_the_active_project_changes(musteri, diger_musteri):
    user = operator_yap(musteri, diger_musteri, rol="sahip")
    t = giris_yapmis(user)
    t.post(f"/portal/projeler/sec/{diger_musteri.id}")
    assert kaydet(t).status_code == 302
    assert Musteri.objects.get(pk=diger_musteri.pk).renk_primary == "#1D4ED8"
    assert Musteri.objects.get(pk=musteri.pk).renk_primary == "#2563EB"
