"""The development demo host page `/demo/` (issue 8)."""
import pytest

from supportdesk.testing.factories import MusteriFactory

pytestmark = pytest.mark.django_db


def test_demo_sayfasi_ilk_demo_projesinin_anahtariyla_widgeti_yukler(client, settings):
    settings.DEBUG = True
    ilk = MusteriFactory(firma_adi="Anadolu Yazılım")
    MusteriFactory(firma_adi="Anadolu Yazılım")  # a later namesake is not the demo tenant
    res = client.get("/demo/")
    assert res.status_code == 200, res.content
    html = res.content.decode()
    assert f'data-api-key="{ilk.api_key}"' in html
    assert "/static/widget/widget.js" in html
    assert ilk.api_secret not in html
    assert "all: unset" not in html
    # The operator side: a link to the console, never a password on the page (issue 15).
    assert 'href="/panel/"' in html and "Destek2026!" not in html


def test_demo_sayfasi_dusmanca_css_secenegi(client, settings):
    settings.DEBUG = True
    MusteriFactory(firma_adi="Anadolu Yazılım")
    html = client.get("/demo/?dusmanca=1").content.decode()
    assert "* { all: unset; }" in html and "display: none !important" in html


def test_demo_verisi_yoksa_yol_gosterir(client, settings):
    settings.DEBUG = True
    res = client.get("/demo/")
    assert res.status_code == 503
    assert "demo_verisi" in res.content.decode() and "widget.js" not in res.content.decode()


def test_demo_sayfasi_gelistirme_disinda_yok(client, settings):
    settings.DEBUG = False
    MusteriFactory(firma_adi="Anadolu Yazılım")
    assert client.get("/demo/").status_code == 404


def test_kok_adres_portala_yonlendirir(client):
    res = client.get("/")
    assert res.status_code == 302 and res.headers["Location"] == "/portal/"


def test_widget_betigi_statik_olarak_sunulur():
    from django.contrib.staticfiles import finders

    yol = finders.find("widget/widget.js")
    assert yol is not None
    metin = open(yol, encoding="utf-8").read()
    # Server text is inserted as text: the only innerHTML-like parsing is DOMParser for the
    # sanitized article body and search snippets, never innerHTML on the live document.
    assert "innerHTML" not in metin and "insertAdjacentHTML" not in metin and "eval(" not in metin


def test_demo_sayfasi_demo_projeleri_arasinda_gecer(client, settings):
    settings.DEBUG = True
    anadolu, ege, bogazici = (MusteriFactory(firma_adi=ad) for ad in ("Anadolu Yazılım", "Ege Market", "Boğaziçi Bulut"))
    baska = MusteriFactory(firma_adi="Başka Firma")

    html = client.get("/demo/").content.decode()
    assert f'data-api-key="{anadolu.api_key}"' in html  # the first one without a choice
    assert 'data-test="demo-proje-sec"' in html
    for m in (anadolu, ege, bogazici):
        assert f'<option value="{m.id}"' in html
    assert f'<option value="{anadolu.id}" selected>' in html and baska.firma_adi not in html

    res = client.get(f"/demo/?proje={ege.id}")
    assert res.status_code == 200
    html = res.content.decode()
    assert f'data-api-key="{ege.api_key}"' in html and anadolu.api_key not in html
    assert f'<option value="{ege.id}" selected>' in html
    assert f'href="/demo/?proje={ege.id}#urunler"' in html  # a reload keeps the project
    assert "<title>Ege Market · Demo site</title>" in html

    # Only the demo projects: another tenant's id, an unknown one or garbage is a 404.
    for deger in (baska.id, 999999, "abc", ""):
        assert client.get("/demo/", {"proje": deger}).status_code == 404
    settings.DEBUG = False
    assert client.get(f"/demo/?proje={ege.id}").status_code == 404
