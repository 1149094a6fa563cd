"""The wave-4 portal pages (`/portal/ekipler`, `/portal/kurallar`, `/portal/kisiler`) checked from
outside: login required, CSRF on every POST, another project's ids 404, and a rule whose JSON
carries a lone surrogate is a form error, not a 500."""
import json

import pytest

from otomasyon.models import Kural
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants import ekipler
from tenants.models import Ekip

from .yardimci import AKTIF, Tarayici, giris_yapmis

pytestmark = pytest.mark.django_db
SAYFALAR = ["/portal/ekipler", "/portal/kurallar", "/portal/kisiler"]


@pytest.mark.parametrize("sayfa", SAYFALAR)
def test_an_anonymous_visitor_is_sent_to_the_login(sayfa):
    res = Tarayici().get(sayfa)
    assert res.status_code == 302 and res["Location"].startswith("/portal/giris"), res
    res = Tarayici().post(sayfa, {"ad": "Sızma"})
    assert res.status_code in (302, 403), res
    assert not Ekip.objects.exists() and not Kural.objects.exists()


@pytest.mark.parametrize(("sayfa", "veri"), [
    ("/portal/ekipler", {"ad": "CSRF"}),
    ("/portal/kurallar", {"ad": "CSRF", "olay": "chat_baslatildi", "aktif": "1", "sira": "0", "kosullar": "[]",
                          "eylemler": json.dumps([{"tur": "kapat"}])}),
    ("/portal/kisiler", {}),
])
def test_every_post_needs_the_csrf_token(musteri, sayfa, veri):
    t = giris_yapmis(operator_yap(musteri, rol="sahip"))
    res = t.post(sayfa, veri, csrf=False)
    assert res.status_code == 403
    assert not Ekip.objects.exists() and not Kural.objects.exists()


def test_another_projects_ids_are_404_and_its_project_cannot_be_chosen(musteri):
    baska = MusteriFactory()
    ekip = ekipler.ekip_olustur(musteri_id=baska.id, ad="Gizli")
    kural = Kural.objects.create(musteri=baska, ad="Gizli", olay="chat_baslatildi", eylemler=[{"tur": "kapat"}])
    t = giris_yapmis(operator_yap(musteri, rol="sahip"))
    assert t.post(f"/portal/projeler/sec/{baska.id}").status_code == 404
    assert t.session[AKTIF] == musteri.id
    assert t.get(f"/portal/ekipler/{ekip.id}").status_code in (404, 405)
    assert t.post(f"/portal/ekipler/{ekip.id}", {"islem": "sil"}).status_code == 404
    assert t.get(f"/portal/kurallar/{kural.id}").status_code == 404
    assert t.post(f"/portal/kurallar/{kural.id}", {"islem": "sil"}).status_code == 404
    assert Ekip.objects.filter(pk=ekip.pk).exists() and Kural.objects.filter(pk=kural.pk).exists()


@pytest.mark.parametrize("alan", ["kosullar", "eylemler"])
def test_a_lone_surrogate_in_a_rule_form_is_a_form_error_not_a_500(musteri, alan):
    t = giris_yapmis(operator_yap(musteri, rol="sahip"))
    veri = {"ad": "Kural", "olay": "chat_baslatildi", "aktif": "1", "sira": "0", "kosullar": "[]",
            "eylemler": json.dumps([{"tur": "not", "icerik": "Bak"}])}
    veri[alan] = {"kosullar": '[{"alan": "metin", "islem": "icerir", "deger": "a\\ud800"}]',
                  "eylemler": '[{"tur": "not", "icerik": "\\udfff"}]'}[alan]
    # The JSON text escapes it (a browser's form cannot send a lone surrogate any other way); the
    # form shows the error and echoes the text back.
    res = t.post("/portal/kurallar", veri)
    assert res.status_code in (200, 400), res.status_code
    assert "\\ud" in res.content.decode()
    assert not Kural.objects.exists()
