"""Django admin: the outgoing mail log (to, subject, status, attempts, error) and inbound messages."""
import pytest
from django.test import Client

from eposta.models import GelenEposta, GidenEposta
from tenants.models import Kullanici

pytestmark = pytest.mark.django_db


def test_admin_lists_outgoing_and_inbound_mail(musteri):
    GidenEposta.objects.create(musteri=musteri, tur="ticket_alindi", alici="ayse@ornek.com", konu="Talebiniz alındı",
                               metin="m", html="h", message_id="<1@x>", deneme=2, hata="SMTPConnectError: kapalı")
    GelenEposta.objects.create(musteri=musteri, message_id="<2@x>", gonderen="ali@ornek.com", konu="Re: fatura",
                               sonuc="yanit", ticket_id=1, metin="Tamam", boyut=10)
    admin = Kullanici.objects.create_superuser(email="admin@ornek.com", password="x")
    c = Client()
    c.force_login(admin)
    giden = c.get("/admin/eposta/gideneposta/").content.decode()
    for beklenen in ("ayse@ornek.com", "Talebiniz alındı", "Bekliyor", "SMTPConnectError: kapalı"):
        assert beklenen in giden
    gelen = c.get("/admin/eposta/geleneposta/").content.decode()
    assert "ali@ornek.com" in gelen and "Re: fatura" in gelen
    assert c.get(f"/admin/eposta/gideneposta/{GidenEposta.objects.get().pk}/change/").status_code == 200
