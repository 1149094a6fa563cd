"""Canned responses (API, loader, admin, demo) and the operator dashboard."""
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from chat.models import HazirYanit, Oturum
from chat.services import hazir_yanitlari_yukle
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.testing.factories import MusteriFactory
from tenants.models import Kullanici
from tenants.tests.test_auth import hata

from .yardimci import W_BITIR, W_PUAN, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db
HAZIR = "/api/v1/operator/canned-responses"
DASH = "/api/v1/operator/dashboard"

KAYITLAR = [
    {"kisayol": "/selam", "baslik": "Karşılama", "icerik": "Merhaba, nasıl yardımcı olabilirim?"},
    {"kisayol": "/fatura", "baslik": "Fatura", "icerik": "Faturalar Hesabım sayfasında."},
]


def test_yukleme_idempotent_ve_gunceller(musteri):
    assert hazir_yanitlari_yukle(musteri=musteri, kayitlar=KAYITLAR) == 2
    assert hazir_yanitlari_yukle(musteri=musteri, kayitlar=[{**KAYITLAR[0], "baslik": "Selam"}]) == 1
    assert HazirYanit.objects.filter(musteri=musteri).count() == 2
    assert HazirYanit.objects.get(kisayol="/selam").baslik == "Selam"


@pytest.mark.parametrize("kayit", [
    {"kisayol": "", "baslik": "b", "icerik": "i"}, {"kisayol": "/a b", "baslik": "b", "icerik": "i"},
    {"kisayol": "/a", "baslik": "", "icerik": "i"}, {"kisayol": "/a", "baslik": "b", "icerik": ""},
    {"kisayol": "/a", "baslik": "b", "icerik": "x" * 5001}, {"kisayol": 1, "baslik": "b", "icerik": "i"}, "metin",
])
def test_yukleme_gecersiz_kayit_hicbir_sey_kaydetmez(musteri, kayit):
    with pytest.raises(GecersizIstek):
        hazir_yanitlari_yukle(musteri=musteri, kayitlar=[KAYITLAR[0], kayit])
    assert HazirYanit.objects.count() == 0


def test_liste_kendi_projeleri_arama_ve_filtre(musteri, diger_musteri):
    _, client = operator_istemcisi(musteri, diger_musteri)
    hazir_yanitlari_yukle(musteri=musteri, kayitlar=KAYITLAR)
    hazir_yanitlari_yukle(musteri=diger_musteri, kayitlar=[KAYITLAR[0]])
    hazir_yanitlari_yukle(musteri=MusteriFactory(), kayitlar=[{"kisayol": "/gizli", "baslik": "G", "icerik": "Gizli"}])
    data = ok(client.get(HAZIR))
    assert len(data["hazir_yanitlar"]) == 3 and data["sonraki"] is None
    y = data["hazir_yanitlar"][0]
    assert set(y) == {"id", "musteri_id", "kisayol", "baslik", "icerik"}
    assert "/gizli" not in [y["kisayol"] for y in data["hazir_yanitlar"]]
    sadece = ok(client.get(HAZIR, {"musteri_id": musteri.id}))["hazir_yanitlar"]
    assert sorted(y["kisayol"] for y in sadece) == ["/fatura", "/selam"]
    assert [y["kisayol"] for y in ok(client.get(HAZIR, {"q": "HESAB"}))["hazir_yanitlar"]] == ["/fatura"]
    assert [y["kisayol"] for y in ok(client.get(HAZIR, {"q": "fatu", "musteri_id": musteri.id}))["hazir_yanitlar"]] \
        == ["/fatura"]


def test_liste_yabanci_proje_404_ve_gecersiz_400(op):
    hata(op[1].get(HAZIR, {"musteri_id": MusteriFactory().id}), 404, "BULUNAMADI")
    hata(op[1].get(HAZIR, {"musteri_id": "x"}), 400, "GECERSIZ_ISTEK")


@pytest.mark.parametrize("adet", [0, 1, 30])
def test_hazir_yanit_sorgu_sayisi_sabit(musteri, op, adet, django_assert_max_num_queries):
    hazir_yanitlari_yukle(musteri=musteri, kayitlar=[
        {"kisayol": f"/k{i}", "baslik": f"B{i}", "icerik": "i"} for i in range(adet)])
    with django_assert_max_num_queries(4):
        data = ok(op[1].get(HAZIR))
    assert len(data["hazir_yanitlar"]) == adet


def test_demo_verisi_hazir_yanit_ve_sohbet_yukler_idempotent():
    call_command("demo_verisi", "--json")
    sayilar = (HazirYanit.objects.count(), Oturum.objects.count())
    assert sayilar[0] >= 15 and sayilar[1] >= 3
    call_command("demo_verisi", "--json")
    assert (HazirYanit.objects.count(), Oturum.objects.count()) == sayilar


