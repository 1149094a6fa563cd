"""Issue 24 ("Trust") through the portal's pages: a new article is published by default and its
checkbox is not labelled optional; the look page's preview uses the widget's own words."""
import html as html_lib
import re
from pathlib import Path

import pytest
from django.conf import settings

from knowledge.services import kb_makale_kaydet
from supportdesk.testing.fixtures import operator_yap
from tenants import gorunum

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


def test_preview_words_are_the_widgets_words():
    kaynak = WIDGET_JS.read_text(encoding="utf-8")
    for anahtar, metin in gorunum.WIDGET_METINLERI.items():
        assert re.search(rf'\n    {anahtar}: "{re.escape(metin)}",', kaynak), anahtar


def test_look_preview_uses_the_widgets_words(sahip, musteri):
    musteri.firma_adi, musteri.karsilama_metni = "ılgın Kırtasiye", ""
    musteri.save()
    html = _sayfa(sahip, "/portal/gorunum")
    kutu = html[html.index('data-test="gorunum-onizleme"'):]
    kutu = kutu[:kutu.index("</section>")]
    m = gorunum.WIDGET_METINLERI
    assert _sinif(kutu, "wg-hosgeldin") == m["hosgeldin"]
    assert _sinif(kutu, "wg-karsilama") == m["hosgeldinAlt"]
    assert f'data-varsayilan="{m["hosgeldinAlt"]}"' in kutu
    assert _sinif(kutu, "wg-dugme") == m["baslat"]
    assert _sinif(kutu, "wg-firma") == "ılgın Kırtasiye"
    assert re.search(r'class="wg-logo" data-harf="I">I</span>', kutu)  # "ılgın" in Turkish upper case
    assert not re.search("[\U0001F300-\U0001FAFF]", kutu)  # no emoji: they need a font the machine may lack
