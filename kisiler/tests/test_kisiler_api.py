"""Contacts over HTTP (CONTRACT 25): made by a visitor's first chat, ticket or signed identity;
list, search, edit with typed attributes, merge, tenant isolation, erasure and bad input."""
import pytest
from rest_framework.test import APIClient

from chat.tests.yardimci import START, baslat, ok, operator_istemcisi
from context.tests.yardimci import CUSTOMER_INFO, imzali
from denetim.models import DenetimKaydi
from kisiler.models import Kisi, KisiZiyaretci
from supportdesk.testing.fixtures import widget_client
from tickets.models import Ticket

pytestmark = pytest.mark.django_db

KISILER = "/api/v1/operator/kisiler"
TICKET = "/api/v1/widget/ticket/create"


def kisi_url(kisi_id, ek: str = "") -> str:
    return f"{KISILER}/{kisi_id}{ek}"


def nitelik_url(musteri_id) -> str:
    return f"/api/v1/operator/tenants/{musteri_id}/nitelikler"


def hata(res, status: int, kod: str) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == kod, body
    return body["hata"]


def ticket_ac(widget, ziyaretci_id: str, **govde) -> dict:
    res = widget.post(TICKET, {"ziyaretci_id": ziyaretci_id, "konu": "Fatura", "mesaj": "Faturam yok.", **govde},
                      format="json")
    return ok(res, 201)["ticket"]


def kisiler(client, **params) -> list[dict]:
    return ok(client.get(KISILER, params))["kisiler"]


@pytest.fixture
def yonetici(musteri):
    return operator_istemcisi(musteri, rol="yonetici")[1]


@pytest.fixture
def op(musteri):
    return operator_istemcisi(musteri)[1]


# --- made by a first chat, ticket or signed identity ---------------------------------------------
def test_ilk_sohbet_kisi_yapar_ikincisi_ayni_kisiye_sayilir(musteri, widget, op):
    o = baslat(widget, "z-1", ad="Ayşe Öztürk", email="ayse@ornek.com")
    ok(op.post(f"/api/v1/operator/chat/{o['id']}/close"))
    baslat(widget, "z-1")
    ticket_ac(widget, "z-1")
    [kisi] = kisiler(op)
    assert kisi["ad"] == "Ayşe Öztürk" and kisi["email"] == "ayse@ornek.com"
    assert kisi["ziyaretci_idleri"] == ["z-1"] and kisi["musteri_id"] == musteri.id
    assert kisi["oturum_sayisi"] == 2 and kisi["ticket_sayisi"] == 1
    assert kisi["ilk_gorulme"].endswith("+00:00") and kisi["son_gorulme"] >= kisi["ilk_gorulme"]
    assert set(kisi) == {"id", "musteri_id", "ad", "email", "telefon", "sirket", "nitelikler", "ziyaretci_idleri",
                         "ilk_gorulme", "son_gorulme", "oturum_sayisi", "ticket_sayisi"}


def test_ilk_ticket_kisi_yapar(widget, op):
    ticket_ac(widget, "t-1", ad="Mehmet", email="m@ornek.com")
    [kisi] = kisiler(op)
    assert kisi["ziyaretci_idleri"] == ["t-1"] and kisi["ticket_sayisi"] == 1 and kisi["oturum_sayisi"] == 0


def test_imzali_kimlik_ayni_epostayla_ayni_kisiye_katilir(musteri, widget, op):
    baslat(widget, "z-1", email="ayse@ornek.com")  # its own contact, e-mail known from the chat
    baslat(widget, "z-2")  # another device, anonymous
    assert len(kisiler(op)) == 2
    ok(widget.post(CUSTOMER_INFO, imzali(musteri, "z-2", email="AYSE@ornek.com", ad="Ayşe"), format="json"))
    [kisi] = kisiler(op)
    assert kisi["ziyaretci_idleri"] == ["z-1", "z-2"] and kisi["oturum_sayisi"] == 2 and kisi["ad"] == "Ayşe"
    ok(widget.post(CUSTOMER_INFO, imzali(musteri, "z-3", email="ayse@ornek.com"), format="json"))
    assert kisiler(op)[0]["ziyaretci_idleri"] == ["z-1", "z-2", "z-3"]


def test_imzasiz_musteri_bilgisi_kisi_yapmaz(musteri, widget, op):
    ok(widget.post(CUSTOMER_INFO, {"ziyaretci_id": "z-9", "email": "x@ornek.com"}, format="json"))
    assert kisiler(op) == []


