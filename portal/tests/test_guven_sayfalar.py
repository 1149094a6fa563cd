"""Issue 24 ("Trust") through the portal's pages: a new article is published by default and its
checkbox is not labelled optional; the look page's preview is the widget itself (issue 39)."""
import html as html_lib
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from knowledge.services import kb_makale_kaydet
from portal.forms import GorunumForm
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants import gorunum
from widget.tests.test_widget_katalog import _sozluk as widget_sozlugu

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
WIDGET_JS = Path(settings.BASE_DIR) / "static" / "widget" / "widget.js"


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def _sayfa(t, url) -> str:
    res = t.get(url)
    assert res.status_code == 200, res.content.decode()[:2000]
    return res.content.decode()


def _girdi(html, ad) -> str:
    [etiket] = re.findall(rf'<input[^>]*name="{ad}"[^>]*>', html)
    return etiket


def _etiket(html, alan) -> str:
    [metin] = re.findall(rf'<label for="id_{alan}">(.*?)</label>', html, re.S)
    return metin


def _sinif(html, sinif) -> str:
    [metin] = re.findall(rf'<[a-z0-9]+ class="{sinif}"[^>]*>(.*?)</', html, re.S)
    return html_lib.unescape(metin)


def test_new_article_is_published_by_default(sahip):
    html = _sayfa(sahip, "/portal/bilgi-bankasi/makale/yeni")
    kutu = _girdi(html, "yayinda")
    assert 'type="checkbox"' in kutu and " checked" in kutu, kutu
    assert "isteğe bağlı" not in _etiket(html, "yayinda")
    assert "isteğe bağlı" in _etiket(html, "ozet")  # a real optional field still says so


def test_editing_a_draft_keeps_it_a_draft(sahip, musteri):
    makale = kb_makale_kaydet(musteri=musteri, slug="taslak", baslik="Taslak", yayinda=False)
    assert " checked" not in _girdi(_sayfa(sahip, f"/portal/bilgi-bankasi/makale/{makale.pk}"), "yayinda")


@pytest.mark.parametrize("url", ["/portal/gorunum", "/portal/kampanyalar", "/portal/bilgi-bankasi/makale/yeni"])
def test_no_checkbox_of_the_portal_is_labelled_optional(sahip, url):
    html = _sayfa(sahip, url)
    kutular = re.findall(r'<input type="checkbox" name="(\w+)"', html)
    assert kutular, url
    for ad in kutular:
        assert "isteğe bağlı" not in _etiket(html, ad), (url, ad)


def test_the_greeting_placeholder_is_the_widgets_default_greeting():
    # The widget's Turkish catalog (M), read as data by the widget's own catalog tests.
    katalog = widget_sozlugu(WIDGET_JS.read_text(encoding="utf-8"), "M")
    assert katalog["hosgeldinAlt"] == gorunum.KARSILAMA_VARSAYILANI
    assert f'placeholder="{gorunum.KARSILAMA_VARSAYILANI}"' in html_lib.unescape(str(GorunumForm()["karsilama_metni"]))


def _onizleme_verisi(html: str) -> dict:
    [veri] = re.findall(r'<script id="sd-onizleme" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(veri)


def test_look_page_frames_the_real_widget_in_its_preview_mode(sahip, musteri):
    """Issue 39: the preview is widget.js itself, framed from this origin only; the look page
    stays unframeable."""
    musteri.firma_adi, musteri.karsilama_metni, musteri.renk_primary = "ılgın Kırtasiye", "Merhaba dünya", "#166534"
    musteri.mesai_disi_mesaji = "Pazartesi 09:00'da açığız."
    musteri.save()
    sayfa = sahip.get("/portal/gorunum")
    assert sayfa["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in sayfa["Content-Security-Policy"]
    [kaynak] = re.findall(r'<iframe[^>]*data-test="gorunum-onizleme"[^>]*src="([^"]+)"', sayfa.content.decode())
    assert kaynak == "/portal/gorunum/onizleme"
    assert "wg-" not in sayfa.content.decode()  # no hand-drawn imitation left

    onizleme = sahip.get(kaynak)
    assert onizleme.status_code == 200, onizleme.content.decode()[:2000]
    assert onizleme["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in onizleme["Content-Security-Policy"]
    assert "script-src 'self';" in onizleme["Content-Security-Policy"]
    html = onizleme.content.decode()
    assert re.search(r'<script src="/static/widget/widget\.js" data-onizleme="sd-onizleme" defer></script>', html)
    veri = _onizleme_verisi(html)
    assert {k: veri[k] for k in ("firma_adi", "karsilama_metni", "renk_primary", "baslatici_konum", "logo_url", "dil")} == {
        "firma_adi": "ılgın Kırtasiye", "karsilama_metni": "Merhaba dünya", "renk_primary": "#166534",
        "baslatici_konum": "sag", "logo_url": "", "dil": "tr"}
    durumlar = veri["durumlar"]
    assert durumlar["acik"] == {"mesai": {"acik": True, "sonraki_acilis": None, "mesaj": ""}, "cevrimici_operator": True}
    assert durumlar["mesai_disi"]["mesai"]["acik"] is False
    assert durumlar["mesai_disi"]["mesai"]["mesaj"] == "Pazartesi 09:00'da açığız."
    assert durumlar["kimse_yok"]["cevrimici_operator"] is False


def test_look_preview_is_the_active_projects_and_needs_a_member(sahip, musteri):
    baska = MusteriFactory(firma_adi="Başka Proje")
    veri = _onizleme_verisi(_sayfa(sahip, "/portal/gorunum/onizleme"))
    assert veri["firma_adi"] == musteri.firma_adi != baska.firma_adi
    anonim = Client().get("/portal/gorunum/onizleme")
    assert anonim.status_code == 302 and "/portal/giris" in anonim["Location"]
