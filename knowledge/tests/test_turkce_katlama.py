"""Issue 24: a search typed without Turkish letters ("sifre", "ozturk") finds the text written
with them, and the other way round, on SQLite as on PostgreSQL (the suite runs on both)."""
import pytest

from knowledge.services import kb_makale_kaydet

from .yardimci import ziyaretci_istemcisi

pytestmark = pytest.mark.django_db
ARA = "/api/v1/widget/kb/search"


def _ara(client, q):
    res = client.get(ARA, {"q": q})
    assert res.status_code == 200, res.content
    assert res.json()["basarili"] is True
    return res.json()["data"]["makaleler"]


@pytest.fixture
def widget(musteri):
    kb_makale_kaydet(musteri=musteri, slug="sifre-sifirlama", baslik="Şifre sıfırlama", yayinda=True,
                     icerik="<p>Giriş ekranından yeni şifrenizi alın; Öztürk Ltd. hesabı da böyle.</p>")
    kb_makale_kaydet(musteri=musteri, slug="kargo", baslik="Kargo takibi", yayinda=True,
                     icerik="<p>Siparişiniz yolda.</p>")
    return ziyaretci_istemcisi(musteri)


@pytest.mark.parametrize("q", ["şifre", "sifre", "ŞİFRE", "SIFRE", "Şifremi", "sifremi", "sıfırlama", "sifirlama",
                               "SIFIRLAMA", "ozturk", "ÖZTÜRK", "giris ekrani"])
def test_search_ignores_turkish_letters_and_case(widget, q):
    sonuc = _ara(widget, q)
    assert [m["slug"] for m in sonuc] == ["sifre-sifirlama"], (q, sonuc)
    if q not in ("sıfırlama", "sifirlama", "SIFIRLAMA"):  # title only; the rest are in the body, marked
        assert "<mark>" in sonuc[0]["vurgu"], sonuc[0]["vurgu"]


def test_snippet_marks_the_original_letters(widget):
    vurgu = _ara(widget, "sifrenizi")[0]["vurgu"]
    assert "<mark>şifrenizi</mark>" in vurgu, vurgu
    vurgu = _ara(widget, "ozturk")[0]["vurgu"]
    assert "<mark>Öztürk</mark>" in vurgu, vurgu
