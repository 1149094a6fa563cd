"""The audit log (CONTRACT 18) through HTTP: entries for the actions people take, with who and
from where; newest first, paged; sahip/yonetici only; no way to edit or delete an entry."""
import pytest
from django.db import DatabaseError, connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from denetim.models import DenetimKaydi
from gizlilik.tests.test_ziyaretci import Z, _ziyaretci_verisi
from supportdesk.testing.factories import TEST_SIFRE, KullaniciFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.services import uyelik_ekle

DENETIM = "/api/v1/operator/tenants/{}/denetim"


def _istemci(kullanici, ip="203.0.113.7") -> APIClient:
    client = APIClient(REMOTE_ADDR=ip)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, kullanici)}")
    return client


def _portal(kullanici, ip="198.51.100.4") -> Client:
    client = Client(REMOTE_ADDR=ip)
    res = client.post("/portal/giris", {"email": kullanici.email, "sifre": TEST_SIFRE})
    assert res.status_code == 302, res.content[:300]
    return client


def _kayitlar(client, musteri) -> list[dict]:
    res = client.get(DENETIM.format(musteri.id))
    assert res.status_code == 200, res.content
    return res.json()["data"]["kayitlar"]


def test_logins_and_failed_logins_are_recorded_per_tenant(musteri, diger_musteri):
    kullanici = operator_yap(musteri, diger_musteri, rol="sahip")
    APIClient(REMOTE_ADDR="203.0.113.9").post("/api/v1/auth/login", {"email": kullanici.email, "sifre": "yanlis"},
                                               format="json")
    Client(REMOTE_ADDR="198.51.100.9").post("/portal/giris", {"email": kullanici.email, "sifre": "yanlis"})
    Client().post("/portal/giris", {"email": "kimse@ornek.com", "sifre": "yanlis"})  # no account: no tenant
    client = _istemci(kullanici)
    _portal(kullanici)
    for m in (musteri, diger_musteri):
        kayitlar = [(k["eylem"], k["ayrinti"].get("kanal"), k["ip"]) for k in _kayitlar(client, m)
                    if k["eylem"].startswith("giris")]
        assert kayitlar == [("giris", "portal", "198.51.100.4"), ("giris", "api", "203.0.113.7"),
                            ("giris_basarisiz", "portal", "198.51.100.9"), ("giris_basarisiz", "api", "203.0.113.9")]
    [kayit] = [k for k in _kayitlar(client, musteri) if k["eylem"] == "giris" and k["ayrinti"]["kanal"] == "api"]
    assert kayit["kullanici_id"] == kullanici.id and kayit["email"] == kullanici.email
    assert kayit["hedef"] == f"kullanici:{kullanici.id}"


def test_portal_settings_webhooks_members_and_visitors_are_recorded(musteri):
    sahip = operator_yap(musteri, rol="sahip")
    _ziyaretci_verisi(musteri)
    portal = _portal(sahip)
    assert portal.post("/portal/widget", {"islem": "origin_ekle", "origin": "https://shop.ornek.com"}).status_code == 302
    assert portal.post("/portal/widget", {"islem": "anahtar_yenile"}).status_code == 302
    assert portal.post("/portal/webhooks", {"url": "http://127.0.0.1:9/kanca"}).status_code == 302
    uye = KullaniciFactory()
    uyelik = uyelik_ekle(kullanici=uye, musteri=musteri, rol="operator")
    assert portal.post(f"/portal/ekip/{uyelik.id}", {"islem": "guncelle", "rol": "yonetici"}).status_code in (200, 302)
    api = _istemci(sahip)
    assert api.get(f"/api/v1/operator/ziyaretci/{Z}/disa-aktar").status_code == 200
    assert api.delete(f"/api/v1/operator/ziyaretci/{Z}").status_code == 200

    kayitlar = _kayitlar(api, musteri)
    eylemler = {k["eylem"]: k for k in reversed(kayitlar)}  # the newest of each
    assert eylemler["origin_degisti"]["ayrinti"] == {"alanlar": ["izinli_originler"]}
    assert eylemler["origin_degisti"]["kullanici_id"] == sahip.id and eylemler["origin_degisti"]["ip"] == "198.51.100.4"
    assert eylemler["anahtar_yenilendi"]["ayrinti"] == {"alanlar": ["api_key"]}
    assert eylemler["webhook_degisti"]["ayrinti"]["islem"] == "olusturuldu"
    assert eylemler["webhook_degisti"]["hedef"].startswith("webhook:")
    assert eylemler["uye_eklendi"]["hedef"] == f"kullanici:{uye.id}"
    assert eylemler["ziyaretci_disa_aktarildi"]["hedef"] == f"ziyaretci:{Z}"
    assert eylemler["ziyaretci_silindi"]["ayrinti"]["oturum"] == 1
    assert eylemler["ziyaretci_silindi"]["ip"] == "203.0.113.7" and eylemler["ziyaretci_silindi"]["email"] == sahip.email
    assert eylemler["uye_rol_degisti"]["ayrinti"] == {"email": uye.email, "onceki_rol": "operator", "rol": "yonetici"}
    # Newest first.
    assert [k["id"] for k in kayitlar] == sorted((k["id"] for k in kayitlar), reverse=True)


