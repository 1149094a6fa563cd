"""/portal/bilgi-bankasi: categories and articles written in the portal reach the widget (CONTRACT 13, 5)."""
import pytest

from knowledge.models import KbKategori, KbMakale
from knowledge.services import kb_kategori_kaydet, kb_makale_kaydet
from supportdesk.testing.fixtures import operator_yap, widget_client

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
KB = "/portal/bilgi-bankasi"
YENI = f"{KB}/makale/yeni"
ZARARLI = ("Ödeme **kolay**.\n\n<script>window.__xss=1</script>\n\n<img src=x onerror=\"window.__xss=2\">\n\n"
           "[tıkla](javascript:window.__xss=3)")


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def ara(musteri, q):
    res = widget_client(musteri).get("/api/v1/widget/kb/search", {"q": q, "ziyaretci_id": "v1"})
    assert res.status_code == 200, res.content
    return [m["baslik"] for m in res.json()["data"]["makaleler"]]


def makale_yaz(t, **alanlar):
    veri = {"baslik": "Fatura", "icerik_markdown": "Faturanızı **e-posta** ile alırsınız.", "yayinda": "on", **alanlar}
    res = t.post(YENI, veri)
    assert res.status_code == 302, res.content.decode()[:3000]
    return KbMakale.objects.get(pk=int(res["Location"].rsplit("/", 1)[1]))


def test_category_create_with_turkish_slug_edit_and_delete(sahip, musteri):
    res = sahip.post(KB, {"ad": "Çağrı ve İşlem Ücretleri: ĞÜŞÖ ılık", "aciklama": "", "sira": "2"})
    assert res.status_code == 302
    kategori = KbKategori.objects.get(musteri=musteri)
    assert kategori.slug == "cagri-ve-islem-ucretleri-guso-ilik"
    assert sahip.post(KB, {"ad": "Çağrı ve İşlem Ücretleri: ĞÜŞÖ ılık"}).status_code == 302
    assert sorted(KbKategori.objects.values_list("slug", flat=True)) == [
        "cagri-ve-islem-ucretleri-guso-ilik", "cagri-ve-islem-ucretleri-guso-ilik-2"]
    url = f"{KB}/kategori/{kategori.id}"
    assert sahip.post(url, {"ad": "Ödeme", "slug": "odeme", "sira": "1"}).status_code == 302
    kategori.refresh_from_db()
    assert (kategori.ad, kategori.slug, kategori.sira) == ("Ödeme", "odeme", 1)
    makale = makale_yaz(sahip, kategori=str(kategori.id))
    assert sahip.post(url, {"islem": "sil"}).status_code == 302
    assert not KbKategori.objects.filter(pk=kategori.id).exists()
    makale.refresh_from_db()
    assert makale.kategori_id is None


@pytest.mark.parametrize("veri,alan", [
    ({"ad": ""}, "ad"), ({"ad": "x" * 151}, "ad"), ({"ad": "A", "slug": "boşluk var"}, "slug"),
    ({"ad": "A", "sira": "-1"}, "sira"), ({"ad": "A", "slug": "odeme"}, "slug"),
])
def test_bad_category_input_is_a_form_error(sahip, musteri, veri, alan):
    kb_kategori_kaydet(musteri=musteri, slug="odeme", ad="Ödeme")
    res = sahip.post(KB, veri)
    assert res.status_code == 200 and res.context["kategori_form"].errors[alan]
    assert 'class="alan-hata"' in res.content.decode()
    assert KbKategori.objects.count() == 1


def test_article_written_in_the_portal_is_found_by_the_widget_search(sahip, musteri):
    makale = makale_yaz(sahip)
    assert makale.slug == "fatura" and makale.yayinda and "<strong>e-posta</strong>" in makale.icerik
    assert ara(musteri, "faturamı") == ["Fatura"]
    assert ara(musteri, "FATURAMI") == ["Fatura"]
    # An edit re-indexes at once: the new words are found, the old ones no longer.
    res = sahip.post(f"{KB}/makale/{makale.id}", {"baslik": "İade koşulları", "slug": "fatura",
                                                   "icerik_markdown": "Ürünü 14 gün içinde iade edin.", "yayinda": "on"})
    assert res.status_code == 302
    assert ara(musteri, "iadeler") == ["İade koşulları"] and ara(musteri, "faturamı") == []
    # Unpublished: gone from the widget, still in the portal.
    sahip.post(f"{KB}/makale/{makale.id}", {"baslik": "İade koşulları", "slug": "fatura", "icerik_markdown": "x"})
    assert ara(musteri, "iade") == []
    assert "İade koşulları" in sahip.get(KB).content.decode()
    assert sahip.post(f"{KB}/makale/{makale.id}", {"islem": "sil"}).status_code == 302
    assert not KbMakale.objects.exists()


def test_turkish_title_slug_and_uniqueness(sahip, musteri):
    a = makale_yaz(sahip, baslik="Şifremi Unuttum: IĞDIR'da Çözüm")
    b = makale_yaz(sahip, baslik="Şifremi Unuttum: IĞDIR'da Çözüm")
    assert (a.slug, b.slug) == ("sifremi-unuttum-igdirda-cozum", "sifremi-unuttum-igdirda-cozum-2")


