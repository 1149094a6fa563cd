"""Labels (CONTRACT 16) through HTTP: the tenant's list, create by any member, rename / recolour /
delete by `sahip` and `yonetici`, set on chats and tickets, operator shapes only, webhooks' names,
query counts flat."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.models import Oturum
from supportdesk.core import olaylar
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client
from tenants.models import Etiket
from tickets.models import Ticket
from webhooks.models import Olay

pytestmark = pytest.mark.django_db

API = "/api/v1"


def ok(res, status=200):
    assert res.status_code == status, res.content
    assert res.json()["basarili"] is True
    return res.json()["data"]


def hata(res, status, kod):
    assert res.status_code == status, res.content
    assert res.json()["hata"]["kod"] == kod, res.content
    return res.json()["hata"]


def istemci(*musteriler, rol="operator"):
    from rest_framework.test import APIClient

    user = operator_yap(*musteriler, rol=rol)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return user, client


@pytest.fixture
def ortam(musteri):
    diger = MusteriFactory(firma_adi="Diğer")

    class Ortam:
        m, d = musteri, diger
        sahip = istemci(musteri, rol="sahip")
        yonetici = istemci(musteri, rol="yonetici")
        op = istemci(musteri)
        yabanci = istemci(diger, rol="sahip")

    return Ortam


def _olustur(client, musteri_id, **govde):
    return client.post(f"{API}/operator/tenants/{musteri_id}/etiketler", govde, format="json")


def test_her_uye_olusturur_ve_listeler_ad_turkce_harf_farki_sayilmadan_tekil(ortam):
    e = ok(_olustur(ortam.op[1], ortam.m.id, ad="  İade  "), 201)["etiket"]
    assert e == {"id": e["id"], "musteri_id": ortam.m.id, "ad": "İade", "renk": "#64748B"}
    alanlar = hata(_olustur(ortam.sahip[1], ortam.m.id, ad="iade"), 400, "GECERSIZ_ISTEK")["alanlar"]
    assert "ad" in alanlar
    hata(_olustur(ortam.sahip[1], ortam.m.id, ad="İADE"), 400, "GECERSIZ_ISTEK")
    ok(_olustur(ortam.sahip[1], ortam.m.id, ad="Şikâyet", renk="#ff0000"), 201)
    # Another tenant may have the same name.
    ok(_olustur(ortam.yabanci[1], ortam.d.id, ad="iade"), 201)
    liste = ok(ortam.op[1].get(f"{API}/operator/tenants/{ortam.m.id}/etiketler"))["etiketler"]
    assert [(x["ad"], x["renk"]) for x in liste] == [("İade", "#64748B"), ("Şikâyet", "#FF0000")]
    assert "etiket_olusturuldu" not in olaylar.OLAYLAR  # an audit event, not a webhook


def test_bir_ad_birlesik_bicimde_saklanir_ve_noktali_i_iki_yazilisla_bir_addir(ortam):
    # "İ" typed as I + U+0307 is stored composed (NFC) and read back as "İade".
    e = ok(_olustur(ortam.op[1], ortam.m.id, ad="I\u0307ade"), 201)["etiket"]
    assert e["ad"] == "\u0130ade" and len(e["ad"]) == 4
    # "İade" lowered without Turkish rules is "i" + U+0307: the same name, refused beside it;
    # and a rename onto it likewise.
    for ad in ("i\u0307ade", "\u0130ade", "i\u0307ADE"):
        assert "ad" in hata(_olustur(ortam.sahip[1], ortam.m.id, ad=ad), 400, "GECERSIZ_ISTEK")["alanlar"], ad
    diger = ok(_olustur(ortam.op[1], ortam.m.id, ad="Kargo"), 201)["etiket"]
    hata(ortam.sahip[1].put(f"{API}/operator/etiketler/{diger['id']}", {"ad": "i\u0307ade"}, format="json"),
         400, "GECERSIZ_ISTEK")
    liste = ok(ortam.op[1].get(f"{API}/operator/tenants/{ortam.m.id}/etiketler"))["etiketler"]
    assert [x["ad"] for x in liste] == ["\u0130ade", "Kargo"]


@pytest.mark.parametrize("govde", [{"ad": ""}, {"ad": "x" * 41}, {"ad": 5}, {}, {"ad": "a", "renk": "kırmızı"},
                                   {"ad": "a", "renk": "#12345"}, {"ad": "a", "renk": 3}])
def test_gecersiz_girdi_400_ve_hicbir_sey_olusmaz(ortam, govde):
    hata(_olustur(ortam.op[1], ortam.m.id, **govde), 400, "GECERSIZ_ISTEK")
    assert not Etiket.objects.exists()


def test_baska_projenin_listesi_ve_olusturma_404(ortam):
    hata(ortam.op[1].get(f"{API}/operator/tenants/{ortam.d.id}/etiketler"), 404, "BULUNAMADI")
    hata(_olustur(ortam.op[1], ortam.d.id, ad="x"), 404, "BULUNAMADI")
    assert not Etiket.objects.exists()


def test_duzenleme_ve_silme_sahip_ve_yonetici_operator_403_yabanci_404(ortam):
    e = ok(_olustur(ortam.op[1], ortam.m.id, ad="Fatura"), 201)["etiket"]
    url = f"{API}/operator/etiketler/{e['id']}"
    hata(ortam.op[1].put(url, {"ad": "Ödeme"}, format="json"), 403, "YETKISIZ")
    hata(ortam.op[1].delete(url), 403, "YETKISIZ")
    hata(ortam.yabanci[1].put(url, {"ad": "Ödeme"}, format="json"), 404, "BULUNAMADI")
    hata(ortam.yabanci[1].delete(url), 404, "BULUNAMADI")
    assert Etiket.objects.get().ad == "Fatura"
    assert ok(ortam.yonetici[1].put(url, {"ad": "Ödeme", "renk": "#00aa00"}, format="json"))["etiket"]["renk"] == "#00AA00"
    assert ok(ortam.sahip[1].put(url, {"renk": None}, format="json"))["etiket"] == {
        "id": e["id"], "musteri_id": ortam.m.id, "ad": "Ödeme", "renk": "#64748B"}
    # Renaming onto another label's name is refused, nothing changes.
    ok(_olustur(ortam.op[1], ortam.m.id, ad="İptal"), 201)
    hata(ortam.sahip[1].put(url, {"ad": "iptal"}, format="json"), 400, "GECERSIZ_ISTEK")
    hata(ortam.sahip[1].put(url, {}, format="json"), 400, "GECERSIZ_ISTEK")
    assert Etiket.objects.get(pk=e["id"]).ad == "Ödeme"
    ok(ortam.sahip[1].delete(url))
    assert not Etiket.objects.filter(pk=e["id"]).exists()
    hata(ortam.sahip[1].delete(url), 404, "BULUNAMADI")


def test_olaylar_kullanici_ve_ip_tasir(ortam):
    gelen = []

    def kaydet(olay):
        gelen.append((olay.olay, olay.veri))

    olaylar.dinle("etiket_olusturuldu", "etiket_degisti", "etiket_silindi", islem_icinde=True)(kaydet)
    try:
        e = ok(_olustur(ortam.sahip[1], ortam.m.id, ad="A"), 201)["etiket"]
        ok(ortam.sahip[1].put(f"{API}/operator/etiketler/{e['id']}", {"ad": "B"}, format="json"))
        ok(ortam.sahip[1].delete(f"{API}/operator/etiketler/{e['id']}"))
    finally:
        olaylar.dinlemeyi_birak(kaydet)
    assert [g[0] for g in gelen] == ["etiket_olusturuldu", "etiket_degisti", "etiket_silindi"]
    for _, veri in gelen:
        assert veri["aktor_id"] == ortam.sahip[0].id and veri["ip"] == "127.0.0.1"
        assert veri["etiket_id"] == e["id"] and veri["musteri_id"] == ortam.m.id
    assert [g[1]["ad"] for g in gelen] == ["A", "B", "B"] and gelen[1][1]["eski_ad"] == "A"


@pytest.fixture
def sohbet_ve_ticket(ortam):
    widget = widget_client(ortam.m)
    oturum = ok(widget.post(f"{API}/widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, format="json"),
                201)["oturum"]
    ticket = ok(widget.post(f"{API}/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "Konu", "mesaj": "Metin"},
                            format="json"), 201)["ticket"]
    return widget, oturum, ticket


def test_sohbet_ve_ticket_etiketleri_tum_liste_olarak_ayarlanir(ortam, sohbet_ve_ticket):
    widget, oturum, ticket = sohbet_ve_ticket
    a = ok(_olustur(ortam.op[1], ortam.m.id, ad="A"), 201)["etiket"]
    b = ok(_olustur(ortam.op[1], ortam.m.id, ad="B", renk="#000000"), 201)["etiket"]
    yabanci = ok(_olustur(ortam.yabanci[1], ortam.d.id, ad="Y"), 201)["etiket"]
    c_url, t_url = f"{API}/operator/chat/{oturum['id']}/etiketler", f"{API}/operator/ticket/{ticket['id']}/etiketler"
    for url, ad in ((c_url, "oturum"), (t_url, "ticket")):
        nesne = ok(ortam.op[1].put(url, {"etiket_idleri": [b["id"], a["id"], b["id"]]}, format="json"))[ad]
        assert sorted(x["ad"] for x in nesne["etiketler"]) == ["A", "B"]
        assert {"id": b["id"], "ad": "B", "renk": "#000000"} in nesne["etiketler"]
        # Another tenant's label: 404, the list unchanged.
        hata(ortam.op[1].put(url, {"etiket_idleri": [a["id"], yabanci["id"]]}, format="json"), 404, "BULUNAMADI")
        for govde in ({"etiket_idleri": "1"}, {"etiket_idleri": [True]}, {"etiket_idleri": [0]}, {}, {"etiket_idleri": ["1"]}):
            hata(ortam.op[1].put(url, govde, format="json"), 400, "GECERSIZ_ISTEK")
        # Another tenant's member cannot reach the chat or ticket at all.
        hata(ortam.yabanci[1].put(url, {"etiket_idleri": []}, format="json"), 404, "BULUNAMADI")
    assert set(Oturum.objects.get(pk=oturum["id"]).etiketler.values_list("ad", flat=True)) == {"A", "B"}
    assert set(Ticket.objects.get(pk=ticket["id"]).etiketler.values_list("ad", flat=True)) == {"A", "B"}
    # The operator shapes carry them, in lists and details.
    liste = ok(ortam.op[1].get(f"{API}/operator/chats"))["oturumlar"]
    assert sorted(x["ad"] for x in liste[0]["etiketler"]) == ["A", "B"]
    detay = ok(ortam.op[1].get(f"{API}/operator/ticket/{ticket['id']}"))["ticket"]
    assert sorted(x["ad"] for x in detay["etiketler"]) == ["A", "B"]
    # The widget's never do.
    w = ok(widget.get(f"{API}/widget/chat/messages", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}))
    assert "etiketler" not in w["oturum"]
    wt = ok(widget.get(f"{API}/widget/ticket/{ticket['id']}", {"ziyaretci_id": "z1"}))["ticket"]
    assert "etiketler" not in wt and "operator_id" not in wt
    wl = ok(widget.get(f"{API}/widget/ticket/list", {"ziyaretci_id": "z1"}))["ticketlar"]
    assert "etiketler" not in wl[0]
    # Deleting a label takes it off both.
    ok(ortam.sahip[1].delete(f"{API}/operator/etiketler/{a['id']}"))
    assert list(Oturum.objects.get(pk=oturum["id"]).etiketler.values_list("ad", flat=True)) == ["B"]
    assert list(Ticket.objects.get(pk=ticket["id"]).etiketler.values_list("ad", flat=True)) == ["B"]
    # Empty list clears.
    assert ok(ortam.op[1].put(c_url, {"etiket_idleri": []}, format="json"))["oturum"]["etiketler"] == []


def test_webhook_verisi_etiket_adlarini_tasir(ortam, sohbet_ve_ticket):
    _, oturum, ticket = sohbet_ve_ticket
    a = ok(_olustur(ortam.op[1], ortam.m.id, ad="Acil iş"), 201)["etiket"]
    ok(ortam.op[1].put(f"{API}/operator/chat/{oturum['id']}/etiketler", {"etiket_idleri": [a["id"]]}, format="json"))
    ok(ortam.op[1].put(f"{API}/operator/ticket/{ticket['id']}/etiketler", {"etiket_idleri": [a["id"]]}, format="json"))
    ok(ortam.op[1].post(f"{API}/operator/chat/{oturum['id']}/close"))
    ok(ortam.op[1].put(f"{API}/operator/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, format="json"))
    assert Olay.objects.get(olay="yeni_chat").veri["etiketler"] == []
    assert Olay.objects.get(olay="yeni_ticket").veri["etiketler"] == []
    assert Olay.objects.get(olay="chat_kapandi").veri["etiketler"] == ["Acil iş"]
    assert Olay.objects.get(olay="ticket_cozuldu").veri["etiketler"] == ["Acil iş"]


def _sayim(client, url):
    with CaptureQueriesContext(connection) as ctx:
        ok(client.get(url))
    return len(ctx)


def test_liste_sorgu_sayisi_etiketlerle_sabit(ortam):
    etiketler = [Etiket.objects.create(musteri=ortam.m, ad=f"E{i}", anahtar=f"e{i}") for i in range(3)]

    def ekle(n):
        for i in range(n):
            o = Oturum.objects.create(musteri=ortam.m, ziyaretci_id=f"q{Oturum.objects.count()}-{i}")
            o.etiketler.set(etiketler)
            t = Ticket.objects.create(musteri=ortam.m, ziyaretci_id="q", konu="k", operator=ortam.op[0])
            t.etiketler.set(etiketler)

    sayilar = []
    for n in (0, 1, 5):
        ekle(n)
        sayilar.append((_sayim(ortam.op[1], f"{API}/operator/chats"), _sayim(ortam.op[1], f"{API}/operator/tickets"),
                        _sayim(ortam.op[1], f"{API}/operator/tenants/{ortam.m.id}/etiketler")))
    # 0 rows needs no prefetch query; from one row on, the count stays the same.
    assert sayilar[1] == sayilar[2], sayilar
    assert all(a <= b for a, b in zip(sayilar[0], sayilar[1], strict=True)), sayilar
