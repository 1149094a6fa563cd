import pytest
from rest_framework.test import APIClient

from knowledge.models import KbMakale
from knowledge.services import kb_kategori_kaydet, kb_makale_kaydet
from tenants.tests.test_auth import hata

from .yardimci import ziyaretci_istemcisi as widget_client

pytestmark = pytest.mark.django_db

KB = "/api/v1/widget/kb"


def ok(res):
    assert res.status_code == 200, res.content
    body = res.json()
    assert body["basarili"] is True
    return body["data"]


def makale(musteri, slug, baslik, icerik="", yayinda=True, kategori=None, **kw):
    return kb_makale_kaydet(musteri=musteri, slug=slug, baslik=baslik, icerik=icerik, yayinda=yayinda,
                            kategori=kategori, **kw)


def ara(client, q, **params):
    return [m["slug"] for m in ok(client.get(f"{KB}/search", {"q": q, **params}))["makaleler"]]


@pytest.fixture
def merkez(musteri):
    odeme = kb_kategori_kaydet(musteri=musteri, slug="odeme", ad="Ödeme ve Fatura", sira=1)
    makale(musteri, "fatura-indirme", "Faturanızı nasıl indirirsiniz?",
           "<p>Faturalar menüsünden <b>PDF</b> olarak indirebilirsiniz.</p>", kategori=odeme)
    makale(musteri, "iade-sureci", "İADE SÜRECİ", "<p>Ürününüzü 14 gün içinde geri gönderebilirsiniz.</p>")
    makale(musteri, "kargo-takibi", "Kargo takibi", "<p>Siparişinizin iade durumu ve kargo numarası burada.</p>")
    makale(musteri, "taslak-fatura", "Fatura taslağı", "<p>Yayında değil.</p>", yayinda=False)
    return odeme


def test_faturami_finds_fatura(widget, merkez):
    assert ara(widget, "faturamı") == ["fatura-indirme"]
    assert ara(widget, "FATURAMI") == ["fatura-indirme"]


def test_iade_case_insensitive_turkish(widget, merkez):
    kucuk = ara(widget, "iade")
    assert set(kucuk) == {"iade-sureci", "kargo-takibi"}
    assert ara(widget, "İADE") == kucuk
    assert ara(widget, "İade") == kucuk


def test_title_match_ranks_above_body_match(widget, merkez):
    # "iade" is the title of one article and a word in the body of another.
    assert ara(widget, "iade")[0] == "iade-sureci"


def test_dotless_i_folding(widget, musteri):
    makale(musteri, "igdir", "IĞDIR şubesi", "<p>Adres bilgisi.</p>")
    assert ara(widget, "ığdır") == ["igdir"]
    assert ara(widget, "IĞDIR") == ["igdir"]


def test_highlighted_snippet(widget, merkez):
    sonuc = ok(widget.get(f"{KB}/search", {"q": "kargo"}))["makaleler"][0]
    assert sonuc["slug"] == "kargo-takibi"
    assert "<mark>kargo</mark>" in sonuc["vurgu"].lower()
    assert set(sonuc) == {"id", "baslik", "slug", "ozet", "kategori", "guncellenme", "vurgu"}


def test_snippet_escapes_article_text(widget, musteri):
    makale(musteri, "kod", "Kod örneği", "<p>&lt;script&gt;alert(1)&lt;/script&gt; kargo</p>")
    vurgu = ok(widget.get(f"{KB}/search", {"q": "kargo"}))["makaleler"][0]["vurgu"]
    assert "<script>" not in vurgu and "<mark>" in vurgu
    assert vurgu.replace("<mark>", "").replace("</mark>", "").count("<") == 0


@pytest.mark.parametrize("q", ["'; DROP TABLE knowledge_kbmakale; --", "%", "_", "\\", "\"", "fatura' OR '1'='1",
                               "!!! & | : * ( )", "<->", "a:*", "'", "-", "or", "%%fatura%%", "\x00"])
def test_sql_metacharacters_never_error(widget, merkez, q):
    res = widget.get(f"{KB}/search", {"q": q})
    assert res.status_code in (200, 400), res.content
    if res.status_code == 200:
        assert isinstance(res.json()["data"]["makaleler"], list)
    assert KbMakale.objects.count() == 4