def test_script_in_the_body_never_reaches_the_widget_or_the_preview(sahip, musteri):
    makale = makale_yaz(sahip, icerik_markdown=ZARARLI)
    for html in (makale.icerik, sahip.post(f"{KB}/onizleme", {"icerik_markdown": ZARARLI}).content.decode()):
        assert "<strong>kolay</strong>" in html
        assert "<script" not in html and "onerror" not in html and "javascript:" not in html
    res = widget_client(musteri).get(f"/api/v1/widget/kb/article/{makale.slug}", {"ziyaretci_id": "v1"})
    icerik = res.json()["data"]["makale"]["icerik"]
    assert "<script" not in icerik and "onerror" not in icerik and "javascript:" not in icerik
    sayfa = sahip.get(f"{KB}/makale/{makale.id}").content.decode()
    assert "window.__xss=1</script>" not in sayfa and 'onerror="window' not in sayfa
    # The Markdown source is kept for the next edit.
    assert KbMakale.objects.get().icerik_markdown == ZARARLI


@pytest.mark.parametrize("veri,alan", [
    ({"baslik": ""}, "baslik"), ({"baslik": "x" * 201}, "baslik"), ({"baslik": "A", "slug": "çok kötü"}, "slug"),
    ({"baslik": "A", "kategori": "999999"}, "kategori"), ({"baslik": "A", "slug": "var"}, "slug"),
    ({"baslik": "A", "ozet": "x" * 501}, "ozet"),
])
def test_bad_article_input_is_a_form_error(sahip, musteri, veri, alan):
    kb_makale_kaydet(musteri=musteri, slug="var", baslik="Var olan", icerik="<p>eski</p>")
    res = sahip.post(YENI, veri)
    assert res.status_code == 200 and res.context["form"].errors[alan], res.context["form"].errors
    assert KbMakale.objects.count() == 1
    mevcut = KbMakale.objects.get()
    if veri.get("slug") == "var":
        return  # its own slug is no error on its own article
    res = sahip.post(f"{KB}/makale/{mevcut.id}", {**veri, "slug": veri.get("slug", "var")})
    assert res.status_code == 200 and res.context["form"].errors[alan]
    mevcut.refresh_from_db()
    assert (mevcut.baslik, mevcut.icerik) == ("Var olan", "<p>eski</p>")


def test_operator_member_reads_but_cannot_change(musteri):
    makale = kb_makale_kaydet(musteri=musteri, slug="a", baslik="A", icerik="<p>a</p>", yayinda=True)
    kategori = kb_kategori_kaydet(musteri=musteri, slug="k", ad="K")
    t = giris_yapmis(operator_yap(musteri))
    assert t.get(KB).status_code == 200 and t.get(f"{KB}/makale/{makale.id}").status_code == 200
    for url, veri in ((KB, {"ad": "Yeni"}), (YENI, {"baslik": "B"}), (f"{KB}/makale/{makale.id}", {"islem": "sil"}),
                      (f"{KB}/kategori/{kategori.id}", {"islem": "sil"}), (f"{KB}/onizleme", {"icerik_markdown": "x"})):
        assert t.post(url, veri).status_code == 403, url
    assert KbMakale.objects.count() == 1 and KbKategori.objects.count() == 1


def test_another_projects_articles_and_categories_are_404(sahip, musteri, diger_musteri):
    makale = kb_makale_kaydet(musteri=diger_musteri, slug="gizli", baslik="Yabancı makale", yayinda=True)
    kategori = kb_kategori_kaydet(musteri=diger_musteri, slug="k", ad="Yabancı")
    for url in (f"{KB}/makale/{makale.id}", f"{KB}/kategori/{kategori.id}"):
        assert sahip.get(url).status_code == 404
        assert sahip.post(url, {"islem": "sil"}).status_code == 404
    assert "Yabancı makale" not in sahip.get(KB).content.decode()
    res = sahip.post(YENI, {"baslik": "Benim", "kategori": str(kategori.id)})  # foreign category id
    assert res.status_code == 200 and res.context["form"].errors["kategori"]
    assert KbMakale.objects.filter(musteri=diger_musteri).count() == 1 and KbKategori.objects.count() == 1


@pytest.mark.parametrize("kaynak", ["1. " * 3000, "- " * 3000, "> " * 3000])
def test_deeply_nested_markdown_is_saved_as_text_not_a_500(sahip, musteri, kaynak):
    # Python-Markdown parses a list item's (or quote's) text as blocks again, one level per marker,
    # until the stack runs out (RecursionError): the save and the preview were a 500. Such a body is
    # shown as typed, escaped, and still sanitized.
    govde = kaynak + "<script>window.__xss=1</script> son"
    onizleme = sahip.post(f"{KB}/onizleme", {"icerik_markdown": govde})
    assert onizleme.status_code == 200 and "<script>window" not in onizleme.content.decode()
    makale = makale_yaz(sahip, icerik_markdown=govde)
    assert "<script" not in makale.icerik and "son" in makale.icerik
    res = widget_client(musteri).get(f"/api/v1/widget/kb/article/{makale.slug}", {"ziyaretci_id": "v1"})
    assert res.status_code == 200
