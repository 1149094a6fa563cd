from datetime import timedelta

import jwt
import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap

pytestmark = pytest.mark.django_db
LOGIN = "/api/v1/auth/login"


def hata(res, status, kod):
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False, body
    assert body["hata"]["kod"] == kod, body
    assert isinstance(body["hata"]["mesaj"], str) and body["hata"]["mesaj"]
    return body


def test_login_shape_one_tenant(api, musteri):
    user = operator_yap(musteri)
    res = api.post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE}, format="json", HTTP_ACCEPT="application/json")
    assert res.status_code == 200, res.content
    body = res.json()
    assert body["basarili"] is True
    assert set(body["data"]) == {"token", "token_tipi", "operator"}
    assert body["data"]["token_tipi"] == "Bearer"
    assert isinstance(body["data"]["token"], str) and body["data"]["token"]
    op = body["data"]["operator"]
    assert set(op) == {"id", "email", "musteri_id", "musteriler"}
    assert op == {
        "id": user.id,
        "email": user.email,
        "musteri_id": musteri.id,
        "musteriler": [{
            "id": musteri.id, "firma_adi": musteri.firma_adi, "logo_url": "", "renk_primary": musteri.renk_primary,
            "sira": 0, "sessize_alindi": False, "rol": "operator", "max_chat_per_tenant": None,
        }],
    }


def test_login_shape_three_tenants_in_sira_order(api):
    a, b, c = MusteriFactory(), MusteriFactory(), MusteriFactory()
    user = operator_yap(a, b, c, max_chat=3)
    user.uyelikler.filter(musteri=c).update(sira=0)
    user.uyelikler.filter(musteri=a).update(sira=5)
    user.uyelikler.filter(musteri=b).update(sira=7, sessize_alindi=True)
    res = api.post(LOGIN, {"email": user.email.upper(), "sifre": TEST_SIFRE}, format="json")
    assert res.status_code == 200, res.content
    op = res.json()["data"]["operator"]
    assert op["musteri_id"] == a.id  # primary tenant: the first one joined
    assert [m["id"] for m in op["musteriler"]] == [c.id, a.id, b.id]
    assert [m["sira"] for m in op["musteriler"]] == [0, 1, 2]
    assert [m["sessize_alindi"] for m in op["musteriler"]] == [False, False, True]
    assert all(m["max_chat_per_tenant"] == 3 and m["rol"] == "operator" for m in op["musteriler"])


@pytest.mark.parametrize("body", [
    {"email": "yok@ornek.com", "sifre": TEST_SIFRE},
    {"email": "__USER__", "sifre": "yanlis-sifre"},
])
def test_login_wrong_credentials(api, musteri, body):
    user = operator_yap(musteri)
    if body["email"] == "__USER__":
        body = {**body, "email": user.email}
    hata(api.post(LOGIN, body, format="json"), 401, "GECERSIZ_GIRIS")


def test_login_inactive_user_refused(api, musteri):
    user = operator_yap(musteri)
    user.is_active = False
    user.save()
    hata(api.post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE}, format="json"), 401, "GECERSIZ_GIRIS")


@pytest.mark.parametrize("body", [{}, {"email": "a@b.com"}, {"sifre": "x"}, {"email": "not-an-email", "sifre": "x"},
                                  {"email": 5, "sifre": ["x"]}])
def test_login_missing_or_bad_fields(api, body):
    body = hata(api.post(LOGIN, body, format="json"), 400, "GECERSIZ_ISTEK")
    assert body["hata"]["alanlar"]


def test_login_non_json_body(api):
    hata(api.post(LOGIN, data="{nope", content_type="application/json"), 400, "GECERSIZ_ISTEK")
    hata(api.post(LOGIN, data="email=a", content_type="text/plain"), 415, "DESTEKLENMEYEN_ICERIK_TIPI")
    hata(api.post(LOGIN, data="[1,2]", content_type="application/json"), 400, "GECERSIZ_ISTEK")


