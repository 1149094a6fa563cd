"""Widget side of CONTRACT 3: start, message, poll with `sonra`, end, rate."""
import pytest

from chat.models import Mesaj, Oturum
from supportdesk.testing.factories import MusteriFactory
from tenants.tests.test_auth import hata
from webhooks.models import Olay

from .yardimci import START, W_BITIR, W_MESAJ, W_MESAJLAR, W_PUAN, baslat, ok, op_url, widget_client

pytestmark = pytest.mark.django_db


def mesajlar(client, oturum_id, ziyaretci_id="z-1", **params):
    return ok(client.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id, **params}))


def test_baslat_yeni_sohbet_201_alanlar_ve_yeni_chat_olayi(widget, musteri, nobetci):
    res = widget.post(START, {"ziyaretci_id": "z-1", "ad": "Ayşe", "email": "ayse@example.com",
                              "mesaj": "Merhaba"}, format="json")
    data = ok(res, 201)
    o = data["oturum"]
    assert set(o) >= {"id", "musteri_id", "ziyaretci_id", "ziyaretci_adi", "kanal", "durum", "operator_id", "baslangic",
                      "kabul_zamani", "bitis_zamani", "kapatan", "puan", "puan_yorumu", "son_mesaj", "okunmamis",
                      "sira_no", "cevrimici_operator"}
    assert o["musteri_id"] == musteri.id and o["ziyaretci_id"] == "z-1" and o["ziyaretci_adi"] == "Ayşe"
    assert (o["durum"], o["kanal"], o["operator_id"], o["kapatan"], o["puan"]) == ("bekliyor", "widget", None, None, None)
    assert o["son_mesaj"] == "Merhaba" and o["okunmamis"] == 1
    assert o["sira_no"] == 1 and data["sira_no"] == 1
    # Someone is reachable (`nobetci`): the chat waits for it, no ticket offer (CONTRACT 15).
    assert o["cevrimici_operator"] is True and data["cevrimici_operator"] is True and o["ticket_onerisi"] is False
    assert o["baslangic"].endswith("+00:00")
    [olay] = Olay.objects.filter(olay="yeni_chat")
    assert olay.musteri_id == musteri.id
    assert olay.veri == {"oturum_id": o["id"], "musteri_id": musteri.id, "ziyaretci_adi": "Ayşe", "kanal": "widget",
                         "etiketler": [], "ekip_id": None}
    [m] = mesajlar(widget, o["id"])["mesajlar"]
    assert (m["gonderen"], m["icerik"], m["operator_id"], m["ek"]) == ("ziyaretci", "Merhaba", None, None)
    assert m["oturum_id"] == o["id"]


def test_acik_sohbet_varken_baslat_ayni_sohbeti_200_doner_olay_yok(widget, nobetci):
    ilk = baslat(widget, mesaj="Bir")
    ikinci = baslat(widget, status=200, mesaj="İki")
    assert ikinci["id"] == ilk["id"]
    assert Oturum.objects.count() == 1
    assert Olay.objects.filter(olay="yeni_chat").count() == 1
    # What the visitor typed the second time is not lost.
    assert [m["icerik"] for m in mesajlar(widget, ilk["id"])["mesajlar"]] == ["Bir", "İki"]


def test_kapanan_sohbetten_sonra_baslat_yeni_sohbet_acar(widget):
    ilk = baslat(widget)
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": ilk["id"]}, format="json"))
    ikinci = baslat(widget)
    assert ikinci["id"] != ilk["id"]
    assert Olay.objects.filter(olay="yeni_chat").count() == 2


def test_sira_no_ve_cevrimici_operator(widget, musteri, op, diger_musteri):
    user, _ = op
    a = baslat(widget, "a")
    b = baslat(widget, "b")
    baslat(widget_client(diger_musteri), "x")  # another tenant's queue does not count
    c = baslat(widget, "c")
    assert (a["sira_no"], b["sira_no"], c["sira_no"]) == (1, 2, 3)
    user.durum = "mesgul"
    user.save(update_fields=["durum"])
    ok(op[1].post(op_url(a["id"], "accept")))
    data = mesajlar(widget, c["id"], "c")
    assert data["oturum"]["sira_no"] == 2 and data["sira_no"] == 2
    assert data["cevrimici_operator"] is True and data["oturum"]["cevrimici_operator"] is True
    aktif = mesajlar(widget, a["id"], "a")["oturum"]
    assert aktif["durum"] == "aktif" and aktif["sira_no"] is None
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert mesajlar(widget, c["id"], "c")["cevrimici_operator"] is False


