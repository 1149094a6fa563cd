"""Spec 4.6: project choice, switching, self-service projects (trial, 3 per rolling 24 hours)."""
import io
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from portal.models import SelfServisProje
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Kullanici, Musteri, Uyelik
from tenants.services import uyelik_ekle

from .yardimci import AKTIF, Tarayici, arkada_isle, giris_yapmis, gonderilen, kayit_ol

pytestmark = pytest.mark.django_db


def sec(t, musteri_id, **data):
    return t.post(f"/portal/projeler/sec/{musteri_id}", data)


@pytest.fixture
def iki_projeli(musteri, diger_musteri):
    return operator_yap(musteri, diger_musteri, rol="sahip")


def test_choosing_a_project_sets_the_session_and_syncs_musteri_id(iki_projeli, musteri, diger_musteri):
    t = giris_yapmis(iki_projeli)
    res = sec(t, diger_musteri.id)
    assert res.status_code == 302 and res["Location"] == "/portal/"
    assert t.session[AKTIF] == diger_musteri.id
    iki_projeli.refresh_from_db()
    assert iki_projeli.musteri_id == diger_musteri.id
    html = t.get("/portal/").content.decode()
    assert diger_musteri.api_key in html and musteri.api_key not in html
    # Switching back moves both again.
    sec(t, musteri.id, next="/portal/widget")
    assert t.session[AKTIF] == musteri.id
    iki_projeli.refresh_from_db()
    assert iki_projeli.musteri_id == musteri.id


def test_switch_keeps_the_api_login_primary_tenant_in_sync(iki_projeli, diger_musteri, api):
    t = giris_yapmis(iki_projeli)
    sec(t, diger_musteri.id)
    from supportdesk.testing.factories import TEST_SIFRE

    res = api.post("/api/v1/auth/login", {"email": iki_projeli.email, "sifre": TEST_SIFRE}, format="json")
    assert res.json()["data"]["operator"]["musteri_id"] == diger_musteri.id


def test_forged_choice_of_a_foreign_project_is_404_and_changes_nothing(iki_projeli, musteri):
    yabanci = MusteriFactory(firma_adi="Yabancı")
    t = giris_yapmis(iki_projeli)
    sec(t, musteri.id)
    for hedef in (yabanci.id, 999999):
        res = sec(t, hedef)
        assert res.status_code == 404
        assert "Sayfa bulunamadı" in res.content.decode()
        assert t.session[AKTIF] == musteri.id
        iki_projeli.refresh_from_db()
        assert iki_projeli.musteri_id == musteri.id


def test_choice_needs_post(iki_projeli, musteri):
    t = giris_yapmis(iki_projeli)
    assert t.get(f"/portal/projeler/sec/{musteri.id}").status_code == 405
    assert AKTIF not in t.session


def test_project_list_shows_only_own_projects(iki_projeli, musteri, diger_musteri):
    yabanci = MusteriFactory(firma_adi="Hiç Görünmemeli")
    t = giris_yapmis(iki_projeli)
    for url in ("/portal/projeler", "/portal/projelerim"):
        html = t.get(url).content.decode()
        assert musteri.firma_adi in html and diger_musteri.firma_adi in html
        assert yabanci.firma_adi not in html and f"/portal/projeler/sec/{yabanci.id}" not in html


def test_header_dropdown_only_with_two_or_more_projects(musteri, diger_musteri):
    tek = giris_yapmis(operator_yap(musteri))
    assert 'data-test="proje-menu"' not in tek.get("/portal/").content.decode()
    iki = giris_yapmis(operator_yap(musteri, diger_musteri))
    sec(iki, musteri.id)
    for url in ("/portal/", "/portal/widget", "/portal/webhooks", "/portal/projelerim", "/portal/sifre"):
        html = iki.get(url).content.decode()
        assert 'data-test="proje-menu"' in html, url
        assert f'action="/portal/projeler/sec/{diger_musteri.id}"' in html


def test_a_project_the_user_left_cannot_stay_active(musteri, diger_musteri):
    ucuncu = MusteriFactory()
    user = operator_yap(musteri, diger_musteri, ucuncu)
    t = giris_yapmis(user)
    sec(t, diger_musteri.id)
    Uyelik.objects.filter(kullanici=user, musteri=diger_musteri).delete()
    res = t.get("/portal/widget")
    assert res.status_code == 302 and res["Location"].startswith("/portal/projeler")
    assert AKTIF not in t.session
    assert sec(t, diger_musteri.id).status_code == 404


