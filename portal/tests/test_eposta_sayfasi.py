"""/portal/eposta: the project's inbound address with forwarding help, and the member's own
"new ticket" e-mail switch (CONTRACT 14)."""
import pytest

from eposta.tokenlar import adres_coz
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Uyelik

from .yardimci import Tarayici, giris_yapmis

pytestmark = pytest.mark.django_db


def test_inbound_address_and_own_alert_switch(musteri, diger_musteri):
    user = operator_yap(musteri, rol="operator")
    t = giris_yapmis(user)
    sayfa = t.get("/portal/eposta").content.decode()
    adres = sayfa.split('data-test="gelen-adresi">')[1].split("<")[0]
    assert adres_coz(adres) == ("m", musteri.id)
    assert "Yönlendirme" in sayfa and "Durum: <strong>Kapalı</strong>" in sayfa

    res = t.post("/portal/eposta", {"eposta_bildirimi": "1"})
    assert res.status_code == 302
    assert Uyelik.objects.get(kullanici=user, musteri=musteri).eposta_bildirimi is True
    assert "Durum: <strong>Açık</strong>" in t.get("/portal/eposta").content.decode()
    t.post("/portal/eposta", {"eposta_bildirimi": "0"})
    assert Uyelik.objects.get(kullanici=user, musteri=musteri).eposta_bildirimi is False


def test_the_page_needs_a_login():
    res = Tarayici().get("/portal/eposta")
    assert res.status_code == 302 and "/portal/giris" in res["Location"]


def test_team_page_shows_each_members_alerts_and_switches_ones_own(musteri):
    sahip_user = operator_yap(musteri, rol="sahip")
    diger = operator_yap(musteri, rol="operator")
    t = giris_yapmis(sahip_user)
    sahip_uyelik = Uyelik.objects.get(kullanici=sahip_user)
    diger_uyelik = Uyelik.objects.get(kullanici=diger)
    sayfa = t.get("/portal/ekip").content.decode()
    assert f'data-eposta-bildirimi="{sahip_uyelik.id}">Açık' in sayfa
    assert f'data-eposta-bildirimi="{diger_uyelik.id}">Kapalı' in sayfa
    res = t.post("/portal/eposta", {"eposta_bildirimi": "0", "geri": "ekip"})
    assert res.status_code == 302 and res["Location"] == "/portal/ekip"
    assert f'data-eposta-bildirimi="{sahip_uyelik.id}">Kapalı' in t.get("/portal/ekip").content.decode()
