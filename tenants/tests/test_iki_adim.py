"""Lockout after repeated failed logins (its reset by a success; the pairs it locks are in
test_giris_kilidi.py) and TOTP two-factor login (CONTRACT 18), through HTTP: portal, API, Django admin."""
import pytest
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from denetim.models import DenetimKaydi
from supportdesk.testing.factories import TEST_SIFRE, KullaniciFactory
from supportdesk.testing.fixtures import operator_yap

LOGIN = "/api/v1/auth/login"


def kod(cihaz: TOTPDevice, adim: int = 0) -> str:
    """The code an authenticator app shows now (`adim=1`: the next step's, for a second use)."""
    return str(totp(cihaz.bin_key, step=cihaz.step, t0=cihaz.t0, digits=cihaz.digits, drift=adim)).zfill(cihaz.digits)


@pytest.fixture
def kilit(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3


def test_a_success_resets_the_pairs_count(kilit, musteri):
    # (Which pairs a lockout takes, and its audit: test_giris_kilidi.py.)
    user = operator_yap(musteri)
    for _ in range(2):
        Client().post("/portal/giris", {"email": user.email, "sifre": "yanlis"})
    assert Client().post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE}).status_code == 302
    for _ in range(2):
        Client().post("/portal/giris", {"email": user.email, "sifre": "yanlis"})
    assert Client().post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE}).status_code == 302


def test_turning_totp_on_in_the_portal_then_logging_in_with_a_code(musteri, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # django-otp slows retries after a wrong code; not what is tested here
    user = operator_yap(musteri, rol="sahip")
    portal = Client()
    portal.force_login(user)
    sayfa = portal.get("/portal/hesap/iki-adim")
    assert sayfa.status_code == 200 and "<svg" in sayfa.content.decode()
    cihaz = TOTPDevice.objects.get(user=user, confirmed=False)
    assert portal.post("/portal/hesap/iki-adim", {"islem": "ac", "kod": "000000"}).status_code == 400
    assert portal.post("/portal/hesap/iki-adim", {"islem": "ac", "kod": kod(cihaz)}).status_code == 302
    cihaz.refresh_from_db()
    assert cihaz.confirmed

    # The password alone no longer logs in: the code page follows.
    client = Client()
    res = client.post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE})
    assert res.status_code == 302 and res["Location"] == "/portal/giris/kod"
    assert client.get("/portal/").status_code == 302  # not logged in yet
    assert client.post("/portal/giris/kod", {"kod": "123456"}).status_code == 400
    res = client.post("/portal/giris/kod", {"kod": kod(cihaz, 1)})
    assert res.status_code == 302
    assert client.get("/portal/").status_code == 200
    assert DenetimKaydi.objects.filter(musteri=musteri, eylem="giris", ayrinti__kanal="portal").exists()

    # The API asks the code too.
    res = APIClient().post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE}, format="json")
    assert res.status_code == 401 and "kod" in res.json()["hata"]["alanlar"]


def test_api_login_with_a_code(musteri):
    user = operator_yap(musteri)
    cihaz = TOTPDevice.objects.create(user=user, name="t", confirmed=True)
    res = APIClient().post(LOGIN, {"email": user.email, "sifre": TEST_SIFRE, "kod": kod(cihaz)}, format="json")
    assert res.status_code == 200, res.content


def _admin_giris(client, user, **ek):
    return client.post("/admin/login/?next=/admin/", {"username": user.email, "password": TEST_SIFRE, **ek})


def test_admin_asks_the_code_of_staff_who_set_it_up(db):
    admin = KullaniciFactory(is_staff=True, is_superuser=True)
    client = Client()
    assert _admin_giris(client, admin).status_code == 302  # no device, not required: password only
    assert client.get("/admin/").status_code == 200
    cihaz = TOTPDevice.objects.create(user=admin, name="t", confirmed=True)
    client = Client()
    res = _admin_giris(client, admin)
    assert res.status_code == 200 and "Doğrulama kodu hatalı" in res.content.decode()
    assert _admin_giris(client, admin, kod=kod(cihaz)).status_code == 302
    assert client.get("/admin/").status_code == 200


def test_admin_2fa_required(settings, db):
    settings.ADMIN_2FA_ZORUNLU = True
    admin = KullaniciFactory(is_staff=True, is_superuser=True)
    client = Client()
    res = _admin_giris(client, admin)
    assert res.status_code == 200 and "iki adımlı doğrulama" in res.content.decode()
    # A session logged in some other way (the portal) without a code is no admin session.
    client.force_login(admin)
    assert client.get("/admin/").status_code == 302
    cihaz = TOTPDevice.objects.create(user=admin, name="t", confirmed=True)
    client = Client()
    assert _admin_giris(client, admin, kod=kod(cihaz)).status_code == 302
    assert client.get("/admin/").status_code == 200


def test_admin_tenant_list_shows_usage_without_a_query_per_row(db, django_assert_max_num_queries):
    from gizlilik.tests.test_ziyaretci import _ziyaretci_verisi
    from supportdesk.testing.factories import MusteriFactory

    admin = KullaniciFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    musteri = MusteriFactory(firma_adi="Kullanımlı")
    _ziyaretci_verisi(musteri)
    operator_yap(musteri, rol="sahip")
    res = client.get("/admin/tenants/musteri/")
    assert res.status_code == 200
    html = res.content.decode()
    assert 'class="field-sohbetler">1<' in html and 'class="field-ticketlar">1<' in html
    assert 'class="field-operatorler">1<' in html and "field-depolama" in html
    with django_assert_max_num_queries(12) as bir:
        client.get("/admin/tenants/musteri/")
    for _ in range(5):
        MusteriFactory()
    with django_assert_max_num_queries(len(bir.captured_queries)):
        client.get("/admin/tenants/musteri/")