def test_widget_init_acik_sohbeti_ve_cevrimici_operatoru_doner(widget, op):
    res = ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z-1"}, format="json"))
    assert res["oturum"] is None and res["cevrimici_operator"] is False
    o = baslat(widget)
    op[0].durum = "cevrimici"
    op[0].save(update_fields=["durum"])
    res = ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z-1"}, format="json"))
    assert res["oturum"]["id"] == o["id"] and res["oturum"]["sira_no"] == 1 and res["cevrimici_operator"] is True
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    assert ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z-1"}, format="json"))["oturum"] is None


def test_mesaj_ve_sonra_ile_yoklama(widget, nobetci):
    o = baslat(widget)
    ids = []
    for metin in ["bir", "iki", "üç"]:
        m = ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": metin}, format="json"), 201)["mesaj"]
        assert m["gonderen"] == "ziyaretci" and m["icerik"] == metin and m["ek"] is None and m["zaman"].endswith("+00:00")
        ids.append(m["id"])
    assert [m["id"] for m in mesajlar(widget, o["id"])["mesajlar"]] == ids
    assert [m["icerik"] for m in mesajlar(widget, o["id"], sonra=ids[0])["mesajlar"]] == ["iki", "üç"]
    bos = mesajlar(widget, o["id"], sonra=ids[-1])
    assert bos["mesajlar"] == [] and bos["sonraki"] is None


def test_mesajlar_sayfalanir(widget, nobetci):
    o = baslat(widget)
    for i in range(5):
        ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": f"m{i}"}, format="json"), 201)
    ilk = mesajlar(widget, o["id"], limit=3)
    assert [m["icerik"] for m in ilk["mesajlar"]] == ["m0", "m1", "m2"] and ilk["sonraki"]
    son = mesajlar(widget, o["id"], limit=3, cursor=ilk["sonraki"])
    assert [m["icerik"] for m in son["mesajlar"]] == ["m3", "m4"] and son["sonraki"] is None


def test_html_duz_metin_olarak_saklanir_ve_doner(widget):
    o = baslat(widget)
    kotu = "<script>alert(1)</script> & <b>kalın</b>"
    m = ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": kotu}, format="json"), 201)["mesaj"]
    assert m["icerik"] == kotu
    assert Mesaj.objects.get(pk=m["id"]).icerik == kotu


@pytest.mark.parametrize("icerik", ["", "   ", "x" * 5001, 12, None, ["a"], {"a": 1}, True])
def test_gecersiz_mesaj_400_ve_kayit_yok(widget, nobetci, icerik):
    o = baslat(widget)
    body = hata(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": icerik}, format="json"),
                400, "GECERSIZ_ISTEK")
    assert "icerik" in body["hata"]["alanlar"]
    assert Mesaj.objects.count() == 0


def test_5000_karakter_kabul(widget):
    o = baslat(widget)
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "ş" * 5000}, format="json"), 201)


@pytest.mark.parametrize("govde", [
    {"ziyaretci_id": "z-1"},
    {"ziyaretci_id": "z-1", "oturum_id": "abc", "icerik": "x"},
    {"ziyaretci_id": "z-1", "oturum_id": 1.5, "icerik": "x"},
    {"oturum_id": 1, "icerik": "x"},
    {"ziyaretci_id": 5, "oturum_id": 1, "icerik": "x"},
])
def test_eksik_ya_da_hatali_alanlar_400(widget, govde):
    baslat(widget)
    hata(widget.post(W_MESAJ, govde, format="json"), 400, "GECERSIZ_ISTEK")