def test_admin_sayfalari(admin_client, musteri, widget, op):
    o = baslat(widget, mesaj="Merhaba")
    ok(op[1].post(op_url(o["id"], "accept")))
    hazir_yanitlari_yukle(musteri=musteri, kayitlar=KAYITLAR)
    for url in ["/admin/chat/oturum/", f"/admin/chat/oturum/{o['id']}/change/", "/admin/chat/haziryanit/",
                "/admin/chat/haziryanit/add/", "/admin/chat/oturum/?durum__exact=aktif"]:
        res = admin_client.get(url)
        assert res.status_code == 200, (url, res.status_code)
    assert b"Merhaba" in admin_client.get(f"/admin/chat/oturum/{o['id']}/change/").content
    assert admin_client.get("/admin/chat/oturum/add/").status_code == 403


# --- dashboard -----------------------------------------------------------------------------
def test_dashboard_proje_basina_ve_toplam(musteri, diger_musteri, widget):
    user, client = operator_istemcisi(musteri, diger_musteri)
    user.durum = "cevrimici"
    user.save(update_fields=["durum"])
    ikinci = Kullanici.objects.get(pk=operator_istemcisi(musteri)[0].pk)
    ikinci.durum = "mesgul"
    ikinci.save(update_fields=["durum"])
    w1, w2 = widget, widget_client(diger_musteri)
    baslat(w1, "a")
    baslat(w1, "b")
    aktif = baslat(w1, "c")
    ok(client.post(op_url(aktif["id"], "accept")))
    for ziyaretci, puan in (("d", 5), ("e", 2)):
        o = baslat(w2, ziyaretci)
        ok(w2.post(W_BITIR, {"ziyaretci_id": ziyaretci, "oturum_id": o["id"]}, format="json"))
        ok(w2.post(W_PUAN, {"ziyaretci_id": ziyaretci, "oturum_id": o["id"], "puan": puan}, format="json"))
    eski = baslat(w1, "f")
    ok(w1.post(W_BITIR, {"ziyaretci_id": "f", "oturum_id": eski["id"]}, format="json"))
    Oturum.objects.filter(pk=eski["id"]).update(bitis_zamani=timezone.now() - timedelta(days=2))
    baslat(widget_client(MusteriFactory()), "yabanci")

    data = ok(client.get(DASH))
    satirlar = {m["musteri_id"]: m for m in data["musteriler"]}
    assert list(satirlar) == [musteri.id, diger_musteri.id]
    a, b = satirlar[musteri.id], satirlar[diger_musteri.id]
    assert (a["bekleyen_chat"], a["aktif_chat"], a["bugun_kapanan_chat"], a["ortalama_puan"]) == (2, 1, 0, None)
    assert (b["bekleyen_chat"], b["aktif_chat"], b["bugun_kapanan_chat"], b["ortalama_puan"]) == (0, 0, 2, 3.5)
    assert a["cevrimici_operator"] == 2 and b["cevrimici_operator"] == 1
    assert a["firma_adi"] == musteri.firma_adi and a["acik_ticket"] == 0
    t = data["toplam"]
    assert (t["bekleyen_chat"], t["aktif_chat"], t["bugun_kapanan_chat"], t["ortalama_puan"]) == (2, 1, 2, 3.5)
    assert t["cevrimici_operator"] == 2  # the operator of both tenants counts once


def test_dashboard_eski_puanlar_sayilmaz(musteri, op, widget):
    o = baslat(widget)
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    ok(widget.post(W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "puan": 1}, format="json"))
    Oturum.objects.filter(pk=o["id"]).update(puan_zamani=timezone.now() - timedelta(days=31))
    assert ok(op[1].get(DASH))["musteriler"][0]["ortalama_puan"] is None


def test_dashboard_acik_ticketlari_sayar(musteri, op):
    from tickets.models import Ticket

    Ticket.objects.create(musteri=musteri, ziyaretci_id="z", konu="Bir", durum="acik")
    Ticket.objects.create(musteri=musteri, ziyaretci_id="z", konu="İki", durum="kapandi")
    data = ok(op[1].get(DASH))
    assert data["musteriler"][0]["acik_ticket"] == 1 and data["toplam"]["acik_ticket"] == 1


@pytest.mark.parametrize("adet", [0, 1, 3])
def test_dashboard_sorgu_sayisi_sabit(adet, django_assert_max_num_queries):
    musteriler = [MusteriFactory() for _ in range(adet)]
    _, client = operator_istemcisi(*musteriler)
    for m in musteriler:
        for i in range(3):
            baslat(widget_client(m), f"z{i}")
    with django_assert_max_num_queries(9):
        data = ok(client.get(DASH))
    assert len(data["musteriler"]) == adet and data["toplam"]["bekleyen_chat"] == 3 * adet

