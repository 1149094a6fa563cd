"""Rate limits exact under a burst, over HTTP, on one and on two real gunicorn processes
(PostgreSQL and Redis; skipped without them, CI has both)."""
import threading
import time

import pytest
import requests

from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.sunucu import gunicorn_sureci, surec_ortami

pytestmark = pytest.mark.django_db(transaction=True)
INIT = "/api/v1/widget/init"
LOGIN = "/api/v1/auth/login"


@pytest.fixture(scope="module")
def sunucular(tmp_path_factory, django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        ortam = surec_ortami(WIDGET_RATE_LIMIT="30/min", LOGIN_RATE_LIMIT="30/min", PORTAL_RATE_LIMIT="30/min")
    tmp = tmp_path_factory.mktemp("gunicorn")
    with gunicorn_sureci(ortam, tmp / "a.log") as a, gunicorn_sureci(ortam, tmp / "b.log") as b:
        for adres in (a, b):  # loaded and connected before any burst
            assert requests.get(adres + "/api/v1/saglik", timeout=10).status_code == 200
        yield a, b


def ayni_anda(adresler: list[str], n: int, istek, hazirla=None) -> list[int]:
    """n requests released at once, spread over the servers in turn; their status codes.
    `hazirla(session, address)` runs before the release (a form page for its CSRF token)."""
    if time.time() % 60 > 57:  # never straddle a minute boundary (the previous window would weigh in)
        time.sleep(60 - time.time() % 60 + 0.1)
    engel = threading.Barrier(n)
    kodlar = []

    def calis(i):
        oturum = requests.Session()
        if hazirla is not None:
            hazirla(oturum, adresler[i % len(adresler)])
        engel.wait()
        kodlar.append(istek(oturum, adresler[i % len(adresler)]).status_code)

    threads = [threading.Thread(target=calis, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return kodlar


def widget_init(musteri):
    return lambda oturum, adres: oturum.post(adres + INIT, json={"ziyaretci_id": "z"},
                                             headers={"X-API-Key": musteri.api_key}, timeout=30)


def test_40_simultaneous_widget_calls_at_30_per_min_one_process(sunucular, musteri):
    kodlar = ayni_anda([sunucular[0]], 40, widget_init(musteri))
    print(f"\nbir süreç: {kodlar.count(200)} x 200, {kodlar.count(429)} x 429")
    assert sorted(kodlar) == [200] * 30 + [429] * 10


def test_40_simultaneous_widget_calls_at_30_per_min_two_processes(sunucular, musteri):
    kodlar = ayni_anda(list(sunucular), 40, widget_init(musteri))
    print(f"\niki süreç: {kodlar.count(200)} x 200, {kodlar.count(429)} x 429")
    assert sorted(kodlar) == [200] * 30 + [429] * 10


def test_40_simultaneous_wrong_passwords_get_exactly_30_tries_over_two_processes(sunucular, musteri):
    user = operator_yap(musteri)
    kodlar = ayni_anda(list(sunucular), 40, lambda oturum, adres: oturum.post(
        adres + LOGIN, json={"email": user.email, "sifre": "yanlis"}, timeout=30))
    assert sorted(kodlar) == [401] * 30 + [429] * 10
    # The budget of failures is spent: the right password is refused too until the window moves on.
    dogru = requests.post(sunucular[1] + LOGIN, json={"email": user.email, "sifre": TEST_SIFRE}, timeout=30)
    assert dogru.status_code == 429


def test_successful_logins_do_not_spend_the_budget_under_a_burst(sunucular, musteri):
    user = operator_yap(musteri)
    kodlar = ayni_anda(list(sunucular), 40, lambda oturum, adres: oturum.post(
        adres + LOGIN, json={"email": user.email, "sifre": TEST_SIFRE}, timeout=30))
    assert kodlar == [200] * 40  # at most 16 in flight (2 x 8 threads): each hands its place back
    # Every place went back: a full budget of wrong passwords is still left.
    kodlar = ayni_anda(list(sunucular), 40, lambda oturum, adres: oturum.post(
        adres + LOGIN, json={"email": user.email, "sifre": "yanlis"}, timeout=30))
    assert sorted(kodlar) == [401] * 30 + [429] * 10


def csrf_al(yol):
    def hazirla(oturum, adres):
        assert oturum.get(adres + yol, timeout=30).status_code == 200
    return hazirla


def portal_post(yol, veri):
    return lambda oturum, adres: oturum.post(adres + yol, data={**veri, "csrfmiddlewaretoken": oturum.cookies["csrftoken"]},
                                             timeout=30)


def test_40_simultaneous_wrong_passwords_on_the_portal_form_get_exactly_30_tries(sunucular, musteri):
    user = operator_yap(musteri)
    kodlar = ayni_anda(list(sunucular), 40, portal_post("/portal/giris", {"email": user.email, "sifre": "yanlis"}),
                       csrf_al("/portal/giris"))
    assert sorted(kodlar) == [200] * 30 + [429] * 10  # 200: the form again, "wrong password"


def test_40_simultaneous_portal_sign_ups_at_30_per_min_get_exactly_30_tries(sunucular):
    kodlar = ayni_anda(list(sunucular), 40, portal_post("/portal/kayit", {"email": "eksik@example.com"}),
                       csrf_al("/portal/kayit"))
    assert sorted(kodlar) == [200] * 30 + [429] * 10  # 200: the form again, with its errors
