"""The API the console needs beyond what existed (issue 15): the cookie session with CSRF, the
socket ticket, the operator upload and its attachments, a tenant's members for transfer."""
import jwt
import pytest
from django.conf import settings
from rest_framework.test import APIClient

from chat.models import Mesaj
from chat.tests.yardimci import baslat, ok, op_url, operator_istemcisi
from dosyalar.models import Dosya
from dosyalar.tests.yardimci import dosya, exe_bayt, pdf_bayt, png_bayt, yuklenen_id
from supportdesk.core.exceptions import GecersizToken
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.kimlik import PANEL_CEREZI, operator_tokeni_dogrula
from tenants.tests.test_auth import hata
from tickets.models import TicketYanit

pytestmark = pytest.mark.django_db
GIRIS, OTURUM, CIKIS, BILET = "/api/v1/panel/giris", "/api/v1/panel/oturum", "/api/v1/panel/cikis", "/api/v1/panel/soket-bileti"
UPLOAD = "/api/v1/operator/upload"


def panel_girisi(user) -> tuple[APIClient, str]:
    client = APIClient(enforce_csrf_checks=True)
    res = client.post(GIRIS, {"email": user.email, "sifre": TEST_SIFRE}, format="json")
    data = ok(res)
    return client, data["csrf"]