@pytest.mark.parametrize("govde", [
    {"ad": 5}, {"ad": "x" * 101}, {"email": "eposta-degil"}, {"mesaj": ""}, {"mesaj": "x" * 5001}, {"mesaj": 3},
    {"kanal": "telefon"},
])
def test_baslat_gecersiz_400_ve_kayit_yok(widget, govde):
    hata(widget.post(START, {"ziyaretci_id": "z-1", **govde}, format="json"), 400, "GECERSIZ_ISTEK")
    assert Oturum.objects.count() == 0 and Olay.objects.count() == 0


def test_bozuk_json_400(widget):
    res = widget.post(START, "{bozuk", content_type="application/json")
    hata(res, 400, "GECERSIZ_ISTEK")


def test_baska_ziyaretcinin_ve_baska_projenin_sohbeti_404(widget, musteri, nobetci):
    o = baslat(widget, "sahibi")
    baska_proje = widget_client(MusteriFactory())
    for client, ziyaretci in [(widget, "baskasi"), (baska_proje, "sahibi")]:
        hata(client.post(W_MESAJ, {"ziyaretci_id": ziyaretci, "oturum_id": o["id"], "icerik": "x"}, format="json"),
             404, "BULUNAMADI")
        hata(client.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci, "oturum_id": o["id"]}), 404, "BULUNAMADI")
        hata(client.post(W_BITIR, {"ziyaretci_id": ziyaretci, "oturum_id": o["id"]}, format="json"), 404, "BULUNAMADI")
        hata(client.post(W_PUAN, {"ziyaretci_id": ziyaretci, "oturum_id": o["id"], "puan": 5}, format="json"),
             404, "BULUNAMADI")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "sahibi", "oturum_id": 999999}), 404, "BULUNAMADI")
    assert Mesaj.objects.count() == 0
    assert Oturum.objects.get().durum == "bekliyor"


def test_mesajlar_gecersiz_parametre_400(widget):
    o = baslat(widget)
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1"}), 400, "GECERSIZ_ISTEK")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": "x"}), 400, "GECERSIZ_ISTEK")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "sonra": "abc"}), 400, "GECERSIZ_ISTEK")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "limit": 0}), 400, "GECERSIZ_ISTEK")
    # Over 200 is capped (CONTRACT 9), not refused.
    assert widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "limit": 500}).status_code == 200


def test_kimliksiz_ve_yanlis_anahtar(api):
    hata(api.post(START, {"ziyaretci_id": "z"}, format="json"), 401, "KIMLIK_GEREKLI")
    api.credentials(HTTP_X_API_KEY="pk_yok")
    hata(api.post(START, {"ziyaretci_id": "z"}, format="json"), 401, "GECERSIZ_API_ANAHTARI")


def test_izinsiz_origin_403(musteri):
    musteri.izinli_originler = ["https://magaza.example.com"]
    musteri.save(update_fields=["izinli_originler"])
    client = widget_client(musteri, HTTP_ORIGIN="https://kotu.example.com")
    hata(client.post(START, {"ziyaretci_id": "z"}, format="json"), 403, "ORIGIN_IZINSIZ")
    client = widget_client(musteri, HTTP_ORIGIN="https://magaza.example.com")
    baslat(client, "z")


# --- end and rate: the visitor's part of the state table ----------------------------------
def test_bitir_kapatir_sistem_mesaji_ve_olay(widget, musteri, nobetci):
    o = baslat(widget)
    data = ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    assert data["oturum"]["durum"] == "kapandi" and data["oturum"]["kapatan"] == "ziyaretci"
    assert data["oturum"]["bitis_zamani"] and data["oturum"]["sira_no"] is None
    [son] = mesajlar(widget, o["id"])["mesajlar"]
    assert son["gonderen"] == "sistem"
    [olay] = Olay.objects.filter(olay="chat_kapandi")
    assert olay.veri["oturum_id"] == o["id"] and olay.veri["musteri_id"] == musteri.id
    assert olay.veri["kapatan"] == "ziyaretci" and isinstance(olay.veri["sure_saniye"], int)
    # Already closed: 409, no second event.
    hata(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"), 409, "DURUM_CAKISMASI")
    hata(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "x"}, format="json"),
         409, "DURUM_CAKISMASI")
    assert Olay.objects.filter(olay="chat_kapandi").count() == 1


