"""Issue 39.8: `/portal/gizlilik` gathers retention, a visitor look-up for export and erasure, and
the audit log; retention left the routing page; the old audit address sends here."""
import pytest

from supportdesk.testing.fixtures import operator_yap
from tenants.models import Musteri

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
URL = "/portal/gizlilik"


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def test_the_page_holds_retention_the_visitor_look_up_and_the_audit_log(sahip):
    res = sahip.get(URL)
    html = res.content.decode()
    assert res.status_code == 200
    for parca in ('data-test="saklama"', 'name="saklama_gun"', 'data-test="ziyaretci-bul"', 'name="ziyaretci"',
                  'id="denetim"', 'data-test="denetim"', 'href="/portal/gizlilik"'):
        assert parca in html, parca
    assert "Şu an: süresiz saklanır." in html
    # the routing page no longer holds retention, and says where it went
    yon = sahip.get("/portal/yonlendirme").content.decode()
    assert 'name="saklama_gun"' not in yon and 'data-test="saklama-tasindi"' in yon and 'href="/portal/gizlilik"' in yon


def test_retention_is_saved_checked_and_emptied(musteri, sahip):
    res = sahip.post(URL, {"saklama_gun": "90"})
    assert res.status_code == 302 and res["Location"] == URL
    assert Musteri.objects.get(pk=musteri.pk).saklama_gun == 90
    assert "son etkinlikten 90 gün sonra silinir" in sahip.get(URL).content.decode()
    for kotu in ("10", "3651", "on", "-5", "9" * 12):
        res = sahip.post(URL, {"saklama_gun": kotu})
        html = res.content.decode()
        assert res.status_code == 400, kotu
        assert 'data-hata="saklama_gun"' in html and f'value="{kotu}"' in html
        assert Musteri.objects.get(pk=musteri.pk).saklama_gun == 90
    assert sahip.post(URL, {"saklama_gun": ""}).status_code == 302
    assert Musteri.objects.get(pk=musteri.pk).saklama_gun is None


def test_saving_the_routing_page_leaves_retention_alone(musteri, sahip):
    sahip.post(URL, {"saklama_gun": "120"})
    form = {"saat_dilimi": "Europe/Istanbul", "atama_modu": "manuel", "tatiller": "", "mesai_disi_mesaji": "",
            "bekleme_zaman_asimi_dk": "10", "sessiz_kapatma_dk": "30", "yeniden_atama_dk": "", "dil": "tr",
            "her_zaman_acik": "1", "saklama_gun": ""}
    assert sahip.post("/portal/yonlendirme", form).status_code == 302
    assert Musteri.objects.get(pk=musteri.pk).saklama_gun == 120


def test_the_visitor_look_up_opens_the_visitors_page(sahip):
    res = sahip.get(URL, {"ziyaretci": "  z_abc/1 "})
    assert res.status_code == 302 and res["Location"] == "/portal/ziyaretci/z_abc/1"
    html = sahip.get(res["Location"]).content.decode()
    assert 'data-test="disa-aktar"' in html and 'data-test="sil"' in html and 'href="/portal/gizlilik#ziyaretci"' in html


def test_the_old_audit_address_sends_here_with_its_filters(sahip):
    res = sahip.get("/portal/denetim", {"eylem": "giris", "cursor": "abc"})
    assert res.status_code == 302
    assert res["Location"] == "/portal/gizlilik?eylem=giris&cursor=abc#denetim"
    assert sahip.get("/portal/denetim")["Location"] == "/portal/gizlilik#denetim"


@pytest.mark.parametrize("rol", ["operator"])
def test_an_operator_member_may_not_open_or_post(musteri, rol):
    t = giris_yapmis(operator_yap(musteri, rol=rol))
    assert t.get(URL).status_code == 403
    assert t.post(URL, {"saklama_gun": "90"}).status_code == 403
    assert Musteri.objects.get(pk=musteri.pk).saklama_gun is None
    assert 'href="/portal/gizlilik"' not in t.get("/portal/").content.decode()


def test_another_projects_retention_is_untouched(musteri, diger_musteri, sahip):
    sahip.post(URL, {"saklama_gun": "60"})
    assert Musteri.objects.get(pk=diger_musteri.pk).saklama_gun is None