def test_unpublished_and_other_tenant_never_returned(widget, musteri, diger_musteri, merkez):
    makale(diger_musteri, "fatura-yabanci", "Fatura başka firmada", "<p>fatura</p>")
    diger = widget_client(diger_musteri)
    assert ara(widget, "fatura") == ["fatura-indirme"]
    assert ara(diger, "fatura") == ["fatura-yabanci"]
    hata(widget.get(f"{KB}/article/taslak-fatura"), 404, "BULUNAMADI")
    hata(widget.get(f"{KB}/article/fatura-yabanci"), 404, "BULUNAMADI")
    hata(diger.get(f"{KB}/article/fatura-indirme"), 404, "BULUNAMADI")


def test_empty_query_lists_published_by_category(widget, merkez):
    assert ok(widget.get(f"{KB}/search", {"q": ""}))["makaleler"] != []
    assert ara(widget, "", kategori="odeme") == ["fatura-indirme"]
    assert ara(widget, "iade", kategori="odeme") == []


@pytest.mark.parametrize("params", [{"q": "x" * 201}, {"limit": "0"}, {"limit": "abc"}, {"kategori": "a b"}])
def test_search_bad_params(widget, params):
    hata(widget.get(f"{KB}/search", params), 400, "GECERSIZ_ISTEK")


def test_article_detail_counts_views(widget, merkez):
    veri = ok(widget.get(f"{KB}/article/fatura-indirme"))["makale"]
    assert set(veri) == {"id", "baslik", "slug", "ozet", "icerik", "kategori", "guncellenme", "goruntulenme"}
    assert veri["kategori"]["slug"] == "odeme" and veri["goruntulenme"] == 1
    assert "<b>PDF</b>" in veri["icerik"]
    ok(widget.get(f"{KB}/article/fatura-indirme"))
    assert KbMakale.objects.get(slug="fatura-indirme").goruntulenme == 2


def test_article_html_sanitized_on_save(widget, musteri):
    makale(musteri, "xss", "Güvenlik", '<p onclick="x()">Merhaba<script>alert(1)</script>'
                                        '<a href="javascript:alert(1)">a</a><img src=x onerror=alert(1)></p>')
    icerik = ok(widget.get(f"{KB}/article/xss"))["makale"]["icerik"]
    assert "script" not in icerik and "onclick" not in icerik and "javascript:" not in icerik
    assert "onerror" not in icerik and "Merhaba" in icerik


def test_categories_with_published_counts(widget, musteri, diger_musteri, merkez):
    kb_kategori_kaydet(musteri=musteri, slug="bos", ad="Boş", sira=0)
    kb_kategori_kaydet(musteri=diger_musteri, slug="yabanci", ad="Yabancı")
    kategoriler = ok(widget.get(f"{KB}/categories"))["kategoriler"]
    assert [k["slug"] for k in kategoriler] == ["bos", "odeme"]
    assert kategoriler[1] == {"id": merkez.id, "ad": "Ödeme ve Fatura", "slug": "odeme", "aciklama": "", "sira": 1,
                              "makale_sayisi": 1}


@pytest.mark.parametrize("adet", [0, 1, 12])
def test_categories_query_count_flat(widget, musteri, django_assert_max_num_queries, adet):
    for i in range(adet):
        k = kb_kategori_kaydet(musteri=musteri, slug=f"k{i}", ad=f"K {i}")
        makale(musteri, f"m{i}", f"Makale {i}", kategori=k)
    with django_assert_max_num_queries(2):
        assert len(ok(widget.get(f"{KB}/categories"))["kategoriler"]) == adet


@pytest.mark.parametrize("adet", [0, 1, 12])
def test_search_query_count_flat(widget, musteri, django_assert_max_num_queries, adet):
    k = kb_kategori_kaydet(musteri=musteri, slug="k", ad="K")
    for i in range(adet):
        makale(musteri, f"m{i}", f"Fatura {i}", "<p>fatura bilgisi</p>", kategori=k)
    with django_assert_max_num_queries(2):
        assert len(ok(widget.get(f"{KB}/search", {"q": "fatura"}))["makaleler"]) == adet
    with django_assert_max_num_queries(2):
        assert len(ok(widget.get(f"{KB}/search", {"q": ""}))["makaleler"]) == adet


def test_kb_requires_api_key(api):
    for path in ["/search?q=a", "/categories", "/article/x"]:
        res = api.get(KB + path)
        assert res.status_code == 401 and res.json()["basarili"] is False


def test_slug_unique_per_tenant_and_update(musteri, diger_musteri):
    a = makale(musteri, "ayni", "Bir")
    makale(diger_musteri, "ayni", "Başka proje")
    b = makale(musteri, "ayni", "İki", icerik="<p>yeni</p>")
    assert a.pk == b.pk and KbMakale.objects.filter(musteri=musteri).count() == 1
    assert KbMakale.objects.get(pk=a.pk).baslik == "İki"


