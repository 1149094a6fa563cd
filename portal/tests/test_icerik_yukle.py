import json

import pytest
from django.core.management import CommandError, call_command

from knowledge.models import Kampanya, KbKategori, KbMakale
from knowledge.tests.yardimci import ziyaretci_istemcisi

pytestmark = pytest.mark.django_db


@pytest.fixture
def widget(musteri):
    # The help center's visitor client (its GETs name the visitor), as in the knowledge tests.
    return ziyaretci_istemcisi(musteri)

ICERIK = {
    "kb_kategorileri": [
        {"ad": "Ödeme", "slug": "odeme", "aciklama": "Fatura ve ödeme", "sira": 0},
        {"ad": "Kargo", "slug": "kargo", "sira": 1},
    ],
    "kb_makaleleri": [
        {"baslik": "Fatura nasıl indirilir?", "slug": "fatura-indir", "kategori_slug": "odeme", "yayinda": True,
         "ozet": "PDF fatura", "icerik": "<p>Faturalar sayfasından <script>x()</script>indirin.</p>"},
        {"baslik": "Taslak", "slug": "taslak", "yayinda": False, "icerik": "<p>gizli</p>"},
    ],
    "kampanyalar": [
        {"baslik": "Kış indirimi", "icerik": "%20", "baslangic": "2026-01-01T00:00:00+03:00",
         "bitis": "2099-01-01T00:00:00+03:00", "buton_metni": "İncele", "buton_url": "https://ornek.com"},
    ],
    "hazir_yanitlar": [{"kisayol": "/selam", "baslik": "Selam", "icerik": "Merhaba, nasıl yardımcı olabilirim?"}],
}


def yaz(tmp_path, veri, ad="icerik.json") -> str:
    yol = tmp_path / ad
    yol.write_text(json.dumps(veri, ensure_ascii=False) if not isinstance(veri, str) else veri, encoding="utf-8")
    return str(yol)


def calistir(*args) -> dict:
    from io import StringIO

    out = StringIO()
    call_command("icerik_yukle", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_imports_everything_and_is_idempotent(tmp_path, musteri, widget):
    yol = yaz(tmp_path, ICERIK)
    beklenen = {"kb_kategorileri": 2, "kb_makaleleri": 2, "kampanyalar": 1, "hazir_yanitlar": 1}
    assert calistir("--musteri", str(musteri.id), yol) == beklenen
    assert calistir("--musteri", str(musteri.id), yol) == beklenen
    assert KbKategori.objects.filter(musteri=musteri).count() == 2
    assert KbMakale.objects.filter(musteri=musteri).count() == 2
    assert Kampanya.objects.filter(musteri=musteri).count() == 1
    makale = KbMakale.objects.get(slug="fatura-indir")
    assert makale.kategori.slug == "odeme" and "script" not in makale.icerik
    res = widget.get("/api/v1/widget/kb/search", {"q": "faturamı"}).json()
    assert [m["slug"] for m in res["data"]["makaleler"]] == ["fatura-indir"]
    assert [k["baslik"] for k in widget.get("/api/v1/widget/campaigns").json()["data"]["kampanyalar"]] == ["Kış indirimi"]
    from chat.models import HazirYanit

    assert HazirYanit.objects.filter(musteri=musteri).count() == 1


def test_only_some_kinds(tmp_path, musteri):
    yol = yaz(tmp_path, {"kb_kategorileri": [{"ad": "A", "slug": "a"}]})
    assert calistir("--musteri", str(musteri.id), yol) == {
        "kb_kategorileri": 1, "kb_makaleleri": 0, "kampanyalar": 0, "hazir_yanitlar": 0}


@pytest.mark.parametrize("veri", [
    "{bozuk",
    "[]",
    {"bilinmeyen": []},
    {"kb_kategorileri": {"ad": "A"}},
    {"kb_kategorileri": ["metin"]},
    {"kb_kategorileri": [{"ad": "A", "slug": "boşluk var"}]},
    {"kb_makaleleri": [{"baslik": "M", "slug": "m", "kategori_slug": "yok"}]},
    {"kb_makaleleri": [{"baslik": "", "slug": "m"}]},
    {"kampanyalar": [{"baslik": "K", "baslangic": "2026-01-01", "bitis": "2027-01-01T00:00:00+03:00"}]},
    {"kampanyalar": [{"baslik": "K", "baslangic": "2027-01-01T00:00:00Z", "bitis": "2026-01-01T00:00:00Z"}]},
    {"kampanyalar": [{"baslik": "K", "baslangic": "2026-13-01T00:00:00Z", "bitis": "2027-01-01T00:00:00Z"}]},
    {"kb_kategorileri": [{"ad": "A", "slug": "a"}], "hazir_yanitlar": [{"kisayol": ""}]},
])
def test_bad_file_changes_nothing(tmp_path, musteri, veri):
    yol = yaz(tmp_path, veri)
    with pytest.raises(CommandError) as exc:
        call_command("icerik_yukle", "--musteri", str(musteri.id), yol, "--json")
    assert "\n" not in str(exc.value)
    assert KbKategori.objects.count() == 0 and KbMakale.objects.count() == 0 and Kampanya.objects.count() == 0


def test_unknown_tenant_and_missing_file(tmp_path, musteri):
    with pytest.raises(CommandError):
        call_command("icerik_yukle", "--musteri", "999999", yaz(tmp_path, ICERIK))
    with pytest.raises(CommandError):
        call_command("icerik_yukle", "--musteri", str(musteri.id), str(tmp_path / "yok.json"))


@pytest.mark.parametrize("musteri_id", ["0", "-3", str(2**63), str(10**30)])
def test_an_id_no_tenant_can_have_is_unknown_not_a_crash(tmp_path, musteri_id):
    # Beyond bigint SQLite could not even bind it: the same one-line "not found" as any other id.
    with pytest.raises(CommandError, match="Proje bulunamadı"):
        call_command("icerik_yukle", "--musteri", musteri_id, yaz(tmp_path, ICERIK))
