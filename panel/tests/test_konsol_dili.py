"""The console's language over HTTP (CONTRACT 19): `/panel/` in the browser's language, the
session's `dil` (the member's own, else the browser's, else `tr`), and the console's own server
messages in English and Turkish."""
import pytest
from rest_framework.test import APIClient

from chat.models import HazirYanit
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import giris_yap, operator_yap

pytestmark = pytest.mark.django_db
GIRIS, OTURUM = "/api/v1/panel/giris", "/api/v1/panel/oturum"


def uye(musteri, dil=""):
    user = operator_yap(musteri)
    user.dil = dil
    user.save(update_fields=["dil"])
    return user


def giris(user, **basliklar):
    client = APIClient()
    res = client.post(GIRIS, {"email": user.email, "sifre": TEST_SIFRE}, format="json", **basliklar)
    assert res.status_code == 200, res.content
    return client, res.json()["data"]


@pytest.mark.parametrize(("basliklar", "lang", "baslik"), [
    ({}, "tr", "Operatör konsolu"),
    ({"HTTP_ACCEPT_LANGUAGE": "tr-TR,tr;q=0.9"}, "tr", "Operatör konsolu"),
    ({"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}, "en", "Operator console"),
    ({"HTTP_ACCEPT_LANGUAGE": "de-DE,en;q=0.5"}, "en", "Operator console"),
    ({"HTTP_ACCEPT_LANGUAGE": "de-DE"}, "tr", "Operatör konsolu"),
])
def test_sayfa_tarayicinin_dilinde(client, basliklar, lang, baslik):
    res = client.get("/panel/", **basliklar)
    html = res.content.decode()
    assert f'<html lang="{lang}">' in html and f"<title>{baslik}</title>" in html
    assert res["Content-Language"] == lang and "Accept-Language" in res["Vary"]


def test_uyenin_kendi_dili_tarayicininkini_ezer(musteri):
    user = uye(musteri, "en")
    client, veri = giris(user, HTTP_ACCEPT_LANGUAGE="tr-TR")
    assert veri["dil"] == "en"
    assert client.get(OTURUM, HTTP_ACCEPT_LANGUAGE="tr").json()["data"]["dil"] == "en"
    user.dil = "tr"
    user.save(update_fields=["dil"])
    assert giris(user, HTTP_ACCEPT_LANGUAGE="en-US")[1]["dil"] == "tr"


@pytest.mark.parametrize(("basliklar", "dil"), [
    ({"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}, "en"), ({"HTTP_ACCEPT_LANGUAGE": "tr"}, "tr"), ({}, "tr"),
    ({"HTTP_ACCEPT_LANGUAGE": "fr"}, "tr"),
])
def test_secmemis_uye_tarayicinin_dilinde(musteri, basliklar, dil):
    client, veri = giris(uye(musteri), **basliklar)
    assert veri["dil"] == dil
    assert client.get(OTURUM, **basliklar).json()["data"]["dil"] == dil


def test_konsolun_sunucu_mesaji_iki_dilde(musteri):
    user = uye(musteri)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    yanit = HazirYanit.objects.create(musteri=musteri, kisayol="/selam", baslik="Selam", icerik="Merhaba")
    url = f"/api/v1/operator/canned-responses/{yanit.id}/doldur"
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en-US").json()["hata"]
    tr = client.get(url, HTTP_ACCEPT_LANGUAGE="tr").json()["hata"]
    assert en["kod"] == tr["kod"] == "GECERSIZ_ISTEK"
    assert "Give exactly one of oturum_id or ticket_id (a positive integer)." in str(en["alanlar"]["oturum_id"])
    assert "Tam olarak biri verilmeli" in str(tr["alanlar"]["oturum_id"])
