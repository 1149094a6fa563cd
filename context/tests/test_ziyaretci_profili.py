"""CONTRACT 16: the visitor profile (`GET /operator/ziyaretci/{id}`) through HTTP: figures, the
newest 20 chats and tickets in operator shapes, CONTRACT 6's choice of tenant, other tenants 404,
a fixed number of queries."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from chat.models import Oturum
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client
from tenants.models import Etiket
from tickets.models import Ticket

pytestmark = pytest.mark.django_db
API = "/api/v1"


def ok(res, status=200):
    assert res.status_code == status, res.content
    return res.json()["data"]


def hata(res, status, kod):
    assert res.status_code == status, res.content
    assert res.json()["hata"]["kod"] == kod, res.content
    return res.json()["hata"]


def istemci(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return client


def test_profil_ozet_ve_listeler(musteri):
    op = operator_yap(musteri)
    client, widget = istemci(op), widget_client(musteri)
    o = ok(widget.post(f"{API}/widget/chat/start", {"ziyaretci_id": "z1", "ad": "Ayşe", "email": "a@ornek.com"},
                       format="json"), 201)["oturum"]
    ok(client.post(f"{API}/operator/chat/{o['id']}/accept"))
    ok(widget.post(f"{API}/widget/chat/rate", {"ziyaretci_id": "z1", "oturum_id": o["id"], "puan": 4}, format="json"))
    o2 = ok(widget.post(f"{API}/widget/chat/start", {"ziyaretci_id": "z1"}, format="json"), 201)["oturum"]
    t = ok(widget.post(f"{API}/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M"},
                       format="json"), 201)["ticket"]
    e = Etiket.objects.create(musteri=musteri, ad="VIP", anahtar="vip")
    ok(client.put(f"{API}/operator/ticket/{t['id']}/etiketler", {"etiket_idleri": [e.id]}, format="json"))
    ok(widget.post(f"{API}/widget/chat/start", {"ziyaretci_id": "baska"}, format="json"), 201)

    veri = ok(client.get(f"{API}/operator/ziyaretci/z1"))
    z = veri["ziyaretci"]
    assert {k: z[k] for k in ("ziyaretci_id", "musteri_id", "ad", "email", "identity_dogrulandi", "oturum_sayisi",
                              "ticket_sayisi", "ortalama_puan")} == {
        "ziyaretci_id": "z1", "musteri_id": musteri.id, "ad": "Ayşe", "email": "a@ornek.com",
        "identity_dogrulandi": False, "oturum_sayisi": 2, "ticket_sayisi": 1, "ortalama_puan": 4.0}
    assert z["ilk_gorulme"] <= z["son_gorulme"] and z["ilk_gorulme"].endswith("+00:00")
    assert [x["id"] for x in veri["oturumlar"]] == [o2["id"], o["id"]]
    assert "etiketler" in veri["oturumlar"][0] and "sira_no" not in veri["oturumlar"][0]
    assert [x["id"] for x in veri["ticketlar"]] == [t["id"]]
    assert veri["ticketlar"][0]["etiketler"] == [{"id": e.id, "ad": "VIP", "renk": "#64748B"}]
    assert "operator_adi" in veri["ticketlar"][0]


def test_bilinmeyen_ve_baska_projenin_ziyaretcisi_404(musteri):
    yabanci_musteri = MusteriFactory()
    ok(widget_client(yabanci_musteri).post(f"{API}/widget/chat/start", {"ziyaretci_id": "y1"}, format="json"), 201)
    client = istemci(operator_yap(musteri))
    hata(client.get(f"{API}/operator/ziyaretci/yok"), 404, "BULUNAMADI")
    hata(client.get(f"{API}/operator/ziyaretci/y1"), 404, "BULUNAMADI")
    hata(client.get(f"{API}/operator/ziyaretci/y1", {"musteri_id": yabanci_musteri.id}), 404, "BULUNAMADI")
    hata(client.get(f"{API}/operator/ziyaretci/y1", {"musteri_id": "x"}), 400, "GECERSIZ_ISTEK")


def test_iki_projede_varsa_musteri_id_gerekir(musteri):
    ikinci = MusteriFactory()
    client = istemci(operator_yap(musteri, ikinci))
    for m in (musteri, ikinci):
        ok(widget_client(m).post(f"{API}/widget/chat/start", {"ziyaretci_id": "ortak"}, format="json"), 201)
    h = hata(client.get(f"{API}/operator/ziyaretci/ortak"), 400, "GECERSIZ_ISTEK")
    assert "musteri_id" in h["alanlar"]
    veri = ok(client.get(f"{API}/operator/ziyaretci/ortak", {"musteri_id": ikinci.id}))
    assert veri["ziyaretci"]["musteri_id"] == ikinci.id and len(veri["oturumlar"]) == 1


def test_sorgu_sayisi_sabit_ve_en_yeni_20(musteri):
    client = istemci(operator_yap(musteri))
    etiket = Etiket.objects.create(musteri=musteri, ad="E", anahtar="e")
    sayilar = []
    for adet in (1, 30):
        while Oturum.objects.filter(ziyaretci_id="z").count() < adet:
            Oturum.objects.create(musteri=musteri, ziyaretci_id="z", durum="kapandi").etiketler.add(etiket)
            Ticket.objects.create(musteri=musteri, ziyaretci_id="z", konu="k").etiketler.add(etiket)
        with CaptureQueriesContext(connection) as ctx:
            veri = ok(client.get(f"{API}/operator/ziyaretci/z"))
        sayilar.append(len(ctx))
        assert len(veri["oturumlar"]) == min(adet, 20) and veri["ziyaretci"]["oturum_sayisi"] == adet
    assert sayilar[0] == sayilar[1], sayilar