def test_when_one_project_is_left_it_becomes_active(musteri, diger_musteri):
    user = operator_yap(musteri, diger_musteri)
    t = giris_yapmis(user)
    sec(t, diger_musteri.id)
    Uyelik.objects.filter(kullanici=user, musteri=diger_musteri).delete()
    assert t.get("/portal/").status_code == 200
    assert t.session[AKTIF] == musteri.id
    user.refresh_from_db()
    assert user.musteri_id == musteri.id


def test_a_disabled_project_cannot_stay_active(musteri, diger_musteri):
    user = operator_yap(musteri, diger_musteri, MusteriFactory())
    t = giris_yapmis(user)
    sec(t, diger_musteri.id)
    Musteri.objects.filter(pk=diger_musteri.pk).update(aktif=False)
    assert t.get("/portal/").status_code == 302
    assert AKTIF not in t.session


def test_forged_session_value_is_never_trusted(musteri):
    yabanci = MusteriFactory()
    user = operator_yap(musteri, MusteriFactory())
    t = giris_yapmis(user)
    s = t.session
    s[AKTIF] = yabanci.id
    s.save()
    res = t.get("/portal/widget")
    assert res.status_code == 302 and yabanci.api_key not in res.content.decode()
    assert AKTIF not in t.session


# --- self-service projects -------------------------------------------------------------------

