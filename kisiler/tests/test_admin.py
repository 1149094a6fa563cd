"""Django admin shows contacts but never changes or deletes them (CONTRACT 18, 25): a contact goes
with the audited erasure of its visitor ids, which takes its chats, tickets and files too."""
import pytest
from django.test import Client

from chat.tests.yardimci import baslat
from kisiler.models import Kisi, KisiZiyaretci, NitelikTanimi
from supportdesk.testing.fixtures import widget_client
from tenants.models import Kullanici

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_istemcisi():
    c = Client()
    c.force_login(Kullanici.objects.create_superuser(email="admin@ornek.com", password="x"))
    return c


def test_the_admin_lists_contacts_and_deletes_none(musteri, admin_istemcisi):
    baslat(widget_client(musteri), ziyaretci_id="z-1", ad="Ayşe", email="ayse@ornek.com")
    kisi = Kisi.objects.get(musteri=musteri)
    tanim = NitelikTanimi.objects.create(musteri=musteri, anahtar="plan", ad="Plan", tur="metin")
    c = admin_istemcisi
    liste = c.get("/admin/kisiler/kisi/")
    assert liste.status_code == 200 and "ayse@ornek.com" in liste.content.decode()
    assert "delete_selected" not in liste.content.decode()
    assert c.get(f"/admin/kisiler/kisi/{kisi.pk}/change/").status_code == 200  # shown, read-only
    for yol in (f"/admin/kisiler/kisi/{kisi.pk}/delete/", f"/admin/kisiler/nitelikTanimi/{tanim.pk}/delete/".lower()):
        assert c.get(yol).status_code == 403
        assert c.post(yol, {"post": "yes"}).status_code == 403
    res = c.post("/admin/kisiler/kisi/", {"action": "delete_selected", "_selected_action": [kisi.pk], "post": "yes"})
    assert res.status_code in (200, 302)
    assert Kisi.objects.filter(pk=kisi.pk).exists() and KisiZiyaretci.objects.filter(kisi=kisi).exists()
    assert NitelikTanimi.objects.filter(pk=tanim.pk).exists()
