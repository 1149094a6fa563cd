"""Sign-up and password reset never tell which addresses have an account (found by an outside
probe: the sign-up page said "Bu e-posta adresiyle zaten bir hesap var.", and a reset request
took 18-39 ms for an account against 6-9 ms for none).

Both answer the same page after the same work: the request checks the form and the limits and
hands everything else to one background task, whatever the address. Timing is asserted by its
structure (the same statements, one task handed on, no mail written inside the request), not by
the clock. What differs is only the mail its holder gets, afterwards."""
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from eposta.models import GidenEposta
from portal.models import BekleyenKayit
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Kullanici, Musteri

from .yardimci import AKTIF, Tarayici, arkada_isle, gonderilen, kayit_baglantisi, kayit_ol

pytestmark = pytest.mark.django_db
KAYIT, SIFIRLA = "/portal/kayit", "/portal/sifremi-unuttum"
VAR, YOK = "var@ornek.com", "yok@ornek.com"
SIFRE = "Mavi-Deniz-2026"
_CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def _iste(t, url, veri, yakala):
    """One POST as the server sees it: its answer, its SQL statements, what it left for after the
    commit (not run yet), and whether it wrote a mail itself."""
    once = GidenEposta.objects.count()
    with CaptureQueriesContext(connection) as sorgular, yakala(execute=False) as sonra:
        res = t.post(url, veri)
    yazdi = GidenEposta.objects.count() != once
    return res, [_kalip(q["sql"]) for q in sorgular.captured_queries], sonra, yazdi


def _kalip(sql: str) -> str:
    """A statement without its values (a session key, a time, a savepoint's name)."""
    return re.sub(r'"s\d+_x\d+"', "S", re.sub(r"'(?:[^']|'')*'", "?", sql))


def _karsilastir(url, veri, yakala):
    izler = {}
    for email in (VAR, YOK):
        t = Tarayici()
        t.token()  # the CSRF cookie first, outside the measured request
        res, sorgular, sonra, yazdi = _iste(t, url, {**veri, "email": email}, yakala)
        sayfa = t.get(res["Location"]) if res.status_code == 302 else res
        izler[email] = {"durum": res.status_code, "yer": res.get("Location"), "govde": res.content,
                        "sayfa": (sayfa.status_code, _CSRF.sub(b"", sayfa.content)),
                        "sorgular": sorgular, "gorevler": len(sonra), "istekte_eposta": yazdi}
        for geri_cagri in sonra:  # now the background part, as a worker would run it
            geri_cagri()
    return izler


def test_password_reset_answers_and_works_the_same_for_an_account_and_for_none(musteri,
                                                                                django_capture_on_commit_callbacks):
    operator_yap(musteri, email=VAR)
    izler = _karsilastir(SIFIRLA, {}, django_capture_on_commit_callbacks)
    assert izler[VAR] == izler[YOK]
    assert izler[VAR]["durum"] == 302 and izler[VAR]["yer"] == "/portal/sifremi-unuttum/gonderildi"
    assert izler[VAR]["gorevler"] == 1 and izler[VAR]["istekte_eposta"] is False
    # Only afterwards, in the background, does the account make a difference.
    assert GidenEposta.objects.filter(tur="sifre_sifirlama", alici=VAR).count() == 1
    assert not GidenEposta.objects.filter(alici=YOK).exists()


def test_sign_up_with_a_taken_address_answers_like_a_fresh_one(musteri, django_capture_on_commit_callbacks):
    sahip = operator_yap(musteri, email=VAR)
    musteriler = Musteri.objects.count()
    izler = _karsilastir(KAYIT, {"sifre": SIFRE, "firma_adi": "Yeni Proje"}, django_capture_on_commit_callbacks)
    assert izler[VAR] == izler[YOK]
    assert izler[VAR]["durum"] == 302 and izler[VAR]["yer"] == "/portal/kayit/gonderildi"
    assert izler[VAR]["sayfa"][0] == 200 and b"zaten bir hesap var" not in izler[VAR]["sayfa"][1]
    assert izler[VAR]["gorevler"] == 1 and izler[VAR]["istekte_eposta"] is False
    # The holder of the taken address is told, with the ways in; nothing of the account changes.
    [uyari] = GidenEposta.objects.filter(alici=VAR)
    assert uyari.tur == "kayit_mevcut" and "zaten bir hesabınız var" in uyari.konu
    assert "http://testserver/portal/giris" in uyari.html and "http://testserver/portal/sifremi-unuttum" in uyari.metin
    sahip.refresh_from_db()
    assert not sahip.check_password(SIFRE)
    assert Musteri.objects.count() == musteriler and not BekleyenKayit.objects.filter(email=VAR).exists()
    # The fresh address gets its confirmation link, and nothing exists until it is opened.
    [onay] = GidenEposta.objects.filter(alici=YOK)
    assert onay.tur == "kayit_onay" and "/portal/kayit/onay/" in onay.metin
    assert not Kullanici.objects.filter(email=YOK).exists()


