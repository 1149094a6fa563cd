"""/portal/sifremi-unuttum: Django's reset flow in the portal's look; the mail goes through the
outbox and a Celery task, never inside the request (CONTRACT 13, 14): the request hands the whole
work to a task (`arkada_isle` runs it, as a worker would). Its arrival at an SMTP server is eposta's
test; here the mail is read from Django's test outbox (sending blanks the stored link)."""
import re

import pytest

from eposta.models import GidenEposta
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Tarayici, arkada_isle, gonderilen

pytestmark = pytest.mark.django_db
YENI = "Yepyeni-Sifre-2026"


def test_reset_by_mail_sets_a_new_password_once(musteri):
    user = operator_yap(musteri, email="unutkan@ornek.com")
    t = Tarayici()
    assert "Şifremi unuttum" in t.get("/portal/giris").content.decode()
    res = arkada_isle(t.post, "/portal/sifremi-unuttum", {"email": "Unutkan@Ornek.com"})
    assert res.status_code == 302 and res["Location"] == "/portal/sifremi-unuttum/gonderildi"
    [eposta] = GidenEposta.objects.filter(tur="sifre_sifirlama")
    assert eposta.alici == "unutkan@ornek.com" and eposta.konu == "SupportDesk şifre yenileme"
    mail = gonderilen("unutkan@ornek.com")
    assert "/portal/sifre-sifirla/" in mail.alternatives[0][0]
    yol = re.search(r"https?://[^/]+(/portal/sifre-sifirla/\S+)", mail.body).group(1)
    res = t.get(yol, follow=True)
    assert res.status_code == 200 and "Yeni şifre belirleyin" in res.content.decode()
    form_yolu = res.redirect_chain[-1][0] if res.redirect_chain else yol
    res = t.post(form_yolu, {"new_password1": "123", "new_password2": "123"})
    assert res.status_code == 200 and res.context["form"].errors
    res = t.post(form_yolu, {"new_password1": YENI, "new_password2": YENI})
    assert res.status_code == 302 and res["Location"] == "/portal/sifre-sifirla/tamam"
    user.refresh_from_db()
    assert user.check_password(YENI)
    # The link works once.
    assert 'data-test="gecersiz"' in Tarayici().get(yol, follow=True).content.decode()


def test_unknown_address_gets_the_same_page_and_no_mail():
    t = Tarayici()
    res = arkada_isle(t.post, "/portal/sifremi-unuttum", {"email": "kimse@ornek.com"})
    assert res.status_code == 302 and res["Location"] == "/portal/sifremi-unuttum/gonderildi"
    assert not GidenEposta.objects.exists()
    res = t.post("/portal/sifremi-unuttum", {"email": "bozuk"})
    assert res.status_code == 200 and res.context["form"].errors["email"]


def test_reset_mails_are_limited_per_address_whoever_asks(musteri, settings):
    # 40 anonymous requests used to queue 40 mails to the victim (found by an outside probe).
    operator_yap(musteri, email="kurban@ornek.com")
    settings.SIFRE_SIFIRLAMA_ADRES_LIMITI = "3/h"
    for i in range(6):  # from six addresses: the per-address limit holds across IPs
        res = arkada_isle(Tarayici().post, "/portal/sifremi-unuttum",
                          {"email": "Kurban@ornek.com" if i % 2 else "kurban@ornek.com"}, REMOTE_ADDR=f"10.0.0.{i + 1}")
        assert res.status_code == 302 and res["Location"] == "/portal/sifremi-unuttum/gonderildi"
    assert GidenEposta.objects.filter(tur="sifre_sifirlama", alici="kurban@ornek.com").count() == 3
    # Someone else's address is not held up by it.
    operator_yap(musteri, email="diger@ornek.com")
    arkada_isle(Tarayici().post, "/portal/sifremi-unuttum", {"email": "diger@ornek.com"}, REMOTE_ADDR="10.0.0.1")
    assert GidenEposta.objects.filter(tur="sifre_sifirlama", alici="diger@ornek.com").count() == 1


def test_reset_requests_are_limited_per_client_ip(settings):
    settings.PORTAL_RATE_LIMIT = "5/min"
    t = Tarayici()
    kodlar = [arkada_isle(t.post, "/portal/sifremi-unuttum", {"email": f"kimse{i}@ornek.com"}).status_code
              for i in range(7)]
    assert kodlar == [302] * 5 + [429] * 2
    res = t.post("/portal/sifremi-unuttum", {"email": "kimse@ornek.com"})
    assert res.status_code == 429 and int(res["Retry-After"]) >= 1
    assert 'data-test="limit"' in res.content.decode()
    assert not GidenEposta.objects.exists()
