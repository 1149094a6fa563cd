"""Sign-up, login, logout, password change and their rate limits (issue 7)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Kullanici, Musteri, Uyelik

from .yardimci import AKTIF, Tarayici, giris_yapmis, kayit_ol

pytestmark = pytest.mark.django_db
KAYIT = "/portal/kayit"
GECERLI = {"email": "Sahip@Ornek.com", "sifre": "Mavi-Deniz-2026", "firma_adi": "Kuzey Kitap", "ad": "Ayşe"}


def test_signup_creates_user_first_project_with_14_day_trial_and_owner_link():
    t = Tarayici()
    assert t.get(KAYIT).status_code == 200
    res = kayit_ol(t, GECERLI)  # the form, then the mailed link (test_kayit_sizdirmaz)
    assert res.status_code == 302 and res["Location"] == "/portal/", res.content.decode()[:1500]
    user = Kullanici.objects.get(email="sahip@ornek.com")
    musteri = Musteri.objects.get(olusturan=user)
    assert musteri.firma_adi == "Kuzey Kitap"
    assert Uyelik.objects.get(kullanici=user).musteri == musteri
    assert Uyelik.objects.get(kullanici=user).rol == "sahip"
    assert musteri.trial_bitis - musteri.olusturulma == pytest.approx(timedelta(days=14), abs=timedelta(seconds=5))
    assert user.musteri_id == musteri.id
    assert t.session[AKTIF] == musteri.id
    pano = t.get("/portal/")
    assert pano.status_code == 200
    assert "14 gün" in pano.content.decode()


@pytest.mark.parametrize("degisiklik, alan", [
    ({"sifre": "12345678"}, "sifre"),  # numeric and common
    ({"sifre": "kisa"}, "sifre"),
    ({"sifre": "sahip@ornek.com"}, "sifre"),  # too similar to the e-mail
    ({"email": "e-posta-degil"}, "email"),
    ({"email": ""}, "email"),
    ({"firma_adi": ""}, "firma_adi"),
    ({"firma_adi": "x" * 121}, "firma_adi"),
])
def test_signup_bad_input_shows_form_error_and_stores_nothing(degisiklik, alan):
    res = Tarayici().post(KAYIT, {**GECERLI, **degisiklik})
    assert res.status_code == 200
    assert res.context["form"].errors.get(alan), res.context["form"].errors
    assert 'class="alan-hata"' in res.content.decode()
    assert not Kullanici.objects.exists() and not Musteri.objects.exists()


def test_signup_is_rate_limited_per_ip(settings):
    settings.PORTAL_RATE_LIMIT = "2/min"
    t = Tarayici()
    for i in range(2):
        t.post(KAYIT, {**GECERLI, "email": f"k{i}@ornek.com"})
    t.c.logout()
    res = t.post(KAYIT, {**GECERLI, "email": "k9@ornek.com"})
    assert res.status_code == 429
    assert int(res["Retry-After"]) >= 1
    assert "Çok fazla deneme" in res.content.decode()
    assert not Kullanici.objects.filter(email="k9@ornek.com").exists()


def test_login_with_one_project_goes_to_the_dashboard_and_activates_it(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    res = t.giris(user)
    assert res.status_code == 302 and res["Location"] == "/portal/"
    assert t.session[AKTIF] == musteri.id


def test_login_with_two_projects_shows_the_choice_first(musteri, diger_musteri):
    user = operator_yap(musteri, diger_musteri)
    t = Tarayici()
    res = t.giris(user)
    assert res.status_code == 302 and res["Location"] == "/portal/projeler"
    assert AKTIF not in t.session
    sayfa = t.get("/portal/projeler")
    assert sayfa.status_code == 200
    html = sayfa.content.decode()
    assert musteri.firma_adi in html and diger_musteri.firma_adi in html
    # Until one is chosen, project pages send the user back to the choice.
    res = t.get("/portal/")
    assert res.status_code == 302 and res["Location"].startswith("/portal/projeler")


def test_login_again_asks_again_even_if_a_project_was_active(musteri, diger_musteri):
    user = operator_yap(musteri, diger_musteri)
    t = giris_yapmis(user)
    t.post(f"/portal/projeler/sec/{musteri.id}")
    assert t.session[AKTIF] == musteri.id
    res = t.giris(user)
    assert res["Location"] == "/portal/projeler" and AKTIF not in t.session


def test_login_without_projects_leads_to_creating_one(db):
    from supportdesk.testing.factories import KullaniciFactory

    user = KullaniciFactory()
    res = Tarayici().giris(user)
    assert res.status_code == 302 and res["Location"] == "/portal/projelerim/yeni"


def test_login_email_is_case_insensitive(musteri):
    operator_yap(musteri, email="buyuk@ornek.com")
    res = Tarayici().post("/portal/giris", {"email": "BUYUK@Ornek.com", "sifre": TEST_SIFRE})
    assert res.status_code == 302


@pytest.mark.parametrize("veri", [{"sifre": "yanlis"}, {"email": "yok@ornek.com"}, {"sifre": ""}, {"email": "x"}])
def test_login_wrong_or_bad_credentials(musteri, veri):
    user = operator_yap(musteri)
    res = Tarayici().post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE, **veri})
    assert res.status_code == 200
    assert res.context["form"].errors
    assert "_auth_user_id" not in res.wsgi_request.session


def test_login_inactive_user_refused(musteri):
    user = operator_yap(musteri)
    user.is_active = False
    user.save()
    assert Tarayici().giris(user).status_code == 200


def test_login_failures_are_rate_limited_then_even_the_right_password_waits(musteri, settings):
    settings.LOGIN_RATE_LIMIT = "3/min"
    user = operator_yap(musteri)
    t = Tarayici()
    for _ in range(3):
        assert t.giris(user, sifre="yanlis").status_code == 200
    res = t.giris(user)
    assert res.status_code == 429
    assert "Çok fazla deneme" in res.content.decode() and int(res["Retry-After"]) >= 1
    assert "_auth_user_id" not in t.session


def test_successful_logins_do_not_use_up_the_limit(musteri, settings):
    settings.LOGIN_RATE_LIMIT = "2/min"
    user = operator_yap(musteri)
    for _ in range(4):
        t = Tarayici()
        assert t.giris(user).status_code == 302


def test_forged_forwarded_for_does_not_escape_the_limit(musteri, settings):
    settings.LOGIN_RATE_LIMIT = "1/min"
    user = operator_yap(musteri)
    t = Tarayici()
    t.post("/portal/giris", {"email": user.email, "sifre": "yanlis"}, HTTP_X_FORWARDED_FOR="1.1.1.1")
    res = t.post("/portal/giris", {"email": user.email, "sifre": "yanlis"}, HTTP_X_FORWARDED_FOR="2.2.2.2")
    assert res.status_code == 429


def test_logout_ends_the_session(musteri):
    t = giris_yapmis(operator_yap(musteri))
    assert t.get("/portal/cikis").status_code == 200  # a confirmation page; GET never logs out
    assert t.get("/portal/").status_code == 200
    res = t.post("/portal/cikis")
    assert res.status_code == 302 and res["Location"] == "/portal/giris"
    res = t.get("/portal/")
    assert res.status_code == 302 and res["Location"].startswith("/portal/giris")


@pytest.mark.parametrize("url", ["/portal/", "/portal/projeler", "/portal/projelerim", "/portal/projelerim/yeni",
                                 "/portal/widget", "/portal/webhooks", "/portal/sifre"])
def test_pages_need_login(db, url):
    res = Tarayici().get(url)
    assert res.status_code == 302 and res["Location"].startswith("/portal/giris?next=")


def test_post_without_login_changes_nothing(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    res = t.post(f"/portal/projeler/sec/{musteri.id}")
    assert res.status_code == 302 and res["Location"].startswith("/portal/giris")
    res = t.post("/portal/projelerim", {"firma_adi": "Kaçak"})
    assert res.status_code == 302 and Musteri.objects.count() == 1
    user.refresh_from_db()


def test_password_change(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    yeni = {"new_password1": "Yeni-Sifre-2027", "new_password2": "Yeni-Sifre-2027"}
    res = t.post("/portal/sifre", {"old_password": "yanlis", **yeni})
    assert res.status_code == 200 and res.context["form"].errors
    res = t.post("/portal/sifre", {"old_password": TEST_SIFRE, "new_password1": "Yeni-Sifre-2027",
                                   "new_password2": "Yeni-Sifre-2027"})
    assert res.status_code == 302
    assert t.get("/portal/").status_code == 200  # this session stays signed in
    user.refresh_from_db()
    assert user.check_password("Yeni-Sifre-2027")


def test_next_is_honoured_only_for_local_urls(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    res = t.post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE, "next": "/portal/widget"})
    assert res["Location"] == "/portal/widget"
    t = Tarayici()
    res = t.post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE, "next": "https://kotu.example.com/"})
    assert res["Location"] == "/portal/"


def test_trial_days_on_the_dashboard_count_down(musteri):
    musteri.trial_bitis = timezone.now() + timedelta(days=2)
    musteri.save()
    html = giris_yapmis(operator_yap(musteri)).get("/portal/").content.decode()
    assert "2 gün" in html and "rakam-kritik" in html


def test_login_limit_is_per_ip_and_email_so_other_accounts_can_still_log_in(musteri, settings):
    """CONTRACT 9: login attempts per IP and e-mail (`LOGIN_RATE_LIMIT`), the portal form included."""
    settings.LOGIN_RATE_LIMIT = "2/min"
    settings.PORTAL_RATE_LIMIT = "1000/min"
    hedef = operator_yap(musteri, email="hedef@ornek.com")
    baska = operator_yap(musteri, email="baska@ornek.com")
    t = Tarayici()
    for _ in range(2):
        assert t.giris(hedef, sifre="yanlis").status_code == 200
    assert t.giris(hedef).status_code == 429
    assert t.giris(baska, sifre="yanlis").status_code == 200  # a wrong password, not a lock-out
    assert t.giris(baska).status_code == 302


def test_login_limit_is_shared_with_the_api_login(musteri, settings, api):
    settings.LOGIN_RATE_LIMIT = "2/min"
    user = operator_yap(musteri)
    for _ in range(2):
        res = api.post("/api/v1/auth/login", {"email": user.email, "sifre": "yanlis"}, format="json")
        assert res.status_code == 401
    res = Tarayici().giris(user)
    assert res.status_code == 429 and int(res["Retry-After"]) >= 1


def test_login_and_signup_accept_password_as_the_field_name(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    res = t.post("/portal/giris", {"email": user.email, "password": TEST_SIFRE})
    assert res.status_code == 302 and "_auth_user_id" in t.session
    t = Tarayici()
    res = kayit_ol(t, {"email": "yeni@ornek.com", "password": "Mavi-Deniz-2026", "firma_adi": "Yeni"})
    assert res.status_code == 302, res.content.decode()[:1500]
    assert Kullanici.objects.get(email="yeni@ornek.com").check_password("Mavi-Deniz-2026")


def test_signup_without_a_project_name_field_gets_a_default_name():
    t = Tarayici()
    res = kayit_ol(t, {"email": "adsiz@ornek.com", "sifre": "Mavi-Deniz-2026"})
    assert res.status_code == 302 and res["Location"] == "/portal/", res.content.decode()[:1500]
    user = Kullanici.objects.get(email="adsiz@ornek.com")
    musteri = Musteri.objects.get(olusturan=user)
    assert musteri.firma_adi == "Proje 1"
    assert Uyelik.objects.get(kullanici=user, musteri=musteri).rol == "sahip"
    assert t.session[AKTIF] == musteri.id


@pytest.mark.parametrize("takma, hedef", [("/portal/login", "/portal/giris"), ("/portal/signin", "/portal/giris"),
                                          ("/portal/signup", "/portal/kayit"), ("/portal/register", "/portal/kayit"),
                                          ("/portal/logout", "/portal/cikis"), ("/portal/giris/", "/portal/giris"),
                                          ("/portal/projeler/", "/portal/projeler")])
def test_obvious_aliases_and_trailing_slashes_lead_to_the_page(db, takma, hedef):
    res = Tarayici().get(takma)
    assert res.status_code == 302 and res["Location"] == hedef


def test_a_post_to_an_alias_keeps_its_body_and_logs_in(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    res = t.post("/portal/login?next=/portal/widget", {"email": user.email, "sifre": TEST_SIFRE})
    assert res.status_code == 307 and res["Location"] == "/portal/giris?next=/portal/widget"
    res = t.post("/portal/login?next=/portal/widget", {"email": user.email, "sifre": TEST_SIFRE}, follow=True)
    assert res.redirect_chain[-1][0] == "/portal/widget" and res.status_code == 200
    assert "_auth_user_id" in t.session
    # A trailing slash on a form target is the same: the choice of a project still happens.
    res = t.post(f"/portal/projeler/sec/{musteri.id}/", follow=True)
    assert res.status_code == 200 and t.session[AKTIF] == musteri.id


def test_a_post_to_an_alias_still_needs_the_csrf_token(musteri):
    user = operator_yap(musteri)
    t = Tarayici()
    assert t.post("/portal/login", {"email": user.email, "sifre": TEST_SIFRE}, csrf=False).status_code == 403
    assert "_auth_user_id" not in t.session


@pytest.mark.parametrize("url", ["/portal/yok", "/portal/yok/", "/portal/widget/ek", "/portal/projeler/sec/abc"])
def test_unknown_portal_paths_are_a_product_404_page(db, url):
    res = Tarayici().get(url)
    assert res.status_code == 404
    assert "Sayfa bulunamadı" in res.content.decode()
