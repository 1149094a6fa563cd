"""Small things a new user sees on day one (issue 13), each through HTTP."""
import re
from io import StringIO

import pytest
from django.core.management import call_command

from supportdesk.testing.fixtures import operator_yap
from tenants.models import Uyelik

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db


def _metin(html: str) -> str:
    """What a reader sees: the page without tags and attributes."""
    return re.sub(r"<[^>]+>", " ", html)


def test_demo_verisi_sahibi_operator_diye_anmaz(monkeypatch):
    for ad in ("LC_ALL", "LANGUAGE"):
        monkeypatch.delenv(ad, raising=False)
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")  # the summary in Turkish (issue 39.9: the shell's language)
    out = StringIO()
    call_command("demo_verisi", stdout=out)
    satirlar = out.getvalue().splitlines()
    [sahip] = [s for s in satirlar if "sahip@demo.local" in s]
    assert sahip.split()[0] == "sahip" and "operatör" not in sahip
    [operator] = [s for s in satirlar if "operator@demo.local" in s]
    assert operator.split()[0] == "operatör"


def test_kullanici_menusu_e_postayi_buyutmez(musteri):
    user = operator_yap(musteri, email="ayse.yilmaz@ornek.com")
    html = giris_yapmis(user).get("/portal/").content.decode()
    [baslik] = re.findall(r'<div class="menu-baslik([^"]*)">([^<]*)</div>', html)
    assert "eposta" in baslik[0] and user.email in baslik[1]
    # Drawn as typed (no upper case): in Chromium, portal/tests/test_csp_tarayici.py.


def test_sifre_her_yerde_sifre_parola_degil(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    sayfa = t.get("/portal/sifre").content.decode()
    hatali = t.post("/portal/sifre", {"old_password": "yanlis", "new_password1": "123", "new_password2": "456"})
    kisa = t.post("/portal/sifre", {"old_password": "yanlis", "new_password1": "12", "new_password2": "12"})
    kayit = t.post("/portal/kayit", {"email": "yeni@ornek.com", "sifre": "123", "firma_adi": "X"})
    for html in (sayfa, hatali.content.decode(), kisa.content.decode(), kayit.content.decode()):
        assert "parola" not in _metin(html).lower()
    assert "Şifre" in _metin(sayfa) and "şifre" in _metin(hatali.content.decode()).lower()


def test_imzali_kimlik_kutusu_ham_alan_adiyla_etiketlenmez(musteri):
    user = operator_yap(musteri, rol=Uyelik.Rol.SAHIP)
    html = giris_yapmis(user).get("/portal/widget").content.decode()
    assert 'name="kimlik_dogrulama_zorunlu"' in html
    assert "kimlik_dogrulama_zorunlu" not in _metin(html)


def test_favicon_sunulur(client):
    res = client.get("/favicon.ico")
    assert res.status_code == 200 and res["Content-Type"] == "image/x-icon"
    assert b"".join(res.streaming_content)[:4] == b"\x00\x00\x01\x00"
    assert '<link rel="icon" href="/favicon.ico">' in client.get("/portal/giris").content.decode()


def test_redoc_internete_gitmez(client):
    html = client.get("/api/v1/redoc/").content.decode()
    assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", html), html
    betikler = re.findall(r'<script src="([^"]+)"', html)
    assert len(betikler) == 2 and "<script>" not in html  # the bundle and its init, nothing inline
    for betik in betikler:
        assert client.get(betik).status_code == 200
