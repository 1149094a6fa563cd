import pytest

from context import demo
from supportdesk.testing.factories import KullaniciFactory, MusteriFactory

pytestmark = pytest.mark.django_db


def test_admin_pages_of_the_context_models_render(client):
    demo.yukle(musteriler=[MusteriFactory(), MusteriFactory(), MusteriFactory()], operatorler=[])
    admin = KullaniciFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    for model in ("ziyaretci", "sayfagoruntuleme", "hatakaydi", "ekrangoruntusu"):
        res = client.get(f"/admin/context/{model}/")
        assert res.status_code == 200, model
        assert client.get(f"/admin/context/{model}/?q=demo").status_code == 200
    from context.models import Ziyaretci

    z = Ziyaretci.objects.first()
    res = client.get(f"/admin/context/ziyaretci/{z.pk}/change/")
    assert res.status_code == 200 and z.musteri.api_secret not in res.content.decode()


def test_schema_lists_the_context_endpoints(api):
    res = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert res.status_code == 200
    text = res.content.decode()
    for path in ("/context/customer-info", "/context/page-info", "/context/error-log", "/context/screenshot",
                 "/operator/context/{ziyaretci_id}"):
        assert f"/api/v1{path}" in text, path
