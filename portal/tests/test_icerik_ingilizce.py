"""Content per language (issue 43, CONTRACT 19): knowledge-base categories and articles and campaigns
carry an English version, written in the portal's forms; the widget's API shows it in the widget's
language (the tenant's `dil`, `otomatik` following the browser) and falls back, field by field, to
the project's own text."""
from datetime import timedelta

import pytest
from django.utils import timezone

from knowledge.models import Kampanya, KbKategori, KbMakale
from knowledge.services import kampanya_kaydet, kb_makale_kaydet
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.testing.fixtures import operator_yap, widget_client

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
KB, KMP = "/portal/bilgi-bankasi", "/portal/kampanyalar"


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def _widget(musteri, dil=None):
    c = widget_client(musteri)
    return (lambda yol, **q: c.get(f"/api/v1/widget/{yol}", {"ziyaretci_id": "v1", **q},
                                   **({"HTTP_ACCEPT_LANGUAGE": dil} if dil else {})))


def _veri(res) -> dict:
    assert res.status_code == 200, res.content
    return res.json()["data"]


def _yerel(delta: timedelta) -> str:
    return timezone.localtime(timezone.now() + delta).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def icerik(sahip, musteri):
    """A category, an article and a campaign written in the portal with English versions, and an
    article without one."""
    musteri.dil = "otomatik"
    musteri.save(update_fields=["dil"])
    assert sahip.post(KB, {"ad": "Ödeme", "aciklama": "Ödeme soruları", "ad_en": "Payment",
                           "aciklama_en": "Payment questions"}).status_code == 302
    kategori = KbKategori.objects.get(musteri=musteri)
    res = sahip.post(f"{KB}/makale/yeni", {
        "baslik": "Fatura", "icerik_markdown": "Faturanız **e-posta** ile gelir.", "yayinda": "on",
        "kategori": str(kategori.id), "baslik_en": "Invoice", "ozet_en": "How invoices arrive",
        "icerik_markdown_en": "Your invoice comes by **e-mail**.\n\n<script>window.__x=1</script>"})
    assert res.status_code == 302, res.content.decode()[:2000]
    res = sahip.post(f"{KB}/makale/yeni", {"baslik": "İade", "icerik_markdown": "İade 14 gün.", "yayinda": "on"})
    assert res.status_code == 302
    assert sahip.post(KMP, {"baslik": "Kış indirimi", "icerik": "Yüzde 20", "buton_metni": "İncele",
                            "buton_url": "https://ornek.com", "baslangic": _yerel(-timedelta(hours=1)),
                            "bitis": _yerel(timedelta(days=1)), "aktif": "on", "baslik_en": "Winter sale",
                            "icerik_en": "20 percent off", "buton_metni_en": ""}).status_code == 302
    return kategori


def test_the_portal_stores_the_english_version_sanitized_and_shows_it_for_editing(sahip, musteri, icerik):
    makale = KbMakale.objects.get(musteri=musteri, baslik="Fatura")
    assert (makale.baslik_en, makale.ozet_en) == ("Invoice", "How invoices arrive")
    assert "<strong>e-mail</strong>" in makale.icerik_en and "script" not in makale.icerik_en
    sayfa = sahip.get(f"{KB}/makale/{makale.id}").content.decode()
    assert 'name="baslik_en"' in sayfa and "Invoice" in sayfa
    kampanya = Kampanya.objects.get(musteri=musteri)
    assert (kampanya.baslik_en, kampanya.icerik_en, kampanya.buton_metni_en) == ("Winter sale", "20 percent off", "")
    assert "Winter sale" in sahip.get(f"{KMP}/{kampanya.id}").content.decode()
    assert "Payment" in sahip.get(f"{KB}/kategori/{icerik.id}").content.decode()


def test_an_english_browser_gets_the_english_version_falling_back_per_field(musteri, icerik):
    en = _widget(musteri, "en-US,en;q=0.9")
    assert [(k["ad"], k["aciklama"]) for k in _veri(en("kb/categories"))["kategoriler"]] == [("Payment", "Payment questions")]
    makale = _veri(en("kb/article/fatura"))["makale"]
    assert (makale["baslik"], makale["ozet"], makale["kategori"]["ad"]) == ("Invoice", "How invoices arrive", "Payment")
    assert "<strong>e-mail</strong>" in makale["icerik"]
    iade = _veri(en("kb/article/iade"))["makale"]  # no English version: the project's own
    assert iade["baslik"] == "İade" and "14 gün" in iade["icerik"]
    basliklar = sorted(m["baslik"] for m in _veri(en("kb/search"))["makaleler"])
    assert basliklar == ["Invoice", "İade"]
    [k] = _veri(en("campaigns"))["kampanyalar"]
    assert (k["baslik"], k["icerik"], k["buton_metni"]) == ("Winter sale", "20 percent off", "İncele")