# --- cookie session ------------------------------------------------------------------------
def test_giris_tokeni_httponly_strict_cerezde_verir_govdede_vermez(musteri):
    user = operator_yap(musteri)
    client = APIClient()
    res = client.post(GIRIS, {"email": user.email, "sifre": TEST_SIFRE}, format="json")
    data = ok(res)
    assert set(data) == {"operator", "csrf", "dil"} and data["operator"]["id"] == user.id
    assert "token" not in res.content.decode().lower().replace('"csrf"', "")
    cerez = res.cookies[PANEL_CEREZI]
    assert cerez["httponly"] is True and cerez["samesite"] == "Strict" and cerez["path"] == "/api/v1/"
    assert int(cerez["max-age"]) == int(settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"].total_seconds())
    assert res["Cache-Control"] == "no-store"


def test_yanlis_sifre_ve_bozuk_girdi_cerez_vermez(musteri):
    user = operator_yap(musteri)
    client = APIClient()
    res = client.post(GIRIS, {"email": user.email, "sifre": "yanlis"}, format="json")
    hata(res, 401, "GECERSIZ_GIRIS")
    assert PANEL_CEREZI not in res.cookies
    hata(client.post(GIRIS, {"email": 5, "sifre": []}, format="json"), 400, "GECERSIZ_ISTEK")
    hata(client.get(OTURUM), 401, "KIMLIK_GEREKLI")


def test_cerez_ile_operator_api_okunur_yazma_csrf_ister(musteri, widget):
    user = operator_yap(musteri)
    client, csrf = panel_girisi(user)
    assert ok(client.get(OTURUM))["csrf"] == csrf
    o = baslat(widget)
    assert [x["id"] for x in ok(client.get("/api/v1/operator/chats"))["oturumlar"]] == [o["id"]]
    hata(client.post(op_url(o["id"], "accept")), 403, "YETKISIZ")
    hata(client.post(op_url(o["id"], "accept"), HTTP_X_CSRF_TOKEN="a" * 64), 403, "YETKISIZ")
    ok(client.post(op_url(o["id"], "accept"), HTTP_X_CSRF_TOKEN=csrf))


def test_baska_oturumun_csrf_degeri_gecmez(musteri):
    a, b = operator_yap(musteri), operator_yap(musteri)
    client_a, _ = panel_girisi(a)
    _, csrf_b = panel_girisi(b)
    hata(client_a.post("/api/v1/operator/status", {"durum": "mesgul"}, format="json", HTTP_X_CSRF_TOKEN=csrf_b),
         403, "YETKISIZ")


def test_cikis_iptal_eder_ve_cerezi_siler(musteri):
    user = operator_yap(musteri)
    client, csrf = panel_girisi(user)
    token = client.cookies[PANEL_CEREZI].value
    hata(client.post(CIKIS), 403, "YETKISIZ")  # logout changes state: CSRF too
    res = client.post(CIKIS, HTTP_X_CSRF_TOKEN=csrf)
    ok(res)
    assert res.cookies[PANEL_CEREZI].value == "" and res.cookies[PANEL_CEREZI]["path"] == "/api/v1/"
    # The same token, kept by someone, is dead everywhere: cookie and bearer.
    eski = APIClient()
    eski.cookies[PANEL_CEREZI] = token
    hata(eski.get(OTURUM), 401, "GECERSIZ_TOKEN")
    hata(APIClient().get("/api/v1/operator/tenants", HTTP_AUTHORIZATION=f"Bearer {token}"), 401, "GECERSIZ_TOKEN")


def test_auth_logout_da_cerezi_gecersiz_kilar(musteri):
    user = operator_yap(musteri)
    client, csrf = panel_girisi(user)
    ok(client.post("/api/v1/auth/logout", HTTP_X_CSRF_TOKEN=csrf))
    hata(client.get(OTURUM), 401, "GECERSIZ_TOKEN")


def test_bozuk_cerez_gecersiz_token(musteri):
    client = APIClient()
    client.cookies[PANEL_CEREZI] = "bozuk.token.degeri"
    hata(client.get("/api/v1/operator/chats"), 401, "GECERSIZ_TOKEN")


def test_bearer_baslik_cerezden_once_gelir_csrf_istemez(musteri, widget):
    user, client = operator_istemcisi(musteri)
    o = baslat(widget)
    client.cookies[PANEL_CEREZI] = "bozuk"
    ok(client.post(op_url(o["id"], "accept")))


def test_oturum_sorgu_sayisi_bearer_ile_ayni(musteri, django_assert_num_queries):
    user = operator_yap(musteri)
    client, _ = panel_girisi(user)
    # user, revocation check, memberships (operator_verisi), primary tenant read from memberships.
    with django_assert_num_queries(3):
        ok(client.get(OTURUM))


# --- socket ticket -------------------------------------------------------------------------
def test_soket_bileti_yalniz_soket_icin_ve_cikisla_olur(musteri):
    user = operator_yap(musteri)
    client, csrf = panel_girisi(user)
    hata(client.post(BILET), 403, "YETKISIZ")
    data = ok(client.post(BILET, HTTP_X_CSRF_TOKEN=csrf), 201)
    claims = jwt.decode(data["token"], options={"verify_signature": False})
    ana = jwt.decode(client.cookies[PANEL_CEREZI].value, options={"verify_signature": False})
    assert claims["exp"] == ana["exp"] and abs(data["gecerlilik_saniye"] - (ana["exp"] - ana["iat"])) <= 2
    assert claims["ana_jti"] == ana["jti"] != claims["jti"] and str(claims["user_id"]) == str(user.id)
    assert claims["amac"] == "soket"
    # The socket's check (tenants.kimlik.operator_tokeni_dogrula) takes it; REST never does.
    assert operator_tokeni_dogrula(data["token"])[0] == user
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {data['token']}")
    hata(bearer.get("/api/v1/operator/tenants"), 401, "GECERSIZ_TOKEN")
    cerezli = APIClient()
    cerezli.cookies[PANEL_CEREZI] = data["token"]
    hata(cerezli.get(OTURUM), 401, "GECERSIZ_TOKEN")
    ok(client.post(CIKIS, HTTP_X_CSRF_TOKEN=csrf))
    with pytest.raises(GecersizToken):
        operator_tokeni_dogrula(data["token"])


def test_soket_bileti_kimliksiz_401():
    hata(APIClient().post(BILET), 401, "KIMLIK_GEREKLI")


# --- operator upload -----------------------------------------------------------------------
def _yukle(client, musteri_id, ad="ekran.png", icerik=None, tip="image/png"):
    govde = {"dosya": dosya(ad, png_bayt() if icerik is None else icerik, tip)}
    if musteri_id is not None:
        govde["musteri_id"] = musteri_id
    return client.post(UPLOAD, govde, format="multipart")


def test_operator_yukler_ve_sohbete_ekler_ziyaretci_gorur(musteri, widget):
    user, client = operator_istemcisi(musteri)
    o = baslat(widget)
    ok(client.post(op_url(o["id"], "accept")))
    d = ok(_yukle(client, musteri.id), 201)["dosya"]
    assert d["mime_tipi"] == "image/png" and d["url"].startswith("http://testserver/media/yuklemeler/")
    assert Dosya.objects.get(pk=d["id"]).yukleyen_id == user.id
    m = ok(client.post(op_url(o["id"], "message"), {"icerik": "Ekran görüntüsü", "ek_id": d["id"]}, format="json"), 201)
    assert m["mesaj"]["ek"]["id"] == d["id"]
    goren = ok(widget.get("/api/v1/widget/chat/messages", {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))
    assert goren["mesajlar"][-1]["ek"]["url"] == d["url"]


def test_pdf_olur_exe_415_bos_400_buyuk_413(musteri, settings):
    _, client = operator_istemcisi(musteri)
    assert ok(_yukle(client, musteri.id, "a.pdf", pdf_bayt(), "application/pdf"), 201)["dosya"]["mime_tipi"] == \
        "application/pdf"
    hata(_yukle(client, musteri.id, "a.png", exe_bayt()), 415, "DESTEKLENMEYEN_DOSYA")
    hata(_yukle(client, musteri.id, "a.png", b""), 400, "GECERSIZ_ISTEK")
    hata(client.post(UPLOAD, {"musteri_id": musteri.id}, format="multipart"), 400, "GECERSIZ_ISTEK")
    hata(_yukle(client, None), 400, "GECERSIZ_ISTEK")
    hata(client.post(UPLOAD, {"musteri_id": musteri.id}, format="json"), 415, "DESTEKLENMEYEN_ICERIK_TIPI")
    hata(client.post(UPLOAD, b"x", content_type="multipart/form-data; boundary=b",
                     CONTENT_LENGTH=str(11 * 1024 * 1024)), 413, "DOSYA_COK_BUYUK")
    assert Dosya.objects.count() == 1


def test_baska_projeye_yukleme_404_kimliksiz_401(musteri, diger_musteri):
    _, client = operator_istemcisi(musteri)
    hata(_yukle(client, diger_musteri.id), 404, "BULUNAMADI")
    hata(_yukle(client, "abc"), 404, "BULUNAMADI")
    hata(_yukle(client, 10**30), 404, "BULUNAMADI")
    hata(_yukle(APIClient(), musteri.id), 401, "KIMLIK_GEREKLI")
    assert Dosya.objects.count() == 0


def test_baskasinin_dosyasi_eklenemez_hicbir_sey_kaydedilmez(musteri, widget):
    diger = MusteriFactory()
    user, client = operator_istemcisi(musteri, diger)
    _, meslektas = operator_istemcisi(musteri)
    o = baslat(widget)
    ziyaretcinin = yuklenen_id(widget, "z-1")
    meslektasin = ok(_yukle(meslektas, musteri.id), 201)["dosya"]["id"]
    diger_projede = ok(_yukle(client, diger.id), 201)["dosya"]["id"]
    once = Mesaj.objects.count()
    for ek_id in (ziyaretcinin, meslektasin, diger_projede, 10**30):
        hata(client.post(op_url(o["id"], "message"), {"icerik": "x", "ek_id": ek_id}, format="json"), 404, "BULUNAMADI")
    hata(client.post(op_url(o["id"], "message"), {"icerik": "x", "ek_id": "1"}, format="json"), 400, "GECERSIZ_ISTEK")
    assert Mesaj.objects.count() == once


def test_ticket_yanitina_operator_ekleri(musteri, widget):
    user, client = operator_istemcisi(musteri)
    t = ok(widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z-1", "konu": "Fatura", "mesaj": "Yardım"},
                       format="json"), 201)["ticket"]
    a = ok(_yukle(client, musteri.id), 201)["dosya"]["id"]
    b = ok(_yukle(client, musteri.id, "a.pdf", pdf_bayt(), "application/pdf"), 201)["dosya"]["id"]
    url = f"/api/v1/operator/ticket/{t['id']}/reply"
    hata(client.post(url, {"icerik": "Ekte", "ek_idleri": [a, yuklenen_id(widget, "z-1")]}, format="json"), 404, "BULUNAMADI")
    hata(client.post(url, {"icerik": "Ekte", "ek_idleri": ["x"]}, format="json"), 400, "GECERSIZ_ISTEK")
    assert TicketYanit.objects.filter(gonderen="operator").count() == 0
    y = ok(client.post(url, {"icerik": "Ekte", "ek_idleri": [b, a]}, format="json"), 201)["yanit"]
    assert [e["id"] for e in y["ekler"]] == [b, a] or {e["id"] for e in y["ekler"]} == {a, b}
    detay = ok(widget.get(f"/api/v1/widget/ticket/{t['id']}", {"ziyaretci_id": "z-1"}))["ticket"]
    assert {e["id"] for e in detay["yanitlar"][-1]["ekler"]} == {a, b}


# --- members -------------------------------------------------------------------------------
def test_proje_uyeleri_aktarma_icin(musteri, diger_musteri):
    user, client = operator_istemcisi(musteri)
    meslektas = operator_yap(musteri, email="b@ornek.com")
    operator_yap(diger_musteri, email="yabanci@ornek.com")
    data = ok(client.get(f"/api/v1/operator/tenants/{musteri.id}/operatorler"))["operatorler"]
    assert {u["id"] for u in data} == {user.id, meslektas.id}
    assert set(data[0]) == {"id", "email", "ad", "durum", "rol"}
    hata(client.get(f"/api/v1/operator/tenants/{diger_musteri.id}/operatorler"), 404, "BULUNAMADI")
    hata(client.get(f"/api/v1/operator/tenants/{10**30}/operatorler"), 404, "BULUNAMADI")
    hata(APIClient().get(f"/api/v1/operator/tenants/{musteri.id}/operatorler"), 401, "KIMLIK_GEREKLI")


@pytest.mark.parametrize("adet", [0, 1, 5])
def test_proje_uyeleri_sorgu_sayisi_sabit(musteri, adet, django_assert_num_queries):
    _, client = operator_istemcisi(musteri)
    for _ in range(adet):
        operator_yap(musteri)
    # user, revocation, the caller's membership, the members with their users.
    with django_assert_num_queries(4):
        ok(client.get(f"/api/v1/operator/tenants/{musteri.id}/operatorler"))


def test_operator_upload_sema_ve_sayfada_var(api):
    sema = api.get("/api/v1/schema/").content.decode()
    for yol in ("/api/v1/operator/upload", "/api/v1/panel/giris", "/api/v1/panel/soket-bileti",
                "/api/v1/operator/tenants/{musteri_id}/operatorler"):
        assert yol in sema, yol


def test_widget_kimligi_ile_operator_upload_401(musteri):
    hata(_yukle(widget_client(musteri), musteri.id), 401, "KIMLIK_GEREKLI")
