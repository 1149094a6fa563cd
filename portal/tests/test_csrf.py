"""CSRF is enforced on every portal form: without the token nothing happens."""
import pytest

from supportdesk.testing.fixtures import operator_yap
from tenants.models import Kullanici, Musteri

from .yardimci import AKTIF, Tarayici, giris_yapmis

pytestmark = pytest.mark.django_db


def test_anonymous_forms_need_the_token(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    res = t.post("/portal/giris", {"email": user.email, "sifre": "Gizli-Sifre-2026"}, csrf=False)
    assert res.status_code == 403 and "Güvenlik doğrulaması" in res.content.decode()
    assert "_auth_user_id" not in t.session
    res = t.post("/portal/kayit", {"email": "y@ornek.com", "sifre": "Mavi-Deniz-2026", "firma_adi": "X"}, csrf=False)
    assert res.status_code == 403 and not Kullanici.objects.filter(email="y@ornek.com").exists()


@pytest.mark.parametrize("url, veri", [
    ("/portal/projelerim", {"firma_adi": "CSRF"}),
    ("/portal/widget", {"islem": "origin_ekle", "origin": "https://csrf.example.com"}),
    ("/portal/widget", {"islem": "anahtar_yenile"}),
    ("/portal/widget", {"islem": "gizli_goster"}),
    ("/portal/widget", {"islem": "kimlik_dogrulama", "kimlik_dogrulama_zorunlu": "on"}),
    ("/portal/sifre", {"old_password": "Gizli-Sifre-2026", "new_password1": "Yeni-Sifre-2027",
                       "new_password2": "Yeni-Sifre-2027"}),
    ("/portal/cikis", {}),
    ("/portal/webhooks", {"islem": "ekle", "url": "https://hook.example.com/x"}),
])
def test_signed_in_forms_need_the_token(musteri, url, veri):
    user = operator_yap(musteri, rol="sahip")
    t = giris_yapmis(user)
    once = Musteri.objects.values().get(pk=musteri.pk)
    res = t.post(url, veri, csrf=False)
    assert res.status_code == 403
    assert musteri.api_secret not in res.content.decode()
    assert Musteri.objects.values().get(pk=musteri.pk) == once
    assert Musteri.objects.count() == 1
    assert t.get("/portal/").status_code == 200  # still signed in
    user.refresh_from_db()
    assert user.check_password("Gizli-Sifre-2026")


def test_project_choice_needs_the_token(musteri, diger_musteri):
    t = giris_yapmis(operator_yap(musteri, diger_musteri))
    assert t.post(f"/portal/projeler/sec/{musteri.id}", csrf=False).status_code == 403
    assert AKTIF not in t.session


def test_webhook_forms_need_the_token(musteri, webhook_alici):
    from supportdesk.core.olaylar import yayinla
    from webhooks.endpointler import webhook_endpoint_olustur
    from webhooks.models import Teslimat

    endpoint = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    yayinla("yeni_chat", musteri_id=musteri.id, veri={"oturum_id": 1, "musteri_id": musteri.id, "ziyaretci_adi": "",
                                                      "kanal": "widget", "etiketler": []})
    teslimat = Teslimat.objects.get()
    t = giris_yapmis(operator_yap(musteri, rol="sahip"))
    for islem in ("guncelle", "test", "devre_disi", "gizli_yenile", "sil"):
        res = t.post(f"/portal/webhooks/{endpoint.pk}", {"islem": islem, "url": "https://x.example.com"}, csrf=False)
        assert res.status_code == 403, islem
    assert t.post(f"/portal/webhooks/teslimat/{teslimat.pk}/yeniden", csrf=False).status_code == 403
    endpoint.refresh_from_db()
    assert endpoint.aktif and endpoint.url == webhook_alici.adres()
    assert Teslimat.objects.count() == 1