def test_a_turkish_or_unknown_browser_gets_the_project_s_own(musteri, icerik):
    for dil in ("tr-TR,tr;q=0.9", "de-DE", None):
        w = _widget(musteri, dil)
        assert _veri(w("kb/article/fatura"))["makale"]["baslik"] == "Fatura"
        assert _veri(w("campaigns"))["kampanyalar"][0]["baslik"] == "Kış indirimi"
        assert _veri(w("kb/categories"))["kategoriler"][0]["ad"] == "Ödeme"


def test_a_tenant_set_to_english_shows_english_whatever_the_browser(musteri, icerik):
    musteri.dil = "en"
    musteri.save(update_fields=["dil"])
    assert _veri(_widget(musteri, "tr-TR")("kb/article/fatura"))["makale"]["baslik"] == "Invoice"


def test_another_tenant_s_english_article_stays_404(musteri, diger_musteri, icerik):
    res = _widget(diger_musteri, "en")("kb/article/fatura")
    assert res.status_code == 404 and res.json()["hata"]["kod"] == "BULUNAMADI"


@pytest.mark.parametrize("veri, alan", [({"baslik_en": "x" * 201}, "baslik_en"), ({"ozet_en": "x" * 501}, "ozet_en")])
def test_too_long_english_fields_are_form_errors(sahip, musteri, veri, alan):
    res = sahip.post(f"{KB}/makale/yeni", {"baslik": "A", "icerik_markdown": "b", **veri})
    assert res.status_code == 200 and alan in res.context["form"].errors
    assert not KbMakale.objects.exists()


def test_the_services_check_english_fields_as_the_turkish_ones(musteri):
    with pytest.raises(GecersizIstek) as hata:
        kb_makale_kaydet(musteri=musteri, slug="a", baslik="A", baslik_en=5)
    assert "baslik_en" in hata.value.alanlar
    simdi = timezone.now()
    with pytest.raises(GecersizIstek) as hata:
        kampanya_kaydet(musteri=musteri, baslik="K", baslangic=simdi, bitis=simdi + timedelta(hours=1),
                        buton_metni_en="x" * 61)
    assert "buton_metni_en" in hata.value.alanlar
    # None leaves a stored English version as it is (the import and the admin do not name it).
    m = kb_makale_kaydet(musteri=musteri, slug="b", baslik="B", baslik_en="Bee")
    m = kb_makale_kaydet(musteri=musteri, slug="b", baslik="B2", makale=m)
    assert m.baslik_en == "Bee"


def test_an_english_widget_searches_the_english_version_and_falls_back_to_the_project_s_own(sahip, musteri, icerik):
    """CONTRACT 19: the widget's words are its language's; its search finds and shows what it would
    show: the English text where there is one, the project's own where there is none."""
    en, tr = _widget(musteri, "en-US,en;q=0.9"), _widget(musteri, "tr-TR")
    [hit] = _veri(en("kb/search", q="how do invoices arrive"))["makaleler"]
    assert hit["slug"] == "fatura" and hit["baslik"] == "Invoice"
    assert hit["vurgu"] == "Your <mark>invoice</mark> comes by e-mail"
    [hit] = _veri(en("kb/search", q="e-mail"))["makaleler"]  # the English body, with its snippet
    assert hit["slug"] == "fatura" and "<mark>mail</mark>" in hit["vurgu"] and "gelir" not in hit["vurgu"]
    # An article with no English version is found by its own words, in an English widget too.
    [hit] = _veri(en("kb/search", q="iade"))["makaleler"]
    assert hit["slug"] == "iade" and hit["baslik"] == "İade" and "<mark>İade</mark>" in hit["vurgu"]
    # English words do not find the Turkish-only side, nor Turkish words the English side.
    assert _veri(tr("kb/search", q="invoice"))["makaleler"] == []
    assert _veri(en("kb/search", q="fatura"))["makaleler"] == []
    assert [m["slug"] for m in _veri(tr("kb/search", q="fatura"))["makaleler"]] == ["fatura"]
    # Editing the English version re-indexes it.
    makale = KbMakale.objects.get(musteri=musteri, slug="fatura")
    kb_makale_kaydet(musteri=musteri, slug="fatura", baslik="Fatura", makale=makale, yayinda=True,
                     icerik_markdown="Faturanız e-posta ile gelir.", baslik_en="Bill", ozet_en="",
                     icerik_markdown_en="Bills are posted.")
    assert _veri(en("kb/search", q="invoice"))["makaleler"] == []
    assert [m["baslik"] for m in _veri(en("kb/search", q="bills"))["makaleler"]] == ["Bill"]
