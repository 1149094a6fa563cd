"""Issue 13: a bearer token dies at once on a password change, a deactivation, and a tenant leaves
its reach at once on a removal; a JWT naming an impossible user id is a 401, not a 500."""
import threading

import jwt
import pytest
from django.conf import settings
from django.db import connection, connections
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from chat.services import chat_baslat
from portal.tests.yardimci import giris_yapmis
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.kimlik import operator_tokeni_dogrula
from tenants.models import Uyelik
from tenants.services import musteri_aktiflik_ayarla
from tenants.tests.test_auth import hata
from webhooks.models import Olay

pytestmark = pytest.mark.django_db
TENANTS = "/api/v1/operator/tenants"


def bearer(token: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return c


def test_a_password_change_in_the_portal_revokes_the_users_tokens():
    musteri = MusteriFactory()
    user = operator_yap(musteri, rol="sahip")
    token = giris_yap(APIClient(), user)
    assert bearer(token).get(TENANTS).status_code == 200
    portal = giris_yapmis(user)
    yeni = "Yepyeni-Sifre-2026!"
    res = portal.post("/portal/sifre", {"old_password": TEST_SIFRE, "new_password1": yeni, "new_password2": yeni})
    assert res.status_code == 302, res.content
    hata(bearer(token).get(TENANTS), 401, "GECERSIZ_TOKEN")
    hata(bearer(token).post("/api/v1/auth/logout"), 401, "GECERSIZ_TOKEN")
    # The portal session that changed it stays signed in, and a new login gives a working token.
    assert portal.get("/portal/").status_code == 200
    res = APIClient().post("/api/v1/auth/login", {"email": user.email, "sifre": yeni}, format="json")
    assert bearer(res.json()["data"]["token"]).get(TENANTS).status_code == 200


def test_a_password_set_anywhere_else_revokes_too():
    user = operator_yap(MusteriFactory())
    token = giris_yap(APIClient(), user)
    user.set_password("Admin-Panelinden-1!")
    user.save()
    hata(bearer(token).get(TENANTS), 401, "GECERSIZ_TOKEN")


def test_a_token_without_the_password_stamp_is_refused():
    # Forged with the right key (or issued before this check existed): no stamp, no entry.
    user = operator_yap(MusteriFactory())
    hata(bearer(str(AccessToken.for_user(user))).get(TENANTS), 401, "GECERSIZ_TOKEN")


def test_deactivating_the_user_revokes_at_once():
    user = operator_yap(MusteriFactory())
    token = giris_yap(APIClient(), user)
    user.is_active = False
    user.save(update_fields=["is_active"])
    hata(bearer(token).get(TENANTS), 401, "GECERSIZ_TOKEN")


def test_a_removed_membership_or_a_deactivated_tenant_leaves_the_tokens_reach_at_once():
    a, b, c = MusteriFactory(), MusteriFactory(), MusteriFactory()
    user = operator_yap(a, b, c)
    api = bearer(giris_yap(APIClient(), user))
    sohbetler = {m.id: chat_baslat(musteri=m, ziyaretci_id="z", mesaj="Merhaba")[0].id for m in (a, b, c)}

    def idler():
        return [m["id"] for m in api.get(TENANTS).json()["data"]["musteriler"]]

    def mesajlar(m):
        return api.get(f"/api/v1/operator/chat/{sohbetler[m.id]}/messages").status_code

    assert idler() == [a.id, b.id, c.id] and [mesajlar(m) for m in (a, b, c)] == [200, 200, 200]
    Uyelik.objects.filter(kullanici=user, musteri=b).delete()
    assert idler() == [a.id, c.id] and [mesajlar(m) for m in (a, b, c)] == [200, 404, 200]
    musteri_aktiflik_ayarla(musteri=c, aktif=False)
    assert idler() == [a.id] and [mesajlar(m) for m in (a, b, c)] == [200, 404, 404]


def test_the_sockets_check_is_the_rest_check():
    user = operator_yap(MusteriFactory())
    token = giris_yap(APIClient(), user)
    assert operator_tokeni_dogrula(token)[0] == user
    user.set_password("Baska-Sifre-2026!")
    user.save()
    with pytest.raises(Exception) as exc:
        operator_tokeni_dogrula(token)
    assert exc.value.kod == "GECERSIZ_TOKEN"


@pytest.mark.parametrize("user_id", ["abc", "1.5", 1.5, 2**70, -1, None, True, [1], {"a": 1}])
def test_a_correctly_signed_jwt_naming_no_possible_user_is_401(user_id):
    user = operator_yap(MusteriFactory())
    claims = dict(AccessToken.for_user(user).payload)
    claims["user_id"] = user_id
    token = jwt.encode(claims, settings.SIMPLE_JWT["SIGNING_KEY"], algorithm="HS256")
    hata(bearer(token).get(TENANTS), 401, "GECERSIZ_TOKEN")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs PostgreSQL's row locks")
def test_concurrent_logouts_with_one_token_emit_one_event():
    musteri = MusteriFactory()
    user = operator_yap(musteri)
    token = giris_yap(APIClient(), user)
    engel = threading.Barrier(4)
    durumlar: list[int] = []

    def cikis():
        try:
            c = bearer(token)
            engel.wait()
            durumlar.append(c.post("/api/v1/auth/logout").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=cikis) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(durumlar) == 4 and set(durumlar) <= {200, 401}, durumlar
    assert Olay.objects.filter(olay="operator_cevrimdisi", musteri=musteri).count() == 1
    hata(bearer(token).get(TENANTS), 401, "GECERSIZ_TOKEN")