def test_imzali_init_kisi_yapar(musteri, widget, op):
    imza = imzali(musteri, "u-42", email="can@ornek.com")
    res = widget.post("/api/v1/widget/init", {"ziyaretci_id": "u-42", "email": "can@ornek.com", "token_iste": True,
                                              "timestamp": imza["timestamp"], "signature": imza["signature"]},
                      format="json")
    ok(res)
    [kisi] = kisiler(op)
    assert kisi["email"] == "can@ornek.com" and kisi["ziyaretci_idleri"] == ["u-42"]


def test_sohbet_baslangicinin_maliyeti(musteri, nobetci):
    """A known visitor's new chat costs one indexed read more; an open chat's repeat nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    widget = widget_client(musteri)
    baslat(widget, "z-1")  # warms the caches; makes the contact
    with CaptureQueriesContext(connection) as acik:
        baslat(widget, "z-1", status=200)  # the open chat again
    assert not any("kisiler_" in q["sql"] for q in acik.captured_queries)
    from chat.models import Oturum
    Oturum.objects.filter(musteri=musteri, ziyaretci_id="z-1").update(durum="kapandi", bitis_zamani="2026-01-01T00:00Z")
    with CaptureQueriesContext(connection) as yeni:
        baslat(widget, "z-1")
    kisi_sorgulari = [q["sql"] for q in yeni.captured_queries if "kisiler_" in q["sql"]]
    assert len(kisi_sorgulari) == 1 and kisi_sorgulari[0].startswith("SELECT"), kisi_sorgulari
    with CaptureQueriesContext(connection) as ilk:
        baslat(widget, "z-yeni")
    assert len([q for q in ilk.captured_queries if "kisiler_" in q["sql"]]) == 3  # read, two inserts


def test_widget_init_sorgu_eklemez(musteri, widget):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    baslat(widget, "z-1")
    with CaptureQueriesContext(connection) as init:
        ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z-1"}, format="json"))
    assert not any("kisiler_" in q["sql"] for q in init.captured_queries)


# --- list, search, paging, isolation -------------------------------------------------------------
def test_arama_turkce_katlar_ve_ziyaretci_kimligini_bulur(musteri, widget, op):
    baslat(widget, "z-1", ad="Ayşe Öztürk")
    baslat(widget, "z-2", ad="Şükrü Işık", email="sukru@firma.com")
    baslat(widget, "abc-77", ad="Ali")
    assert [k["ad"] for k in kisiler(op, q="ozturk")] == ["Ayşe Öztürk"]
    assert [k["ad"] for k in kisiler(op, q="ŞÜKRÜ")] == ["Şükrü Işık"]
    assert [k["ad"] for k in kisiler(op, q="isik")] == ["Şükrü Işık"]
    assert [k["ad"] for k in kisiler(op, q="FIRMA.com")] == ["Şükrü Işık"]
    assert [k["ad"] for k in kisiler(op, q="abc-7")] == ["Ali"]
    assert kisiler(op, q="yok-boyle") == []


def test_sayfalama_ve_kotu_girdiler(musteri, widget, op):
    for i in range(5):
        baslat(widget, f"z-{i}")
    sayfa = ok(op.get(KISILER, {"limit": 2}))
    assert len(sayfa["kisiler"]) == 2 and sayfa["sonraki"]
    gorulen = [k["id"] for k in sayfa["kisiler"]]
    while sayfa["sonraki"]:
        sayfa = ok(op.get(KISILER, {"limit": 2, "cursor": sayfa["sonraki"]}))
        gorulen += [k["id"] for k in sayfa["kisiler"]]
    assert gorulen == sorted(gorulen, reverse=True) and len(set(gorulen)) == 5
    hata(op.get(KISILER, {"cursor": "bozuk!"}), 400, "GECERSIZ_ISTEK")
    hata(op.get(KISILER, {"musteri_id": "abc"}), 400, "GECERSIZ_ISTEK")
    hata(op.get(KISILER, {"q": "x" * 201}), 400, "GECERSIZ_ISTEK")
    hata(op.get(KISILER, {"limit": "0"}), 400, "GECERSIZ_ISTEK")
    hata(APIClient().get(KISILER), 401, "KIMLIK_GEREKLI")


def test_baska_projenin_kisisi_gorunmez(musteri, diger_musteri, widget, op):
    baslat(widget, "z-1", ad="Bizim")
    baslat(widget_client(diger_musteri), "z-1", ad="Onların")
    baska = Kisi.objects.get(musteri=diger_musteri)
    assert [k["ad"] for k in kisiler(op)] == ["Bizim"]
    assert kisiler(op, musteri_id=diger_musteri.id) == []
    hata(op.get(kisi_url(baska.id)), 404, "BULUNAMADI")
    hata(op.patch(kisi_url(baska.id), {"ad": "x"}, format="json"), 404, "BULUNAMADI")
    hata(op.get(nitelik_url(diger_musteri.id)), 404, "BULUNAMADI")
    hata(op.get(kisi_url(99999999999)), 404, "BULUNAMADI")
    assert Kisi.objects.get(pk=baska.pk).ad == "Onların"


@pytest.mark.parametrize("adet", [0, 1, 30])
def test_liste_sorgu_sayisi_sabit(musteri, adet, django_assert_max_num_queries):
    widget = widget_client(musteri)
    for i in range(adet):
        baslat(widget, f"z-{i}")
        ticket_ac(widget, f"z-{i}")
    _, client = operator_istemcisi(musteri)
    # user + revoked-token check + tenants + page + visitor ids + chats + tickets + declarations
    with django_assert_max_num_queries(8):
        assert len(kisiler(client, limit=200)) == adet


# --- edit, typed attributes ------------------------------------------------------------------------
NITELIKLER = [
    {"anahtar": "plan", "ad": "Plan", "tur": "secim", "secenekler": ["Temel", "Pro"]},
    {"anahtar": "koltuk", "ad": "Koltuk", "tur": "sayi"},
    {"anahtar": "yenileme", "ad": "Yenileme", "tur": "tarih"},
    {"anahtar": "vip", "ad": "VIP", "tur": "evet_hayir"},
    {"anahtar": "not_", "ad": "Not", "tur": "metin"},
]


def test_nitelik_tanimlari_ve_duzenleme(musteri, widget, op, yonetici):
    hata(op.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER}, format="json"), 403, "YETKISIZ")
    assert ok(yonetici.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER}, format="json"))["nitelikler"] == NITELIKLER
    assert ok(op.get(nitelik_url(musteri.id)))["nitelikler"] == NITELIKLER
    baslat(widget, "z-1")
    kisi_id = kisiler(op)[0]["id"]
    degisiklik = {"ad": "Ayşe", "telefon": "+90 555 111 22 33", "sirket": "Örnek A.Ş.", "email": "a@ornek.com",
                  "nitelikler": {"plan": "Pro", "koltuk": 12, "yenileme": "2027-01-31", "vip": True, "not_": "iyi"}}
    kisi = ok(op.patch(kisi_url(kisi_id), degisiklik, format="json"))["kisi"]
    assert {k: kisi[k] for k in degisiklik} == degisiklik
    kisi = ok(op.patch(kisi_url(kisi_id), {"nitelikler": {"vip": None, "koltuk": 3.5}}, format="json"))["kisi"]
    assert kisi["nitelikler"] == {"plan": "Pro", "koltuk": 3.5, "yenileme": "2027-01-31", "not_": "iyi"}
    assert ok(op.get(kisi_url(kisi_id)))["kisi"] == kisi


@pytest.mark.parametrize("govde,alan", [
    ({"nitelikler": {"bilinmeyen": 1}}, "nitelikler.bilinmeyen"),
    ({"nitelikler": {"koltuk": "on iki"}}, "nitelikler.koltuk"),
    ({"nitelikler": {"koltuk": True}}, "nitelikler.koltuk"),
    ({"nitelikler": {"plan": "Altın"}}, "nitelikler.plan"),
    ({"nitelikler": {"yenileme": "31.01.2027"}}, "nitelikler.yenileme"),
    ({"nitelikler": {"yenileme": "2027-02-30"}}, "nitelikler.yenileme"),
    ({"nitelikler": {"vip": "evet"}}, "nitelikler.vip"),
    ({"nitelikler": {"not_": 5}}, "nitelikler.not_"),
    ({"nitelikler": []}, "nitelikler"),
    ({"email": "eposta-degil"}, "email"),
    ({"telefon": "ara beni"}, "telefon"),
    ({"ad": "x" * 101}, "ad"),
    ({"ad": 5}, "ad"),
    ({"rol": "sahip"}, "rol"),
])
def test_yanlis_duzenleme_400_alanlar(musteri, widget, op, yonetici, govde, alan):
    ok(yonetici.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER}, format="json"))
    baslat(widget, "z-1", ad="Önce")
    kisi_id = kisiler(op)[0]["id"]
    h = hata(op.patch(kisi_url(kisi_id), govde, format="json"), 400, "GECERSIZ_ISTEK")
    assert alan in h["alanlar"], h
    assert kisiler(op)[0]["ad"] == "Önce" and kisiler(op)[0]["nitelikler"] == {}


@pytest.mark.parametrize("govde", [
    [{"anahtar": "Plan", "ad": "Plan", "tur": "metin"}],
    [{"anahtar": "plan", "ad": "", "tur": "metin"}],
    [{"anahtar": "plan", "ad": "Plan", "tur": "renk"}],
    [{"anahtar": "plan", "ad": "Plan", "tur": "secim"}],
    [{"anahtar": "plan", "ad": "Plan", "tur": "secim", "secenekler": ["a", "a"]}],
    [{"anahtar": "plan", "ad": "Plan", "tur": "sayi", "secenekler": ["a"]}],
    [{"anahtar": "plan", "ad": "Plan", "tur": "sayi"}, {"anahtar": "plan", "ad": "İki", "tur": "metin"}],
    [{"anahtar": "plan", "ad": "Plan", "tur": "sayi", "fazla": 1}],
    ["plan"],
    {"plan": "sayi"},
    None,
])
def test_yanlis_nitelik_tanimlari_400(musteri, yonetici, govde):
    ok(yonetici.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER[:1]}, format="json"))
    hata(yonetici.put(nitelik_url(musteri.id), {"nitelikler": govde}, format="json"), 400, "GECERSIZ_ISTEK")
    assert ok(yonetici.get(nitelik_url(musteri.id)))["nitelikler"] == NITELIKLER[:1]


def test_kaldirilan_nitelik_gosterilmez(musteri, widget, op, yonetici):
    ok(yonetici.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER}, format="json"))
    baslat(widget, "z-1")
    kisi_id = kisiler(op)[0]["id"]
    ok(op.patch(kisi_url(kisi_id), {"nitelikler": {"plan": "Pro", "vip": False}}, format="json"))
    ok(yonetici.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER[3:]}, format="json"))
    assert ok(op.get(kisi_url(kisi_id)))["kisi"]["nitelikler"] == {"vip": False}


# --- merge ------------------------------------------------------------------------------------------
def test_birlestirme(musteri, widget, op, yonetici):
    o1 = baslat(widget, "z-1", ad="Ayşe")
    baslat(widget, "z-2", email="ayse@ornek.com")
    ticket_ac(widget, "z-2")
    ok(widget.post(CUSTOMER_INFO, {"ziyaretci_id": "z-2", "ad": "A"}, format="json"))
    birinci, ikinci = sorted(kisiler(op), key=lambda k: k["id"])
    hata(op.post(kisi_url(birinci["id"], "/birlestir"), {"kisi_id": ikinci["id"]}, format="json"), 403, "YETKISIZ")
    kisi = ok(yonetici.post(kisi_url(birinci["id"], "/birlestir"), {"kisi_id": ikinci["id"]}, format="json"))["kisi"]
    assert kisi["ziyaretci_idleri"] == ["z-1", "z-2"] and kisi["oturum_sayisi"] == 2 and kisi["ticket_sayisi"] == 1
    assert kisi["ad"] == "Ayşe" and kisi["email"] == "ayse@ornek.com"
    assert not Kisi.objects.filter(pk=ikinci["id"]).exists()
    hata(op.get(kisi_url(ikinci["id"])), 404, "BULUNAMADI")
    kayit = DenetimKaydi.objects.get(musteri=musteri, eylem="kisi_birlesti")
    assert kayit.hedef == f"kisi:{birinci['id']}" and kayit.ayrinti["birlesen_kisi_id"] == ikinci["id"]
    assert kayit.ayrinti["ziyaretci_idleri"] == ["z-2"]
    # The profile of either visitor id now reads the one contact, with the whole history.
    profil = ok(op.get("/api/v1/operator/ziyaretci/z-2"))
    assert profil["kisi"]["id"] == birinci["id"] and profil["ziyaretci"]["oturum_sayisi"] == 2
    assert {o["id"] for o in profil["oturumlar"]} >= {o1["id"]}


def test_birlestirme_kotu_girdi_ve_yalitim(musteri, diger_musteri, widget, yonetici):
    baslat(widget, "z-1")
    baslat(widget_client(diger_musteri), "z-9")
    kisi_id = Kisi.objects.get(musteri=musteri).pk
    baska_id = Kisi.objects.get(musteri=diger_musteri).pk
    url = kisi_url(kisi_id, "/birlestir")
    hata(yonetici.post(url, {"kisi_id": baska_id}, format="json"), 404, "BULUNAMADI")
    hata(yonetici.post(kisi_url(baska_id, "/birlestir"), {"kisi_id": kisi_id}, format="json"), 404, "BULUNAMADI")
    hata(yonetici.post(url, {"kisi_id": kisi_id}, format="json"), 400, "GECERSIZ_ISTEK")
    hata(yonetici.post(url, {"kisi_id": "abc"}, format="json"), 400, "GECERSIZ_ISTEK")
    hata(yonetici.post(url, {}, format="json"), 400, "GECERSIZ_ISTEK")
    hata(yonetici.post(url, [1], format="json"), 400, "GECERSIZ_ISTEK")
    hata(yonetici.post(url, "{bozuk", content_type="application/json"), 400, "GECERSIZ_ISTEK")
    assert Kisi.objects.filter(pk__in=[kisi_id, baska_id]).count() == 2
    assert KisiZiyaretci.objects.get(musteri=diger_musteri).ziyaretci_id == "z-9"


# --- erasure (CONTRACT 18) -----------------------------------------------------------------------
def test_silme_son_kimlikse_kisiyi_de_siler(musteri, widget, yonetici):
    baslat(widget, "z-1", email="a@ornek.com")
    ok(widget.post(CUSTOMER_INFO, imzali(musteri, "z-2", email="a@ornek.com"), format="json"))
    baslat(widget, "z-3")
    ok(yonetici.delete("/api/v1/operator/ziyaretci/z-1"))
    [kisi_a, kisi_b] = sorted(kisiler(yonetici), key=lambda k: k["id"])
    assert kisi_a["ziyaretci_idleri"] == ["z-2"] and kisi_b["ziyaretci_idleri"] == ["z-3"]
    ok(yonetici.delete("/api/v1/operator/ziyaretci/z-3"))
    assert [k["ziyaretci_idleri"] for k in kisiler(yonetici)] == [["z-2"]]
    ok(yonetici.delete("/api/v1/operator/ziyaretci/z-2"))
    assert kisiler(yonetici) == [] and not Kisi.objects.filter(musteri=musteri).exists()
    assert not Ticket.objects.filter(musteri=musteri).exists()


def test_silme_kimligi_birakir_baslangic_yeni_kisi_yapar(musteri, widget, yonetici):
    baslat(widget, "z-1", ad="Eski")
    ok(yonetici.delete("/api/v1/operator/ziyaretci/z-1"))
    res = widget.post(START, {"ziyaretci_id": "z-1", "ad": "Yeni"}, format="json")
    ok(res, 201)
    assert [k["ad"] for k in kisiler(yonetici)] == ["Yeni"]


@pytest.mark.parametrize(("email", "kabul"), [
    ("  ayse@ornek.com ", "ayse@ornek.com"), ("ayse@", None), ("a" * 250 + "@x.co", None), ("a\x00@x.co", None),
    (5, None), ("", ""),
])
def test_bir_e_posta_her_yerde_ayni_kurala_gore_alinir(musteri, widget, op, email, kabul):
    """One definition (supportdesk.core.girdi.email_dogrula): a chat's start, a contact's edit and a
    closed chat's transcript take or refuse an address alike, with the same field and message."""
    cevaplar = []
    res = widget.post(START, {"ziyaretci_id": "z-1", "email": email}, format="json")
    cevaplar.append(res)
    o = baslat(widget, "z-2")
    kisi_id = next(k["id"] for k in kisiler(op) if k["ziyaretci_idleri"] == ["z-2"])
    cevaplar.append(op.patch(kisi_url(kisi_id), {"email": email}, format="json"))
    ok(op.post(f"/api/v1/operator/chat/{o['id']}/close"))
    cevaplar.append(widget.post("/api/v1/widget/chat/transcript",
                                {"ziyaretci_id": "z-2", "oturum_id": o["id"], "email": email}, format="json"))
    if kabul is None:
        mesajlar = {hata(r, 400, "GECERSIZ_ISTEK")["alanlar"]["email"] for r in cevaplar}
        assert email != "ayse@" or mesajlar == {"Geçerli bir e-posta adresi olmalı."}, mesajlar
        return
    assert cevaplar[0].status_code == 201 and cevaplar[0].json()["data"]["oturum"].get("email", kabul) == kabul
    assert ok(cevaplar[1])["kisi"]["email"] == kabul
    if kabul:  # no address and none given at the start: the transcript asks for one
        assert ok(cevaplar[2], 201)["eposta"]["alici"] == kabul
