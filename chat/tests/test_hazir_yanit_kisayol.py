"""A canned response's `kisayol` is stored with its leading `/` whether or not it was typed
(CONTRACT 16), on every path that writes one: the import (`icerik_yukle`, demo data), the admin,
the portal (portal/tests/test_hazir_yanit_kampanya.py), and the data migration for rows stored
before. A shortcut that becomes a duplicate once its `/` is added is a field error, not a 500."""
import importlib
import json
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command

from chat.models import HazirYanit
from chat.services import hazir_yanitlari_yukle
from supportdesk.testing.factories import MusteriFactory

from .yardimci import ok, operator_istemcisi

pytestmark = pytest.mark.django_db
HAZIR = "/api/v1/operator/canned-responses"
EKLE = "/admin/chat/haziryanit/add/"


def test_import_adds_the_slash_and_one_shortcut_is_one_row(musteri):
    _, client = operator_istemcisi(musteri)
    assert hazir_yanitlari_yukle(musteri=musteri, kayitlar=[
        {"kisayol": " selam ", "baslik": "Selam", "icerik": "Merhaba!"},
        {"kisayol": "/fatura", "baslik": "Fatura", "icerik": "Hesabım > Faturalar"},
    ]) == 2
    hazir_yanitlari_yukle(musteri=musteri, kayitlar=[{"kisayol": "/selam", "baslik": "Selamlama", "icerik": "Merhaba!"}])
    listede = ok(client.get(HAZIR, {"musteri_id": musteri.id}))["hazir_yanitlar"]
    assert [(y["kisayol"], y["baslik"]) for y in listede] == [("/fatura", "Fatura"), ("/selam", "Selamlama")]


def test_icerik_yukle_command_adds_the_slash(musteri, tmp_path):
    dosya = tmp_path / "icerik.json"
    dosya.write_text(json.dumps({"hazir_yanitlar": [{"kisayol": "kargo", "baslik": "Kargo", "icerik": "Yolda."}]}))
    call_command("icerik_yukle", "--musteri", str(musteri.id), str(dosya), "--json", stdout=StringIO())
    assert list(HazirYanit.objects.values_list("kisayol", flat=True)) == ["/kargo"]


def test_demo_data_shortcuts_all_have_the_slash():
    call_command("demo_verisi", "--json", stdout=StringIO())
    kisayollar = list(HazirYanit.objects.values_list("kisayol", flat=True))
    assert kisayollar and all(k.startswith("/") and len(k) > 1 for k in kisayollar)


def test_admin_adds_the_slash_and_a_duplicate_is_a_form_error(admin_client, musteri):
    res = admin_client.post(EKLE, {"musteri": musteri.id, "kisayol": "selam", "baslik": "Selam", "icerik": "Merhaba"})
    assert res.status_code == 302, res.content.decode()[:2000]
    yanit = HazirYanit.objects.get()
    assert yanit.kisayol == "/selam"

    res = admin_client.post(EKLE, {"musteri": musteri.id, "kisayol": "selam", "baslik": "İkinci", "icerik": "x"})
    assert res.status_code == 200 and res.context["adminform"].form.errors["kisayol"]
    res = admin_client.post(EKLE, {"musteri": musteri.id, "kisayol": "iki kelime", "baslik": "B", "icerik": "x"})
    assert res.status_code == 200 and res.context["adminform"].form.errors["kisayol"]
    # another project may use it
    diger = MusteriFactory()
    assert admin_client.post(EKLE, {"musteri": diger.id, "kisayol": "selam", "baslik": "B", "icerik": "x"}).status_code == 302

    ikinci = HazirYanit.objects.create(musteri=musteri, kisayol="/iki", baslik="İki", icerik="z")
    degistir = f"/admin/chat/haziryanit/{ikinci.id}/change/"
    res = admin_client.post(degistir, {"kisayol": "selam", "baslik": "İki", "icerik": "z"})
    assert res.status_code == 200 and res.context["adminform"].form.errors["kisayol"]
    assert admin_client.post(degistir, {"kisayol": "uc", "baslik": "Üç", "icerik": "z"}).status_code == 302
    ikinci.refresh_from_db()
    assert (ikinci.kisayol, ikinci.baslik, ikinci.musteri_id) == ("/uc", "Üç", musteri.id)


def test_admin_delete_goes_through_the_service(admin_client, musteri):
    yanit = HazirYanit.objects.create(musteri=musteri, kisayol="/sil", baslik="Sil", icerik="x")
    assert admin_client.post(f"/admin/chat/haziryanit/{yanit.id}/delete/", {"post": "yes"}).status_code == 302
    assert not HazirYanit.objects.exists()


def test_migration_adds_the_slash_keeping_every_row(musteri, diger_musteri):
    HazirYanit.objects.bulk_create([
        HazirYanit(musteri=musteri, kisayol="selam", baslik="1", icerik="a"),
        HazirYanit(musteri=musteri, kisayol="/selam", baslik="2", icerik="b"),
        HazirYanit(musteri=musteri, kisayol="/selam-2", baslik="3", icerik="c"),
        HazirYanit(musteri=musteri, kisayol="x" * 50, baslik="4", icerik="d"),
        HazirYanit(musteri=musteri, kisayol="/" + "x" * 49, baslik="5", icerik="e"),
        HazirYanit(musteri=diger_musteri, kisayol="selam", baslik="6", icerik="f"),
        HazirYanit(musteri=diger_musteri, kisayol="/tamam", baslik="7", icerik="g"),
    ])
    goc = importlib.import_module("chat.migrations.0006_hazir_yanit_kisayol_egik_cizgi")
    goc.egik_cizgi_ekle(apps, None)
    assert dict(HazirYanit.objects.values_list("baslik", "kisayol")) == {
        "1": "/selam-3", "2": "/selam", "3": "/selam-2", "4": "/" + "x" * 47 + "-2", "5": "/" + "x" * 49,
        "6": "/selam", "7": "/tamam",
    }