def test_new_project_page_and_creation(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    assert t.get("/portal/projelerim/yeni").status_code == 200
    res = t.post("/portal/projelerim", {"firma_adi": "  Güney Market  "})
    assert res.status_code == 302 and res["Location"] == "/portal/"
    yeni = Musteri.objects.get(firma_adi="Güney Market")
    assert yeni.olusturan == user
    assert Uyelik.objects.get(kullanici=user, musteri=yeni).rol == "sahip"
    assert yeni.trial_bitis - yeni.olusturulma == pytest.approx(timedelta(days=14), abs=timedelta(seconds=5))
    assert yeni.api_key and yeni.api_secret and yeni.izinli_originler == []
    # The new project is the active one now, and the user's musteri_id follows.
    assert t.session[AKTIF] == yeni.id
    user.refresh_from_db()
    assert user.musteri_id == yeni.id
    html = t.get("/portal/").content.decode()
    assert "14 gün" in html and yeni.api_key in html


@pytest.mark.parametrize("firma_adi", ["", "   ", "x" * 121])
def test_new_project_bad_name(musteri, firma_adi):
    t = giris_yapmis(operator_yap(musteri))
    res = t.post("/portal/projelerim", {"firma_adi": firma_adi})
    assert res.status_code == 200 and res.context["form"].errors["firma_adi"]
    assert Musteri.objects.count() == 1


def test_fourth_project_in_24_hours_is_refused_with_429_and_no_row(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    for i in range(3):
        assert t.post("/portal/projelerim", {"firma_adi": f"Proje {i}"}).status_code == 302
    res = t.post("/portal/projelerim", {"firma_adi": "Dördüncü"})
    assert res.status_code == 429
    assert 1 <= int(res["Retry-After"]) <= 24 * 3600
    html = res.content.decode()
    assert 'data-test="limit"' in html and "24 saat içinde en çok 3" in html
    assert not Musteri.objects.filter(firma_adi="Dördüncü").exists()
    assert Musteri.objects.filter(olusturan=user).count() == 3
    assert SelfServisProje.objects.filter(kullanici=user).count() == 3


def test_sign_up_project_is_not_one_of_the_three_new_projects():
    t = Tarayici()
    assert kayit_ol(t, {"email": "s@ornek.com", "sifre": "Mavi-Deniz-2026", "firma_adi": "İlk"}).status_code == 302
    for ad in ("İkinci", "Üçüncü", "Dördüncü"):
        assert t.post("/portal/projelerim", {"firma_adi": ad}).status_code == 302
    user = Kullanici.objects.get(email="s@ornek.com")
    once = Musteri.objects.count()
    res = t.post("/portal/projelerim", {"firma_adi": "Beşinci"})
    assert res.status_code == 429
    assert Musteri.objects.count() == once and user.uyelikler.count() == 4


def _eski_proje(user, zaman):
    SelfServisProje.objects.create(kullanici=user, musteri=MusteriFactory(olusturan=user, olusturulma=zaman), olusturulma=zaman)


def test_the_24_hour_window_rolls(musteri):
    user = operator_yap(musteri)
    for _ in range(3):
        _eski_proje(user, timezone.now() - timedelta(hours=24, minutes=1))
    _eski_proje(user, timezone.now() - timedelta(hours=23))
    t = giris_yapmis(user)
    assert t.post("/portal/projelerim", {"firma_adi": "A"}).status_code == 302
    assert t.post("/portal/projelerim", {"firma_adi": "B"}).status_code == 302
    res = t.post("/portal/projelerim", {"firma_adi": "C"})
    assert res.status_code == 429
    # The oldest project inside the window leaves it in about an hour.
    assert 3000 <= int(res["Retry-After"]) <= 3700


def test_projects_of_others_do_not_count(musteri):
    baskasi = operator_yap(musteri)
    for _ in range(3):
        _eski_proje(baskasi, timezone.now())
    t = giris_yapmis(operator_yap(musteri))
    assert t.post("/portal/projelerim", {"firma_adi": "Benim"}).status_code == 302


def test_projects_provisioned_by_an_admin_do_not_count(db):
    """Spec 8 limits self-service projects; `musteri_olustur --sahip` is not one."""
    from django.core.management import call_command

    from supportdesk.testing.factories import TEST_SIFRE

    for i in range(3):
        call_command("musteri_olustur", "--firma-adi", f"Kurumsal {i}", "--sahip", "kurumsal@ornek.com", "--json")
    call_command("operator_olustur", "--email", "kurumsal@ornek.com", "--sifre", TEST_SIFRE,
                 "--musteri", str(Musteri.objects.first().id), "--rol", "sahip", "--json")
    t = Tarayici()
    t.post("/portal/giris", {"email": "kurumsal@ornek.com", "sifre": TEST_SIFRE})
    for i in range(3):
        assert t.post("/portal/projelerim", {"firma_adi": f"Kendi {i}"}).status_code == 302
    assert t.post("/portal/projelerim", {"firma_adi": "Dördüncü"}).status_code == 429
    assert Musteri.objects.count() == 6


def test_deleting_a_project_does_not_give_the_allowance_back(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    for i in range(3):
        t.post("/portal/projelerim", {"firma_adi": f"Proje {i}"})
    Musteri.objects.filter(olusturan=user).delete()
    assert t.post("/portal/projelerim", {"firma_adi": "Yine"}).status_code == 429


def test_operator_member_may_still_create_own_projects(musteri):
    user = operator_yap(musteri, rol="operator")
    t = giris_yapmis(user)
    assert t.post("/portal/projelerim", {"firma_adi": "Kendi işim"}).status_code == 302
    assert Uyelik.objects.get(kullanici=user, musteri__firma_adi="Kendi işim").rol == "sahip"


# --- query counts -----------------------------------------------------------------------------

def _uye_yap(user, n):
    for _ in range(n):
        uyelik_ekle(kullanici=user, musteri=MusteriFactory(), rol="sahip")


@pytest.mark.parametrize("url", ["/portal/projeler", "/portal/projelerim"])
def test_project_lists_have_a_flat_query_count(db, url, django_assert_max_num_queries):
    from supportdesk.testing.factories import KullaniciFactory

    user = KullaniciFactory()
    t = Tarayici()
    t.c.force_login(user)
    for toplam in (0, 1, 12):
        _uye_yap(user, toplam - user.uyelikler.count())
        t.get(url)  # the first visit with one project activates it (a one-off write)
        with django_assert_max_num_queries(5):
            res = t.get(url)
        assert res.status_code == 200
        assert res.content.decode().count("/portal/projeler/sec/") >= (toplam if toplam != 1 else 0)


def test_dashboard_query_count(musteri, django_assert_max_num_queries):
    t = giris_yapmis(operator_yap(musteri, *[MusteriFactory() for _ in range(5)]))
    sec(t, musteri.id)
    with django_assert_max_num_queries(8):
        assert t.get("/portal/").status_code == 200


def test_dashboard_figures_count_only_the_active_project(musteri, diger_musteri):
    from chat.models import Oturum
    from tickets.models import Ticket

    dun = timezone.now() - timedelta(days=1, hours=1)
    Oturum.objects.create(musteri=musteri, ziyaretci_id="a")
    Oturum.objects.create(musteri=musteri, ziyaretci_id="b", durum="kapandi")
    Oturum.objects.create(musteri=musteri, ziyaretci_id="c", baslangic=dun)
    Oturum.objects.create(musteri=diger_musteri, ziyaretci_id="d")
    for durum in ("acik", "beklemede", "cozuldu", "kapandi"):
        Ticket.objects.create(musteri=musteri, ziyaretci_id="a", konu="Fatura", durum=durum)
    Ticket.objects.create(musteri=diger_musteri, ziyaretci_id="d", konu="Başka", durum="acik")
    res = giris_yapmis(operator_yap(musteri)).get("/portal/")
    assert res.context["bugunku_sohbet"] == 2
    assert res.context["acik_ticket"] == 2


@pytest.mark.django_db(transaction=True)
def test_racing_creations_never_pass_the_limit():
    """Two projects so far, four requests at once: the row lock on the user lets exactly one through."""
    import threading

    from django.db import connection, connections

    from portal.services import proje_olustur
    from supportdesk.core.exceptions import LimitAsildi
    from supportdesk.testing.factories import KullaniciFactory

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    user = KullaniciFactory()
    for i in range(2):
        proje_olustur(kullanici=user, firma_adi=f"Önceki {i}")
    kapi = threading.Barrier(4)
    sonuclar = []

    def yarisan(i):
        try:
            kapi.wait()
            proje_olustur(kullanici=user, firma_adi=f"Yarış {i}")
            sonuclar.append("olustu")
        except LimitAsildi:
            sonuclar.append("limit")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=yarisan, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(sonuclar) == ["limit", "limit", "limit", "olustu"]
    assert Musteri.objects.filter(olusturan=user).count() == 3


def test_new_project_without_a_name_field_gets_a_numbered_default(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    res = t.post("/portal/projelerim", {})
    assert res.status_code == 302 and res["Location"] == "/portal/"
    yeni = Musteri.objects.get(olusturan=user)
    assert yeni.firma_adi == "Proje 2"
    assert Uyelik.objects.get(kullanici=user, musteri=yeni).rol == "sahip"


def test_new_project_page_tells_how_many_are_left(musteri):
    user = operator_yap(musteri)
    t = giris_yapmis(user)
    assert "Şu an 3 hakkınız var" in t.get("/portal/projelerim/yeni").content.decode()
    for i in range(3):
        t.post("/portal/projelerim", {"firma_adi": f"P{i}"})
    html = t.get("/portal/projelerim/yeni").content.decode()
    assert "Bu hakkı doldurdunuz" in html


@pytest.mark.parametrize(("uye_dili", "tarayici", "beklenen"), [
    ("en", "tr-TR,tr;q=0.9", "en"),   # the member's own choice wins over its browser
    ("", "en-GB,en;q=0.9", "en"),     # no choice: the language its page speaks
    ("tr", "en-US", "tr"),
    ("", "", "tr"),
])
def test_a_new_project_speaks_its_creators_language(musteri, uye_dili, tarayici, beklenen):
    """Issue 39.9: an English-speaking owner's new project has an English widget, system lines and
    visitor mails, not Turkish ones."""
    user = operator_yap(musteri)
    user.dil = uye_dili
    user.save(update_fields=["dil"])
    t = giris_yapmis(user)
    res = t.post("/portal/projelerim", {"firma_adi": "Dil Projesi"}, HTTP_ACCEPT_LANGUAGE=tarayici)
    assert res.status_code == 302, res.content.decode()[:2000]
    assert Musteri.objects.get(firma_adi="Dil Projesi").dil == beklenen


def test_a_sign_up_project_speaks_the_sign_up_pages_language():
    t = Tarayici()
    res = arkada_isle(t.post, "/portal/kayit", {"email": "en@ornek.com", "sifre": "Mavi-Deniz-2026", "firma_adi": "Blue"},
                      HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert res.status_code == 302, res.content.decode()[:1500]
    yol = re.search(r"https?://[^/\s]+(/portal/kayit/onay/\S+)", gonderilen("en@ornek.com").body).group(1)
    assert t.post(yol).status_code == 302
    assert Musteri.objects.get(firma_adi="Blue").dil == "en"


def test_a_project_provisioned_for_an_english_member_by_command_is_english(db):
    from django.core.management import call_command

    Kullanici.objects.create_user(email="sahip@ornek.com", dil="en")
    call_command("musteri_olustur", "--firma-adi", "Komut Projesi", "--sahip", "sahip@ornek.com", stdout=io.StringIO())
    assert Musteri.objects.get(firma_adi="Komut Projesi").dil == "en"
    call_command("musteri_olustur", "--firma-adi", "Sahipsiz", stdout=io.StringIO())
    assert Musteri.objects.get(firma_adi="Sahipsiz").dil == "tr"