def test_paging_roles_and_other_tenants(musteri, diger_musteri):
    sahip = operator_yap(musteri, rol="sahip")
    for i in range(5):
        DenetimKaydi.objects.create(musteri=musteri, eylem="ayar_degisti", hedef=f"musteri:{i}")
    api = _istemci(sahip)
    ilk = api.get(DENETIM.format(musteri.id) + "?limit=3").json()["data"]
    assert len(ilk["kayitlar"]) == 3 and ilk["sonraki"]
    ikinci = api.get(DENETIM.format(musteri.id) + f"?limit=3&cursor={ilk['sonraki']}").json()["data"]
    assert {k["id"] for k in ilk["kayitlar"]}.isdisjoint(k["id"] for k in ikinci["kayitlar"])
    operator = _istemci(operator_yap(musteri, rol="operator"))
    assert operator.get(DENETIM.format(musteri.id)).status_code == 403
    assert api.get(DENETIM.format(diger_musteri.id)).status_code == 404
    assert APIClient().get(DENETIM.format(musteri.id)).status_code == 401
    # Only entries of the tenant asked for.
    DenetimKaydi.objects.create(musteri=diger_musteri, eylem="ayar_degisti", hedef="musteri:x")
    assert all(k["hedef"] != "musteri:x" for k in _kayitlar(api, musteri))


def test_no_interface_edits_or_deletes_an_entry(musteri, django_assert_max_num_queries):
    sahip = operator_yap(musteri, rol="sahip")
    kayit = DenetimKaydi.objects.create(musteri=musteri, eylem="ayar_degisti", hedef="musteri:1")
    api = _istemci(sahip)
    for yontem in ("post", "put", "patch", "delete"):
        assert getattr(api, yontem)(DENETIM.format(musteri.id), {}, format="json").status_code == 405
    admin = KullaniciFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    assert client.get("/admin/denetim/denetimkaydigorunumu/").status_code == 200
    yol = f"/admin/denetim/denetimkaydigorunumu/{kayit.pk}/"
    assert client.post(yol + "delete/", {"post": "yes"}).status_code == 403
    assert client.post(yol + "change/", {"eylem": "giris", "hedef": "x"}).status_code == 403
    assert client.get("/admin/denetim/denetimkaydigorunumu/add/").status_code == 403
    kayit.refresh_from_db()
    assert kayit.hedef == "musteri:1"
    # A list page costs the same whatever its length.
    with django_assert_max_num_queries(6):
        _kayitlar(api, musteri)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the database guard is PostgreSQL's")
def test_the_database_refuses_to_change_or_delete_an_entry(musteri):
    kayit = DenetimKaydi.objects.create(musteri=musteri, eylem="ayar_degisti", hedef="musteri:1")
    with pytest.raises(DatabaseError), transaction.atomic():
        DenetimKaydi.objects.filter(pk=kayit.pk).update(hedef="degisti")
    with pytest.raises(DatabaseError), transaction.atomic():
        DenetimKaydi.objects.filter(pk=kayit.pk).delete()
    assert DenetimKaydi.objects.get(pk=kayit.pk).hedef == "musteri:1"


def test_entries_older_than_a_year_are_purged(musteri):
    from datetime import timedelta

    from django.utils import timezone

    from denetim import tasks

    eski = DenetimKaydi.objects.create(musteri=musteri, eylem="giris", zaman=timezone.now() - timedelta(days=400))
    yeni = DenetimKaydi.objects.create(musteri=musteri, eylem="giris", zaman=timezone.now() - timedelta(days=300))
    assert tasks.eski_kayitlari_temizle() == 1
    assert not DenetimKaydi.objects.filter(pk=eski.pk).exists() and DenetimKaydi.objects.filter(pk=yeni.pk).exists()
    assert tasks.eski_kayitlari_temizle() == 0


def test_tenant_settings_changes_are_recorded(musteri):
    sahip = operator_yap(musteri, rol="sahip")
    api = _istemci(sahip, ip="203.0.113.50")
    res = api.put(f"/api/v1/operator/tenants/{musteri.id}/ayarlar", {"saklama_gun": 90, "atama_modu": "sirayla"},
                  format="json")
    assert res.status_code == 200, res.content
    [kayit] = [k for k in _kayitlar(api, musteri) if k["eylem"] == "ayar_degisti"]
    assert kayit["ayrinti"] == {"alanlar": ["atama_modu", "saklama_gun"],
                                "degerler": {"atama_modu": ["manuel", "sirayla"], "saklama_gun": [None, 90]}}
    assert kayit["kullanici_id"] == sahip.id and kayit["ip"] == "203.0.113.50"
    assert kayit["hedef"] == f"musteri:{musteri.id}"