def test_login_rate_limited_per_ip_and_email(api, musteri, settings):
    settings.LOGIN_RATE_LIMIT = "3/min"
    user = operator_yap(musteri)
    for _ in range(3):
        hata(api.post(LOGIN, {"email": user.email, "sifre": "yanlis"}, format="json"), 401, "GECERSIZ_GIRIS")
    # The failure budget is spent: even the right password is refused for this IP and e-mail.
    res = api.post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE}, format="json")
    hata(res, 429, "LIMIT_ASILDI")
    assert int(res["Retry-After"]) >= 1
    # A forged X-Forwarded-For does not escape the limit.
    hata(api.post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE}, format="json", HTTP_X_FORWARDED_FOR="9.9.9.9"),
         429, "LIMIT_ASILDI")
    # Another e-mail from the same IP has its own budget.
    other = operator_yap(musteri)
    assert api.post(LOGIN, {"email": other.email, "sifre": TEST_SIFRE}, format="json").status_code == 200


def test_successful_logins_do_not_lock_out(api, musteri, settings):
    settings.LOGIN_RATE_LIMIT = "3/min"
    user = operator_yap(musteri)
    for _ in range(6):
        assert api.post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE}, format="json").status_code == 200


def test_logout_revokes_token_at_once(api, musteri):
    user = operator_yap(musteri)
    token = giris_yap(api, user)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.get("/api/v1/operator/tenants").status_code == 200
    res = api.post("/api/v1/auth/logout")
    assert res.status_code == 200, res.content
    assert res.json() == {"basarili": True, "data": {}}
    hata(api.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")
    hata(api.post("/api/v1/auth/logout"), 401, "GECERSIZ_TOKEN")
    # A fresh login still works.
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(APIClient(), user)}")
    assert api.get("/api/v1/operator/tenants").status_code == 200


def test_expired_token_refused(api, musteri):
    user = operator_yap(musteri)
    token = AccessToken.for_user(user)
    token.set_exp(lifetime=-timedelta(seconds=1))
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    hata(api.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")


def test_token_lifetime_is_a_setting(api, musteri):
    user = operator_yap(musteri)
    token = AccessToken(giris_yap(api, user))
    assert 11.9 * 3600 < token["exp"] - token["iat"] <= 12 * 3600


def test_token_of_deleted_or_inactive_user_refused(api, musteri):
    user = operator_yap(musteri)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, user)}")
    user.is_active = False
    user.save()
    hata(api.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")
    user.delete()
    hata(api.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")


@pytest.mark.parametrize("header", ["Bearer", "Bearer x.y.z", "Bearer " + "a" * 40, "Bearer a b"])
def test_bad_bearer_tokens(api, header):
    api.credentials(HTTP_AUTHORIZATION=header)
    hata(api.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")


def test_missing_credentials(api):
    hata(api.get("/api/v1/operator/tenants"), 401, "KIMLIK_GEREKLI")
    hata(api.get("/api/v1/operator/tenants", HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz"), 401, "KIMLIK_GEREKLI")


def test_token_signed_with_other_key_refused(api, musteri):
    user = operator_yap(musteri)
    claims = dict(AccessToken.for_user(user).payload)
    forged = jwt.encode(claims, "baska-bir-anahtar-" * 3, algorithm="HS256")
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {forged}")
    hata(api.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")


@pytest.mark.parametrize("body", [
    {"email": "__USER__", "sifre": 12345678},
    {"email": "__USER__", "sifre": True},
    {"email": "__USER__", "sifre": None},
    {"email": ["__USER__"], "sifre": TEST_SIFRE},
    {"email": 12345, "sifre": TEST_SIFRE},
])
def test_login_wrong_types_are_400_not_a_failed_login(api, musteri, body):
    # A number for the password is a malformed request (CONTRACT 1), not a wrong password.
    user = operator_yap(musteri)
    body = {k: (user.email if v == "__USER__" else [user.email] if v == ["__USER__"] else v) for k, v in body.items()}
    res = hata(api.post(LOGIN, body, format="json"), 400, "GECERSIZ_ISTEK")
    assert set(res["hata"]["alanlar"]) <= {"email", "sifre"} and res["hata"]["alanlar"]


def test_bearer_scheme_is_case_insensitive(api, musteri):
    token = giris_yap(api, operator_yap(musteri))
    for scheme in ("bearer", "BEARER"):
        api.credentials(HTTP_AUTHORIZATION=f"{scheme} {token}")
        assert api.get("/api/v1/operator/tenants").status_code == 200
