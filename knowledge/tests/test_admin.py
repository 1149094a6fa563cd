import pytest
from django.test import Client

from knowledge.models import Kampanya, KbKategori, KbMakale
from tenants.models import Kullanici

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client():
    user = Kullanici.objects.create_superuser(email="admin@ornek.com", password="x")
    client = Client()
    client.force_login(user)
    return client


def test_admin_article_saved_through_service(admin_client, musteri, widget):
    kategori = KbKategori.objects.create(musteri=musteri, ad="Ödeme", slug="odeme")
    res = admin_client.post("/admin/knowledge/kbmakale/add/", {
        "musteri": musteri.id, "kategori": kategori.id, "baslik": "Fatura iptali", "slug": "fatura-iptali",
        "ozet": "", "icerik": "<p onclick='x()'>Faturanızı iptal <script>x()</script>edin.</p>", "yayinda": "on",
        "sira": 0,
    })
    assert res.status_code == 302, res.content[:500]
    makale = KbMakale.objects.get()
    assert "script" not in makale.icerik and "onclick" not in makale.icerik
    found = widget.get("/api/v1/widget/kb/search", {"q": "faturamı"}).json()["data"]["makaleler"]
    assert [m["slug"] for m in found] == ["fatura-iptali"]


def test_admin_refuses_other_tenants_category(admin_client, musteri, diger_musteri):
    yabanci = KbKategori.objects.create(musteri=diger_musteri, ad="Y", slug="y")
    res = admin_client.post("/admin/knowledge/kbmakale/add/", {
        "musteri": musteri.id, "kategori": yabanci.id, "baslik": "B", "slug": "b", "icerik": "", "sira": 0,
    })
    assert res.status_code == 200 and KbMakale.objects.count() == 0


def test_admin_campaign_and_lists(admin_client, musteri):
    res = admin_client.post("/admin/knowledge/kampanya/add/", {
        "musteri": musteri.id, "baslik": "Kış", "icerik": "", "gorsel_url": "", "buton_metni": "", "buton_url": "",
        "baslangic_0": "2026-11-01", "baslangic_1": "00:00:00", "bitis_0": "2026-12-01", "bitis_1": "00:00:00",
        "aktif": "on", "olusturulma_0": "2026-11-01", "olusturulma_1": "00:00:00",
    })
    assert res.status_code == 302, res.content[:1500]
    assert Kampanya.objects.get().baslik == "Kış"
    for url in ["/admin/knowledge/kbkategori/", "/admin/knowledge/kbmakale/", "/admin/knowledge/kampanya/",
                "/admin/tickets/ticket/", "/admin/dosyalar/dosya/"]:
        assert admin_client.get(url).status_code == 200, url
