import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db


@pytest.fixture
def uc_proje():
    return MusteriFactory(firma_adi="A"), MusteriFactory(firma_adi="B"), MusteriFactory(firma_adi="C")


@pytest.fixture
def op3(api, uc_proje):
    user = operator_yap(*uc_proje)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, user)}")
    return user


def ids(res):
    assert res.status_code == 200, res.content
    return [m["id"] for m in res.json()["data"]["musteriler"]]


def test_tenant_list(api, op3, uc_proje):
    a, b, c = uc_proje
    res = api.get("/api/v1/operator/tenants")
    assert ids(res) == [a.id, b.id, c.id]
    item = res.json()["data"]["musteriler"][0]
    assert set(item) == {"id", "firma_adi", "logo_url", "renk_primary", "sira", "sessize_alindi", "rol",
                         "max_chat_per_tenant"}


def test_reorder_persists_in_list_and_next_login(api, op3, uc_proje):
    a, b, c = uc_proje
    assert ids(api.put("/api/v1/operator/tenants/sira", {"order": [c.id, a.id, b.id]}, format="json")) == [c.id, a.id, b.id]
    assert ids(api.get("/api/v1/operator/tenants")) == [c.id, a.id, b.id]
    from rest_framework.test import APIClient

    res = APIClient().post("/api/v1/auth/login", {"email": op3.email, "sifre": "Gizli-Sifre-2026"}, format="json")
    musteriler = res.json()["data"]["operator"]["musteriler"]
    assert [m["id"] for m in musteriler] == [c.id, a.id, b.id]
    assert [m["sira"] for m in musteriler] == [0, 1, 2]


def test_reorder_partial_keeps_the_rest_after(api, op3, uc_proje):
    a, b, c = uc_proje
    assert ids(api.put("/api/v1/operator/tenants/sira", {"order": [b.id]}, format="json")) == [b.id, a.id, c.id]
    assert ids(api.put("/api/v1/operator/tenants/sira", {"order": [c.id]}, format="json")) == [c.id, b.id, a.id]


@pytest.mark.parametrize("order", ["x", None, [1.5], ["1"], [True], "__DUP__", "__FOREIGN__", "__UNKNOWN__"])
def test_reorder_bad_input(api, op3, uc_proje, order):
    a, b, c = uc_proje
    if order == "__DUP__":
        order = [a.id, a.id]
    elif order == "__FOREIGN__":
        order = [MusteriFactory().id]
    elif order == "__UNKNOWN__":
        order = [999999]
    body = hata(api.put("/api/v1/operator/tenants/sira", {"order": order}, format="json"), 400, "GECERSIZ_ISTEK")
    assert "order" in str(body["hata"].get("alanlar"))
    assert ids(api.get("/api/v1/operator/tenants")) == [a.id, b.id, c.id]


def test_reorder_missing_body(api, op3):
    hata(api.put("/api/v1/operator/tenants/sira", {}, format="json"), 400, "GECERSIZ_ISTEK")


def test_mute_and_unmute(api, op3, uc_proje):
    a, b, _ = uc_proje
    res = api.put(f"/api/v1/operator/tenants/{b.id}/sessize", {"sessize": True}, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["data"]["musteri"]["id"] == b.id
    assert res.json()["data"]["musteri"]["sessize_alindi"] is True
    listed = api.get("/api/v1/operator/tenants").json()["data"]["musteriler"]
    assert res.json()["data"]["musteriler"] == listed
    assert [m["sessize_alindi"] for m in listed] == [False, True, False]
    api.put(f"/api/v1/operator/tenants/{b.id}/sessize", {"sessize": False}, format="json")
    listed = api.get("/api/v1/operator/tenants").json()["data"]["musteriler"]
    assert not any(m["sessize_alindi"] for m in listed)


@pytest.mark.parametrize("value", ["true", 1, None, "evet", [], {}])
def test_mute_needs_a_boolean(api, op3, uc_proje, value):
    hata(api.put(f"/api/v1/operator/tenants/{uc_proje[0].id}/sessize", {"sessize": value}, format="json"),
         400, "GECERSIZ_ISTEK")


def test_mute_foreign_or_unknown_tenant_is_404(api, op3):
    foreign = MusteriFactory()
    hata(api.put(f"/api/v1/operator/tenants/{foreign.id}/sessize", {"sessize": True}, format="json"), 404, "BULUNAMADI")
    hata(api.put("/api/v1/operator/tenants/987654/sessize", {"sessize": True}, format="json"), 404, "BULUNAMADI")


def test_operators_never_touch_each_others_memberships(api, op3, uc_proje):
    a, b, c = uc_proje
    other = operator_yap(a, b)
    api.put("/api/v1/operator/tenants/sira", {"order": [c.id, b.id, a.id]}, format="json")
    api.put(f"/api/v1/operator/tenants/{a.id}/sessize", {"sessize": True}, format="json")
    from rest_framework.test import APIClient

    other_client = APIClient()
    other_client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(other_client, other)}")
    listed = other_client.get("/api/v1/operator/tenants").json()["data"]["musteriler"]
    assert [m["id"] for m in listed] == [a.id, b.id]
    assert not any(m["sessize_alindi"] for m in listed)
    hata(other_client.put("/api/v1/operator/tenants/sira", {"order": [c.id]}, format="json"), 400, "GECERSIZ_ISTEK")


def test_tenant_list_query_count_is_flat(api, django_assert_max_num_queries):
    many = [MusteriFactory() for _ in range(20)]
    user = operator_yap(*many)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, user)}")
    with django_assert_max_num_queries(4):
        assert len(ids(api.get("/api/v1/operator/tenants"))) == 20


@pytest.mark.parametrize("musteri_id", ["9223372036854775808", "99999999999999999999999", "0"])
def test_mute_out_of_range_id_is_404_not_500(api, op3, musteri_id):
    res = api.put(f"/api/v1/operator/tenants/{musteri_id}/sessize", {"sessize": True}, format="json")
    hata(res, 404, "BULUNAMADI")
