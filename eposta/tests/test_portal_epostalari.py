"""Mails to portal users (CONTRACT 14's last row): the invitation of CONTRACT 13 and Django's
password reset, both through the outbox, received by the loopback SMTP server."""
import re
from pathlib import Path

import pytest

from eposta.formlar import SifreSifirlamaFormu
from eposta.gonderim import HASSAS_NOT
from eposta.models import GidenEposta
from portal.tests.yardimci import Tarayici, giris_yapmis
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Uyelik

pytestmark = pytest.mark.django_db


def test_the_invitation_mail_carries_the_link_that_joins(smtp, musteri, django_capture_on_commit_callbacks):
    sahip = giris_yapmis(operator_yap(musteri, rol="sahip", email="sahip@anadolu.com"))
    with django_capture_on_commit_callbacks(execute=True):
        res = sahip.post("/portal/ekip", {"email": "yeni@ornek.com", "rol": "operator", "max_chat_per_tenant": ""})
    assert res.status_code == 200
    [mail] = smtp.alicinin("yeni@ornek.com")
    metin = mail.get_body(("plain",)).get_content()
    assert "Anadolu Yazılım" in mail["Subject"] and "sahip@anadolu.com sizi Anadolu Yazılım" in metin
    assert "Anadolu Yazılım" in mail.get_body(("html",)).get_content()
    url = re.search(r"Daveti kabul et: (\S+)", metin).group(1)
    assert url == res.context["yeni_davet"]["url"]
    # The one-time link is not kept in the outbox once sent.
    assert GidenEposta.objects.get(tur="davet").metin == HASSAS_NOT

    yol = url.removeprefix("http://testserver")
    res = Tarayici().post(yol, {"ad": "Yeni", "sifre": "Ekip-Sifresi-2026!"})
    assert res.status_code == 302
    assert Uyelik.objects.filter(kullanici__email="yeni@ornek.com", musteri=musteri).exists()


def test_password_reset_goes_through_the_outbox(smtp, musteri, settings, django_capture_on_commit_callbacks, rf):
    # The portal page's own templates (issue 16 builds the page); these stand in for them.
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"],
                                                             Path(__file__).parent / "sablonlar"]}]
    user = operator_yap(musteri, email="unutkan@ornek.com")
    form = SifreSifirlamaFormu(data={"email": "unutkan@ornek.com"})
    assert form.is_valid()
    with django_capture_on_commit_callbacks(execute=True):
        form.save(request=rf.get("/"), domain_override="destek.example.com", use_https=True,
                  subject_template_name="sifre_konu.txt", email_template_name="sifre_metin.txt")
    [mail] = smtp.alicinin(user.email)
    assert "şifre sıfırlama" in mail["Subject"]
    assert "https://destek.example.com/portal/sifre-sifirla/" in mail.get_body(("plain",)).get_content()
    assert GidenEposta.objects.get(tur="sifre_sifirlama").metin == HASSAS_NOT
