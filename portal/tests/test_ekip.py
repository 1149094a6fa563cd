"""/portal/ekip and /portal/davet/<token>: invitations, roles, removal, the last owner (CONTRACT 13)."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from chat.models import Oturum
from supportdesk.testing.factories import TEST_SIFRE
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants import ekip
from tenants.models import Davet, Kullanici, Uyelik

from .yardimci import AKTIF, Tarayici, giris_yapmis

pytestmark = pytest.mark.django_db
EKIP = "/portal/ekip"
YENI_SIFRE = "Ekip-Sifresi-2026!"


@pytest.fixture
def sahip_user(musteri):
    return operator_yap(musteri, rol="sahip")


@pytest.fixture
def sahip(sahip_user):
    return giris_yapmis(sahip_user)


def davet_et(t, email, rol="operator", max_chat=""):
    res = t.post(EKIP, {"email": email, "rol": rol, "max_chat_per_tenant": max_chat})
    assert res.status_code == 200, res.content.decode()[:1500]
    url = res.context["yeni_davet"]["url"]
    assert url in res.content.decode()
    return url.removeprefix("http://testserver")


def test_invite_a_new_user_who_sets_a_password_and_joins(sahip, musteri):
    yol = davet_et(sahip, "Yeni@Ornek.com", rol="yonetici", max_chat="3")
    davet = Davet.objects.get(musteri=musteri)
    assert davet.email == "yeni@ornek.com" and davet.son_gecerlilik - davet.olusturulma == timedelta(days=7)
    assert yol.split("/")[-1] not in davet.token_ozeti  # only the hash is stored
    assert "yeni@ornek.com" in sahip.get(EKIP).content.decode()  # pending invitations listed

    yeni = Tarayici()
    res = yeni.get(yol)
    assert res.status_code == 200 and "Hesabı oluştur" in res.content.decode()
    res = yeni.post(yol, {"ad": "Yeni Kişi", "sifre": "123"})
    assert res.status_code == 200 and res.context["form"].errors["sifre"]
    assert not Kullanici.objects.filter(email="yeni@ornek.com").exists()
    res = yeni.post(yol, {"ad": "Yeni Kişi", "sifre": YENI_SIFRE})
    assert res.status_code == 302 and res["Location"] == "/portal/"
    uyelik = Uyelik.objects.get(kullanici__email="yeni@ornek.com", musteri=musteri)
    assert (uyelik.rol, uyelik.max_chat_per_tenant) == ("yonetici", 3)
    assert yeni.session[AKTIF] == musteri.id
    # Reused link: a clean page, nothing changes.
    res = Tarayici().post(yol, {"sifre": YENI_SIFRE})
    assert res.status_code == 404 and "geçersiz" in res.content.decode()
    assert Uyelik.objects.filter(musteri=musteri).count() == 2


def test_invite_an_existing_user_who_signs_in_and_joins(sahip, musteri, diger_musteri):
    mevcut = operator_yap(diger_musteri, email="mevcut@ornek.com")
    yol = davet_et(sahip, "mevcut@ornek.com")
    anonim = Tarayici()
    assert "giriş yapın" in anonim.get(yol).content.decode()
    res = anonim.post(yol, {"sifre": YENI_SIFRE})  # cannot take over an existing account
    assert res.status_code == 200 and not Uyelik.objects.filter(kullanici=mevcut, musteri=musteri).exists()
    baskasi = giris_yapmis(operator_yap(diger_musteri))
    assert "giriş yapın" in baskasi.get(yol).content.decode()
    t = Tarayici()
    res = t.post("/portal/giris", {"email": mevcut.email, "sifre": TEST_SIFRE, "next": yol})
    assert res["Location"] == yol  # back to the link after signing in
    res = t.post(yol)
    assert res.status_code == 302
    assert Uyelik.objects.get(kullanici=mevcut, musteri=musteri).rol == "operator"
    assert t.session[AKTIF] == musteri.id


def test_expired_link_fails_cleanly(sahip, musteri):
    yol = davet_et(sahip, "gec@ornek.com")
    Davet.objects.filter(musteri=musteri).update(son_gecerlilik=timezone.now() - timedelta(seconds=1))
    t = Tarayici()
    assert t.get(yol).status_code == 404
    res = t.post(yol, {"sifre": YENI_SIFRE})
    assert res.status_code == 404 and not Kullanici.objects.filter(email="gec@ornek.com").exists()
    assert Tarayici().get("/portal/davet/uydurma-token").status_code == 404


def test_a_new_invitation_withdraws_the_older_link(sahip, musteri):
    eski = davet_et(sahip, "iki@ornek.com")
    yeni = davet_et(sahip, "iki@ornek.com")
    assert Tarayici().get(eski).status_code == 404 and Tarayici().get(yeni).status_code == 200


@pytest.mark.parametrize("veri,alan", [
    ({"email": "", "rol": "operator"}, "email"), ({"email": "x", "rol": "operator"}, "email"),
    ({"email": "a@b.com", "rol": "kral"}, "rol"), ({"email": "a@b.com", "rol": "operator", "max_chat_per_tenant": "0"},
                                                   "max_chat_per_tenant"),
    ({"email": "a@b.com", "rol": "operator", "max_chat_per_tenant": "abc"}, "max_chat_per_tenant"),
])
def test_bad_invitation_input_is_a_form_error(sahip, musteri, veri, alan):
    res = sahip.post(EKIP, veri)
    assert res.status_code == 200 and res.context["davet_form"].errors[alan]
    assert 'class="alan-hata"' in res.content.decode() and not Davet.objects.exists()


def test_inviting_a_member_is_a_form_error(sahip, sahip_user):
    res = sahip.post(EKIP, {"email": sahip_user.email, "rol": "operator"})
    assert res.context["davet_form"].errors["email"] and not Davet.objects.exists()


def test_change_role_and_limit_then_remove_takes_effect_for_api_tokens(sahip, musteri):
    op = operator_yap(musteri)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, op)}")
    uyelik = Uyelik.objects.get(kullanici=op, musteri=musteri)
    res = sahip.post(f"{EKIP}/{uyelik.id}", {"islem": "guncelle", "rol": "yonetici", "max_chat_per_tenant": "4"})
    assert res.status_code == 302
    uyelik.refresh_from_db()
    assert (uyelik.rol, uyelik.max_chat_per_tenant) == ("yonetici", 4)
    sahip.post(f"{EKIP}/{uyelik.id}", {"islem": "guncelle", "rol": "yonetici", "max_chat_per_tenant": "-1"})
    uyelik.refresh_from_db()
    assert uyelik.max_chat_per_tenant == 4  # bad input kept nothing
    ids = [m["id"] for m in api.get("/api/v1/operator/tenants").json()["data"]["musteriler"]]
    assert ids == [musteri.id]
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="v1", durum="aktif", operator=op)
    assert sahip.post(f"{EKIP}/{uyelik.id}", {"islem": "cikar"}).status_code == 302
    assert not Uyelik.objects.filter(pk=uyelik.id).exists()
    oturum.refresh_from_db()
    assert (oturum.durum, oturum.operator_id) == ("bekliyor", None)  # back to the queue
    assert api.get("/api/v1/operator/tenants").json()["data"]["musteriler"] == []
    assert api.get("/api/v1/operator/chats").json()["data"]["oturumlar"] == []


def test_the_last_owner_can_be_neither_demoted_nor_removed(sahip, sahip_user, musteri):
    uyelik = Uyelik.objects.get(kullanici=sahip_user, musteri=musteri)
    res = sahip.post(f"{EKIP}/{uyelik.id}", {"islem": "guncelle", "rol": "operator"}, follow=True)
    assert "en az bir sahibi" in res.content.decode()
    sahip.post(f"{EKIP}/{uyelik.id}", {"islem": "cikar"})
    uyelik.refresh_from_db()
    assert uyelik.rol == "sahip"
    ikinci = operator_yap(musteri, rol="sahip")
    sahip.post(f"{EKIP}/{uyelik.id}", {"islem": "guncelle", "rol": "operator"})
    uyelik.refresh_from_db()
    assert uyelik.rol == "operator"  # another owner remains
    ikinci_uyelik = Uyelik.objects.get(kullanici=ikinci, musteri=musteri)
    giris_yapmis(ikinci).post(f"{EKIP}/{ikinci_uyelik.id}", {"islem": "cikar"})
    assert Uyelik.objects.filter(musteri=musteri, rol="sahip").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_owners_demoting_each_other_at_once_leave_one_owner(musteri):
    a, b = operator_yap(musteri, rol="sahip"), operator_yap(musteri, rol="sahip")
    uyelikler = list(Uyelik.objects.filter(kullanici__in=[a, b], musteri=musteri))
    engel = threading.Barrier(2)
    hatalar = []

    def dusur(uyelik):
        try:
            engel.wait()
            ekip.uyelik_guncelle(uyelik=uyelik, rol="operator", max_chat_per_tenant=None)
        except Exception as exc:  # noqa: BLE001
            hatalar.append(exc)
        finally:
            connection.close()

    isler = [threading.Thread(target=dusur, args=(u,)) for u in uyelikler]
    [i.start() for i in isler]
    [i.join() for i in isler]
    assert Uyelik.objects.filter(musteri=musteri, rol="sahip").count() == 1
    assert len(hatalar) == 1


def test_operator_member_cannot_change_anything(musteri, sahip_user):
    op = operator_yap(musteri)
    t = giris_yapmis(op)
    assert t.get(EKIP).status_code == 200
    uyelik = Uyelik.objects.get(kullanici=sahip_user)
    assert t.post(EKIP, {"email": "x@y.com", "rol": "sahip"}).status_code == 403
    assert t.post(f"{EKIP}/{uyelik.id}", {"islem": "cikar"}).status_code == 403
    assert not Davet.objects.exists() and Uyelik.objects.filter(pk=uyelik.id).exists()


def test_another_projects_member_and_invitation_are_404(sahip, musteri, diger_musteri):
    yabanci = operator_yap(diger_musteri, rol="sahip")
    yabanci_uyelik = Uyelik.objects.get(kullanici=yabanci)
    assert sahip.post(f"{EKIP}/{yabanci_uyelik.id}", {"islem": "cikar"}).status_code == 404
    diger_sahip = giris_yapmis(yabanci)
    davet_et(diger_sahip, "z@ornek.com")
    davet = Davet.objects.get(musteri=diger_musteri)
    assert sahip.post(f"{EKIP}/davet/{davet.id}/iptal").status_code == 404
    assert Uyelik.objects.filter(pk=yabanci_uyelik.id).exists()
    assert "z@ornek.com" not in sahip.get(EKIP).content.decode()


def test_an_admin_manages_operators_but_not_owners(musteri, sahip_user):
    yonetici = giris_yapmis(operator_yap(musteri, rol="yonetici"))
    op = operator_yap(musteri)
    op_uyelik = Uyelik.objects.get(kullanici=op)
    sahip_uyelik = Uyelik.objects.get(kullanici=sahip_user)
    res = yonetici.post(EKIP, {"email": "patron@ornek.com", "rol": "sahip"})
    assert res.status_code == 200 and res.context["davet_form"].errors["rol"] and not Davet.objects.exists()
    yonetici.post(f"{EKIP}/{op_uyelik.id}", {"islem": "guncelle", "rol": "sahip"})
    yonetici.post(f"{EKIP}/{sahip_uyelik.id}", {"islem": "guncelle", "rol": "operator"})
    yonetici.post(f"{EKIP}/{sahip_uyelik.id}", {"islem": "cikar"})
    assert Uyelik.objects.filter(musteri=musteri, rol="sahip").count() == 1
    assert Uyelik.objects.get(pk=op_uyelik.id).rol == "operator"
    yonetici.post(f"{EKIP}/{op_uyelik.id}", {"islem": "guncelle", "rol": "yonetici", "max_chat_per_tenant": "2"})
    assert Uyelik.objects.get(pk=op_uyelik.id).rol == "yonetici"
    assert davet_et(yonetici, "yeni-op@ornek.com")


def test_an_invited_operator_lands_where_the_console_is_one_click_away(sahip, musteri):
    """CONTRACT 21: members with the operator role find a link to /panel/ (an operator who accepted
    an invitation landed on the owners' dashboard with no way to the console it works in)."""
    yol = davet_et(sahip, "op@ornek.com", rol="operator")
    yeni = Tarayici()
    res = yeni.post(yol, {"ad": "Op", "sifre": YENI_SIFRE}, follow=True)
    assert res.status_code == 200 and res.redirect_chain[-1][0] == "/portal/", res.redirect_chain
    html = res.content.decode()
    assert 'data-test="konsol-karti"' in html and 'href="/panel/" data-test="konsol-ac"' in html
    assert "operatör panelinde" in html  # the welcome message says where the work is
    assert 'href="/panel/" data-test="panel-baglanti"' in html
    assert yeni.get("/panel/").status_code == 200


@pytest.mark.parametrize("rol", ["sahip", "yonetici", "operator"])
def test_every_member_has_the_console_link_in_the_header(musteri, rol):
    t = giris_yapmis(operator_yap(musteri, rol=rol))
    for yol in ("/portal/", "/portal/raporlar", "/portal/ekip"):
        html = t.get(yol).content.decode()
        assert 'href="/panel/" data-test="panel-baglanti"' in html, yol
    assert ('data-test="konsol-karti"' in t.get("/portal/").content.decode()) == (rol == "operator")
