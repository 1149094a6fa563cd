"""The tenant-by-key cache (tenants/musteri_onbellegi.py): every write path that changes what a widget call
sees is visible on the very next request. Each test warms the cache with a call first."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from portal.tests.yardimci import giris_yapmis
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.models import Musteri
from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"
CUSTOMER_INFO = "/api/v1/context/customer-info"
WIDGET = "/portal/widget"


def init(musteri, *, api_key=None, **headers):
    client = widget_client(musteri)
    if api_key:
        client.credentials(HTTP_X_API_KEY=api_key)
    return client.post(INIT, {"ziyaretci_id": "z-1"}, format="json", **headers)


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def test_a_cached_tenant_costs_no_query(musteri, django_assert_num_queries):
    assert init(musteri).status_code == 200
    with django_assert_num_queries(0):
        from tenants.selectors import musteri_api_key_ile

        assert musteri_api_key_ile(api_key=musteri.api_key).pk == musteri.pk


def test_key_rotation_is_seen_at_once(sahip, musteri):
    eski = musteri.api_key
    assert init(musteri).status_code == 200
    assert sahip.post(WIDGET, {"islem": "anahtar_yenile"}).status_code == 302
    hata(init(musteri, api_key=eski), 401, "GECERSIZ_API_ANAHTARI")
    musteri.refresh_from_db()
    assert init(musteri).status_code == 200


def test_origin_change_is_seen_at_once(sahip, musteri):
    kaynak = {"HTTP_ORIGIN": "https://evil.example"}
    assert init(musteri, **kaynak).status_code == 200  # empty whitelist: anyone
    sahip.post(WIDGET, {"islem": "origin_ekle", "origin": "https://shop.example.com"})
    hata(init(musteri, **kaynak), 403, "ORIGIN_IZINSIZ")
    assert init(musteri, HTTP_ORIGIN="https://shop.example.com").status_code == 200
    sahip.post(WIDGET, {"islem": "origin_sil", "origin": "https://shop.example.com"})
    assert init(musteri, **kaynak).status_code == 200


def test_identity_switch_is_seen_at_once(sahip, musteri):
    client = widget_client(musteri)
    govde = {"ziyaretci_id": "z-1", "ad": "Ayşe"}
    assert client.post(CUSTOMER_INFO, govde, format="json").status_code == 200
    sahip.post(WIDGET, {"islem": "kimlik_dogrulama", "kimlik_dogrulama_zorunlu": "on"})
    hata(client.post(CUSTOMER_INFO, govde, format="json"), 401, "IMZA_GEREKLI")


def test_deactivation_in_the_admin_is_seen_at_once(musteri):
    assert init(musteri).status_code == 200
    admin = get_user_model().objects.create_superuser(email="kok@example.com", password="Kok-Sifre-2026!")
    client = Client()
    client.force_login(admin)
    ok = client.post("/admin/tenants/musteri/", {"action": "devre_disi_birak", "_selected_action": [musteri.pk]})
    assert ok.status_code == 302, ok.content.decode()[:2000]
    assert Musteri.objects.get(pk=musteri.pk).aktif is False
    hata(init(musteri), 401, "GECERSIZ_API_ANAHTARI")
    client.post("/admin/tenants/musteri/", {"action": "etkinlestir", "_selected_action": [musteri.pk]})
    assert init(musteri).status_code == 200


def test_deleting_a_tenant_is_seen_at_once(musteri):
    assert init(musteri).status_code == 200
    Musteri.objects.get(pk=musteri.pk).delete()
    hata(init(musteri), 401, "GECERSIZ_API_ANAHTARI")