def test_puan_kapanmis_sohbete_bir_kez(widget, musteri):
    o = baslat(widget)
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    data = ok(widget.post(W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "puan": 4, "yorum": "İyi"}, format="json"))
    assert data["oturum"]["puan"] == 4 and data["oturum"]["puan_yorumu"] == "İyi"
    [olay] = Olay.objects.filter(olay="memnuniyet_puan")
    assert olay.veri == {"oturum_id": o["id"], "musteri_id": musteri.id, "puan": 4, "yorum": "İyi", "etiketler": [],
                         "ekip_id": None}
    hata(widget.post(W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "puan": 5}, format="json"), 409, "DURUM_CAKISMASI")
    assert Oturum.objects.get().puan == 4 and Olay.objects.filter(olay="memnuniyet_puan").count() == 1


def test_aktif_sohbete_puan_once_kapatir(widget, musteri, op):
    o = baslat(widget)
    ok(op[1].post(op_url(o["id"], "accept")))
    data = ok(widget.post(W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "puan": 5}, format="json"))
    assert data["oturum"]["durum"] == "kapandi" and data["oturum"]["kapatan"] == "ziyaretci" and data["oturum"]["puan"] == 5
    assert data["oturum"]["puan_yorumu"] == ""
    olaylar = list(Olay.objects.order_by("zaman").values_list("olay", flat=True))
    assert olaylar == ["yeni_chat", "chat_atandi", "chat_kapandi", "memnuniyet_puan"]
    assert Olay.objects.get(olay="memnuniyet_puan").veri["yorum"] == ""


def test_bekleyen_sohbete_puan_409(widget):
    o = baslat(widget)
    hata(widget.post(W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "puan": 5}, format="json"), 409, "DURUM_CAKISMASI")
    assert Oturum.objects.get().durum == "bekliyor"


@pytest.mark.parametrize("govde", [{"puan": 0}, {"puan": 6}, {"puan": "5"}, {"puan": 4.5}, {"puan": None}, {},
                                   {"puan": True}, {"puan": 3, "yorum": 7}, {"puan": 3, "yorum": "x" * 1001}])
def test_gecersiz_puan_400(widget, govde):
    o = baslat(widget)
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    hata(widget.post(W_PUAN, {"ziyaretci_id": "z-1", "oturum_id": o["id"], **govde}, format="json"), 400, "GECERSIZ_ISTEK")
    assert Oturum.objects.get().puan is None


# --- attachments (uploads belong to the tickets app) ----------------------------------------
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
)


def yukle(client, ziyaretci_id="z-1") -> dict:
    from django.core.files.uploadedfile import SimpleUploadedFile

    dosya = SimpleUploadedFile("ekran.png", PNG, content_type="image/png")
    return ok(client.post("/api/v1/widget/upload", {"dosya": dosya, "ziyaretci_id": ziyaretci_id}, format="multipart"),
              201)["dosya"]


def test_mesaja_kendi_yuklemesi_eklenir_ve_iki_tarafta_gorunur(widget, op, nobetci):
    o = baslat(widget)
    dosya = yukle(widget)
    m = ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "Ekran görüntüsü",
                                 "ek_id": dosya["id"]}, format="json"), 201)["mesaj"]
    assert m["ek"] == dosya and set(m["ek"]) == {"id", "ad", "boyut", "mime_tipi", "url"}
    assert mesajlar(widget, o["id"])["mesajlar"][0]["ek"] == dosya
    assert ok(op[1].get(op_url(o["id"], "messages")))["mesajlar"][0]["ek"] == dosya


def test_baska_ziyaretcinin_ya_da_projenin_yuklemesi_eklenemez_404(widget, musteri, nobetci):
    o = baslat(widget)
    baskasinin = yukle(widget, "baska-ziyaretci")
    baska_projenin = yukle(widget_client(MusteriFactory()), "z-1")
    for ek_id in (baskasinin["id"], baska_projenin["id"], 99999999):
        hata(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "x", "ek_id": ek_id},
                         format="json"), 404, "BULUNAMADI")
    hata(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "x", "ek_id": "1"}, format="json"),
         400, "GECERSIZ_ISTEK")
    assert Mesaj.objects.count() == 0