def test_the_mailed_link_opens_the_account_once_and_signs_in(db):
    t = Tarayici()
    arkada_isle(t.post, KAYIT, {"email": "Yeni@Ornek.com", "sifre": SIFRE, "firma_adi": "Kuzey", "ad": "Ayşe"})
    yol = kayit_baglantisi("yeni@ornek.com")
    sayfa = t.get(yol)  # what a mail scanner fetching links does: it opens nothing
    assert sayfa.status_code == 200 and 'data-test="kayit-onayla"' in sayfa.content.decode()
    assert not Kullanici.objects.filter(email="yeni@ornek.com").exists()
    res = t.post(yol)
    assert res.status_code == 302 and res["Location"] == "/portal/"
    user = Kullanici.objects.get(email="yeni@ornek.com")
    assert user.check_password(SIFRE) and user.ad == "Ayşe"
    musteri = Musteri.objects.get(olusturan=user)
    assert musteri.firma_adi == "Kuzey" and t.session[AKTIF] == musteri.id
    assert "Hoş geldiniz" in t.get("/portal/").content.decode()
    # Used: the same 404 page as an unknown link; no second account.
    assert Tarayici().post(yol).status_code == 404 and Tarayici().get(yol).status_code == 404
    assert Tarayici().get("/portal/kayit/onay/uydurma").status_code == 404
    assert Kullanici.objects.filter(email="yeni@ornek.com").count() == 1


def test_a_link_whose_address_got_an_account_meanwhile_leads_to_login(musteri):
    t = Tarayici()
    arkada_isle(t.post, KAYIT, {"email": "gec@ornek.com", "sifre": SIFRE, "firma_adi": "X"})
    yol = kayit_baglantisi("gec@ornek.com")
    operator_yap(musteri, email="gec@ornek.com")  # e.g. an invitation accepted in between
    res = t.post(yol)
    assert res.status_code == 302 and res["Location"] == "/portal/giris"
    assert Kullanici.objects.filter(email="gec@ornek.com").count() == 1 and "_auth_user_id" not in t.session
    # Its pending sign-ups went with it: the link opens nothing any more.
    assert not BekleyenKayit.objects.filter(email="gec@ornek.com").exists()
    assert t.post(yol).status_code == 404


def test_an_expired_link_opens_nothing(db):
    t = Tarayici()
    arkada_isle(t.post, KAYIT, {"email": "eski@ornek.com", "sifre": SIFRE, "firma_adi": "X"})
    yol = kayit_baglantisi("eski@ornek.com")
    BekleyenKayit.objects.update(olusturulma=timezone.now() - timedelta(days=3, seconds=1))
    assert t.get(yol).status_code == 404 and t.post(yol).status_code == 404
    assert not Kullanici.objects.filter(email="eski@ornek.com").exists()


def test_sign_up_mails_are_limited_per_address_whoever_signs_up(musteri, settings):
    settings.KAYIT_ADRES_LIMITI = "2/h"
    operator_yap(musteri, email=VAR)
    for i, email in enumerate((VAR, VAR.upper(), VAR, YOK, YOK, YOK)):
        res = arkada_isle(Tarayici().post, KAYIT, {"email": email, "sifre": SIFRE, "firma_adi": "X"},
                          REMOTE_ADDR=f"10.0.1.{i + 1}")
        assert res.status_code == 302 and res["Location"] == "/portal/kayit/gonderildi"
    assert GidenEposta.objects.filter(alici=VAR).count() == 2 and GidenEposta.objects.filter(alici=YOK).count() == 2


def test_the_project_name_in_the_confirmation_mail_is_never_a_link(db):
    arkada_isle(Tarayici().post, KAYIT, {"email": "hedef@ornek.com", "sifre": SIFRE,
                                         "firma_adi": "Ödül için https://kotu.example.com"})
    mail = gonderilen("hedef@ornek.com", "etkinleştirin")
    assert "kotu.example.com" not in mail.body and "hxxps[://]kotu[.]example[.]com" in mail.body


def test_a_fresh_sign_up_still_ends_on_the_dashboard(db):
    res = kayit_ol(Tarayici(), {"email": "akici@ornek.com", "sifre": SIFRE, "firma_adi": "Akıcı"})
    assert res.status_code == 302 and res["Location"] == "/portal/"


def test_in_another_browser_the_link_also_asks_for_the_sign_up_password(db):
    """Someone signing up with another person's address must not get that person to open, with one
    click on an unexpected mail, an account whose password the signer knows."""
    arkada_isle(Tarayici().post, KAYIT, {"email": "kurban@ornek.com", "sifre": SIFRE, "firma_adi": "X"})
    yol = kayit_baglantisi("kurban@ornek.com")
    baska = Tarayici()  # the mail opened on a phone, or by the address's real holder
    assert 'name="sifre"' in baska.get(yol).content.decode()
    res = baska.post(yol)
    assert res.status_code == 200 and res.context["form"].errors["sifre"]
    res = baska.post(yol, {"sifre": "Baska-Bir-Sifre-1"})
    assert res.status_code == 200 and res.context["form"].errors["sifre"]
    assert not Kullanici.objects.filter(email="kurban@ornek.com").exists()
    res = baska.post(yol, {"sifre": SIFRE})
    assert res.status_code == 302 and res["Location"] == "/portal/"
    assert Kullanici.objects.get(email="kurban@ornek.com").check_password(SIFRE)


def test_in_the_browser_that_signed_up_one_click_is_enough(db):
    t = Tarayici()
    arkada_isle(t.post, KAYIT, {"email": "ayni@ornek.com", "sifre": SIFRE, "firma_adi": "X"})
    yol = kayit_baglantisi("ayni@ornek.com")
    assert 'name="sifre"' not in t.get(yol).content.decode()
    assert t.post(yol)["Location"] == "/portal/"
