"""The portal's teams page (CONTRACT 22): `/portal/ekipler`, linked from the members page; create,
rename, members, mode, widget flag and delete by `sahip`/`yonetici`; every member may look; another
project's team is 404; bad input is a visible error, nothing saved."""
import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants import ekipler
from tenants.models import Ekip

from .yardimci import AKTIF, giris_yapmis

pytestmark = pytest.mark.django_db


def _tarayici(musteri, rol):
    user = operator_yap(musteri, rol=rol)
    t = giris_yapmis(user)
    return user, t


def test_an_owner_creates_changes_and_deletes_a_team_from_the_portal(musteri):
    sahip, t = _tarayici(musteri, "sahip")
    op = operator_yap(musteri)
    sayfa = t.get("/portal/ekip").content.decode()
    assert 'href="/portal/ekipler"' in sayfa
    res = t.post("/portal/ekipler", {"ad": "Satış", "atama_modu": "sirayla", "widgetta_secilir": "1",
                                     "uyeler": [op.id, sahip.id]})
    assert res.status_code == 302
    ekip = Ekip.objects.get(musteri=musteri)
    assert (ekip.ad, ekip.atama_modu, ekip.widgetta_secilir) == ("Satış", "sirayla", True)
    assert sorted(ekip.uyelikler.values_list("kullanici_id", flat=True)) == sorted([op.id, sahip.id])
    sayfa = t.get("/portal/ekipler").content.decode()
    assert f'data-ekip="{ekip.id}"' in sayfa and "Satış" in sayfa
    t.post(f"/portal/ekipler/{ekip.id}", {"islem": "guncelle", "ad": "Satış Ekibi", "atama_modu": "", "uyeler": [op.id]})
    ekip.refresh_from_db()
    assert (ekip.ad, ekip.atama_modu, ekip.widgetta_secilir) == ("Satış Ekibi", None, False)
    assert list(ekip.uyelikler.values_list("kullanici_id", flat=True)) == [op.id]
    t.post(f"/portal/ekipler/{ekip.id}", {"islem": "sil"})
    assert not Ekip.objects.filter(pk=ekip.pk).exists()


def test_bad_input_is_shown_and_saves_nothing(musteri):
    _, t = _tarayici(musteri, "yonetici")
    yabanci = operator_yap(MusteriFactory())
    ekipler.ekip_olustur(musteri_id=musteri.id, ad="İade")
    for govde in ({"ad": "iade"}, {"ad": ""}, {"ad": "Yeni", "uyeler": [yabanci.id]}, {"ad": "Yeni", "atama_modu": "x"}):
        res = t.post("/portal/ekipler", govde, follow=True)
        assert res.status_code == 200 and "bildirim-error" in res.content.decode(), govde
    assert list(Ekip.objects.values_list("ad", flat=True)) == ["İade"]


def test_a_plain_operator_sees_the_teams_but_may_not_change_them(musteri):
    ekip = ekipler.ekip_olustur(musteri_id=musteri.id, ad="Satış")
    _, t = _tarayici(musteri, "operator")
    sayfa = t.get("/portal/ekipler")
    assert sayfa.status_code == 200 and "Satış" in sayfa.content.decode() and 'name="ad"' not in sayfa.content.decode()
    assert t.post("/portal/ekipler", {"ad": "Yeni"}).status_code == 403
    assert t.post(f"/portal/ekipler/{ekip.id}", {"islem": "sil"}).status_code == 403
    assert Ekip.objects.filter(musteri=musteri).count() == 1


def test_another_projects_team_is_404(musteri):
    baska = ekipler.ekip_olustur(musteri_id=MusteriFactory().id, ad="Gizli")
    _, t = _tarayici(musteri, "sahip")
    assert t.post(f"/portal/ekipler/{baska.id}", {"islem": "sil"}).status_code == 404
    assert t.post(f"/portal/ekipler/{baska.id}", {"islem": "guncelle", "ad": "X"}).status_code == 404
    assert Ekip.objects.get(pk=baska.pk).ad == "Gizli"
    assert AKTIF in t.session