def test_foreign_category_refused(musteri, diger_musteri):
    from supportdesk.core.exceptions import GecersizIstek

    yabanci = kb_kategori_kaydet(musteri=diger_musteri, slug="y", ad="Y")
    with pytest.raises(GecersizIstek):
        makale(musteri, "m", "M", kategori=yabanci)
    assert KbMakale.objects.count() == 0


def test_question_words_do_not_hide_results(widget, merkez):
    assert ara(widget, "kargom nerede")[0] == "kargo-takibi"


def test_more_matching_words_rank_higher(widget, musteri):
    makale(musteri, "iki", "Kargo ve iade", "<p>kargo iade</p>")
    makale(musteri, "bir", "Kargo", "<p>kargo</p>")
    assert ara(widget, "kargo iade")[0] == "iki"


def test_snippet_keeps_original_letters(widget, musteri):
    makale(musteri, "igdir-kargo", "Teslimat", "<p>Teslimat IĞDIR ve İzmir için iki gün sürer.</p>")
    vurgu = ok(widget.get(f"{KB}/search", {"q": "ığdır"}))["makaleler"][0]["vurgu"]
    assert "<mark>IĞDIR</mark>" in vurgu and "İzmir" in vurgu


def test_title_beats_body_repeating_the_word(widget, musteri):
    makale(musteri, "govde", "Kargo bilgisi", "<p>" + " ".join(["iade"] * 40) + " iadesi iadeler</p>")
    makale(musteri, "baslik", "İade politikası", "<p>Ürünleri geri gönderme kuralları.</p>")
    assert ara(widget, "iade") == ["baslik", "govde"]


# --- audit additions -----------------------------------------------------------------------------
@pytest.mark.parametrize(("q", "slug"), [
    # Snowball's Turkish stemmer cuts a bare word and its inflections differently ("iade" → `ia`,
    # "iadeler" → `iade`; "ürün" → `ür`, "ürünler" → `ürün`): every form must still find it.
    ("iadeler", "iade-politikasi"), ("iademi", "iade-politikasi"), ("İADELERİM", "iade-politikasi"),
    ("ürünler", "urun-degisimi"), ("ürünümü", "urun-degisimi"),
    ("faturası", "fatura-odeme"), ("faturalarım", "fatura-odeme"), ("ödemelerim", "fatura-odeme"),
])
def test_inflected_query_finds_bare_word(widget, musteri, q, slug):
    makale(musteri, "iade-politikasi", "İade politikası", "<p>İade için 14 gününüz var.</p>")
    makale(musteri, "urun-degisimi", "Ürün değişimi", "<p>Ürün kutusunu saklayın.</p>")
    makale(musteri, "fatura-odeme", "Fatura ve ödeme", "<p>Fatura ödeme ile gelir.</p>")
    makale(musteri, "baska", "Şifre sıfırlama", "<p>Giriş ekranından yeni şifre alın.</p>")
    sonuc = ok(widget.get(f"{KB}/search", {"q": q}))["makaleler"]
    assert [m["slug"] for m in sonuc] == [slug], sonuc
    assert "<mark>" in sonuc[0]["vurgu"], sonuc[0]["vurgu"]


def test_title_match_above_body_match_for_inflected_query(widget, musteri):
    makale(musteri, "govdede", "Kargo süreleri", "<p>Kargo ile gelen ürünlerin iadesi ücretsizdir.</p>")
    makale(musteri, "baslikta", "İade", "<p>Kutuyu saklayın.</p>")
    assert ara(widget, "iadeler") == ["baslikta", "govdede"]


@pytest.mark.parametrize("yol", ["/api/v1/widget/kb/search?q=fatura", "/api/v1/widget/kb/categories",
                                 "/api/v1/widget/kb/article/yok", "/api/v1/widget/campaigns"])
def test_kb_and_campaign_calls_name_the_visitor(musteri, yol):
    # CONTRACT 2: every widget call names its ziyaretci_id, GETs in the query string.
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=musteri.api_key)
    body = hata(client.get(yol), 400, "GECERSIZ_ISTEK")
    assert set(body["hata"]["alanlar"]) == {"ziyaretci_id"}
    ayrac = "&" if "?" in yol else "?"
    assert client.get(f"{yol}{ayrac}ziyaretci_id=%20").status_code == 400
