"""CONTRACT 19, the API: `hata.mesaj` and the messages of `alanlar` follow `Accept-Language`
(`en-US` counts as `en`, q-values respected), else the authenticated user's own language, else (or
when unsupported) Turkish. `kod`, `alanlar` keys and enum values never change. Through HTTP, for
errors answered by DRF's handler, by the middlewares before any view (414, 413), before the
credential is read (a bad body, a bad token) and after it (the user's language)."""
import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client

pytestmark = pytest.mark.django_db

LOGIN = "/api/v1/auth/login"
TENANTS = "/api/v1/operator/tenants"

# Accept-Language as sent -> the language that must answer.
BASLIKLAR = [
    ("en", "en"),
    ("en-US,en;q=0.9", "en"),
    ("de;q=1.0, en;q=0.5", "en"),  # the first supported one by q order
    ("tr;q=0.3, en;q=0.8", "en"),
    ("tr", "tr"),
    ("de", "tr"),  # unsupported: the default
    (None, "tr"),
]


def _istemci(baslik: str | None, **kw) -> APIClient:
    client = APIClient(**kw)
    if baslik is not None:
        client.credentials(HTTP_ACCEPT_LANGUAGE=baslik)
    return client


def _hata(res, status: int, kod: str) -> dict:
    assert res.status_code == status, res.content
    govde = res.json()
    assert govde["basarili"] is False and govde["hata"]["kod"] == kod, govde
    return govde["hata"]


# Each case: a request made with a client (its Accept-Language already set), the status and code
# it must get, and its message in each language.
def _bos_giris(c, _ctx):
    return c.post(LOGIN, {}, format="json")


def _bozuk_json(c, _ctx):
    return c.post(LOGIN, "{bozuk", content_type="application/json")


def _nesne_olmayan_govde(c, _ctx):
    return c.post(LOGIN, [1, 2], format="json")


def _kimliksiz(c, _ctx):
    return c.get(TENANTS)


def _bozuk_token(c, _ctx):
    return c.get(TENANTS, HTTP_AUTHORIZATION="Bearer bozuk.token.degeri")


def _yanlis_sifre(c, ctx):
    return c.post(LOGIN, {"email": ctx["operator"].email, "sifre": "yanlis-sifre-123"}, format="json")


def _bilinmeyen_widget_anahtari(c, _ctx):
    return c.post("/api/v1/widget/init", {"ziyaretci_id": "z1"}, format="json", HTTP_X_API_KEY="pk_yok_boyle_bir_anahtar")


def _bilinmeyen_adres(c, _ctx):
    return c.get("/api/v1/boyle-bir-adres-yok")


def _yanlis_yontem(c, _ctx):
    return c.delete(LOGIN)


def _uzun_adres(c, _ctx):
    return c.get("/api/v1/widget/init?x=" + "a" * 9000)


def _yanlis_icerik_tipi(c, _ctx):
    return c.post(LOGIN, "email=a", content_type="text/plain")


def _buyuk_govde(c, _ctx):
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=64):
        return c.post(LOGIN, {"email": "a@ornek.com", "sifre": "x" * 200}, format="json")


VAKALAR = {
    "bos_giris": (_bos_giris, 400, "GECERSIZ_ISTEK",
                  "İstek geçersiz. Lütfen alanları kontrol edin.", "The request is invalid. Please check the fields."),
    "bozuk_json": (_bozuk_json, 400, "GECERSIZ_ISTEK",
                   "İstek gövdesi geçerli bir JSON değil.", "The request body is not valid JSON."),
    "nesne_olmayan_govde": (_nesne_olmayan_govde, 400, "GECERSIZ_ISTEK",
                            "İstek geçersiz. Lütfen alanları kontrol edin.", "The request is invalid. Please check the fields."),
    "kimliksiz": (_kimliksiz, 401, "KIMLIK_GEREKLI",
                  "Bu işlem için kimlik bilgisi gerekli.", "Authentication is required for this action."),
    "bozuk_token": (_bozuk_token, 401, "GECERSIZ_TOKEN",
                    "Oturum anahtarı geçersiz ya da süresi dolmuş. Lütfen yeniden giriş yapın.",
                    "Your session token is invalid or has expired. Please log in again."),
    "yanlis_sifre": (_yanlis_sifre, 401, "GECERSIZ_GIRIS",
                     "E-posta adresi ya da şifre hatalı.", "Incorrect email address or password."),
    "bilinmeyen_widget_anahtari": (_bilinmeyen_widget_anahtari, 401, "GECERSIZ_API_ANAHTARI",
                                   "API anahtarı geçersiz.", "Invalid API key."),
    "bilinmeyen_adres": (_bilinmeyen_adres, 404, "BULUNAMADI",
                         "Bu adreste bir API uç noktası yok.", "There is no API endpoint at this address."),
    "yanlis_yontem": (_yanlis_yontem, 405, "YONTEM_DESTEKLENMIYOR",
                      "Bu adres bu HTTP yöntemini desteklemiyor.", "This address does not support this HTTP method."),
    "uzun_adres": (_uzun_adres, 414, "GECERSIZ_ISTEK", "İstek adresi çok uzun.", "The request URL is too long."),
    "yanlis_icerik_tipi": (_yanlis_icerik_tipi, 415, "DESTEKLENMEYEN_ICERIK_TIPI",
                           "İstek gövdesinin içerik türü desteklenmiyor; JSON gönderin.",
                           "The content type of the request body is not supported; send JSON."),
    "buyuk_govde": (_buyuk_govde, 413, "DOSYA_COK_BUYUK",
                    "İstek gövdesi izin verilen boyutu aşıyor.", "The request body exceeds the allowed size."),
}


@pytest.fixture
def ctx(musteri):
    return {"musteri": musteri, "operator": operator_yap(musteri)}


@pytest.mark.parametrize(("baslik", "dil"), BASLIKLAR, ids=[str(b) for b, _ in BASLIKLAR])
@pytest.mark.parametrize("vaka", list(VAKALAR))
def test_error_message_follows_accept_language(ctx, vaka, baslik, dil):
    istek, status, kod, tr, en = VAKALAR[vaka]
    res = istek(_istemci(baslik), ctx)
    hata = _hata(res, status, kod)
    assert hata["mesaj"] == {"tr": tr, "en": en}[dil], (baslik, hata)
    assert res["Content-Language"] == dil
    assert "Accept-Language" in res["Vary"]


def test_codes_and_field_keys_are_the_same_in_every_language(ctx):
    """Only the words change: status, `kod`, the keys of `alanlar` and the rest of the body's shape."""
    for vaka, (istek, status, kod, _tr, _en) in VAKALAR.items():
        yanitlar = {b: istek(_istemci(b), ctx) for b in ("en", "tr", None)}
        sekiller = {b: (r.status_code, r.json()["hata"]["kod"], sorted(r.json()["hata"].get("alanlar", {})),
                        sorted(r.json()["hata"])) for b, r in yanitlar.items()}
        assert len(set(map(repr, sekiller.values()))) == 1, (vaka, sekiller)
        assert sekiller["en"][:2] == (status, kod), vaka


def test_drf_and_our_field_messages_are_both_english_under_en():
    """One 400 whose `alanlar` holds a message of DRF's (the e-mail field's) and one of ours (a
    strict text field's): both English under `en`, both Turkish otherwise; the keys stay."""
    govde = {"email": "e-posta-degil", "sifre": 12345}
    en = _hata(_istemci("en").post(LOGIN, govde, format="json"), 400, "GECERSIZ_ISTEK")
    tr = _hata(_istemci(None).post(LOGIN, govde, format="json"), 400, "GECERSIZ_ISTEK")
    assert en["alanlar"] == {"email": "Enter a valid email address.", "sifre": "Must be text."}, en
    assert tr["alanlar"]["sifre"] == "Metin olmalı.", tr
    assert tr["alanlar"]["email"] != en["alanlar"]["email"], tr  # DRF's own Turkish
    assert sorted(en["alanlar"]) == sorted(tr["alanlar"]) == ["email", "sifre"]
    bos = _hata(_istemci("en-US").post(LOGIN, {}, format="json"), 400, "GECERSIZ_ISTEK")
    assert bos["alanlar"] == {"email": "This field is required.", "sifre": "This field is required."}, bos


# --- the authenticated user's own language --------------------------------------------------
@pytest.fixture
def sahip(musteri):
    return operator_yap(musteri, rol="sahip")


def _bearer(user, baslik=None) -> APIClient:
    token = giris_yap(APIClient(), user)
    client = _istemci(baslik)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}", **({"HTTP_ACCEPT_LANGUAGE": baslik} if baslik else {}))
    return client


KOTU_AYARLAR = {"bekleme_zaman_asimi_dk": 0, "atama_modu": "rastgele", "tatiller": ["2026-02-30"], "bilinmeyen": 1}
AYAR_MESAJLARI = {
    "tr": {"bekleme_zaman_asimi_dk": "1 ile 1440 arasında bir tam sayı olmalı.",
           "atama_modu": "Geçerli değerler: manuel, sirayla, en_az_yuklu.",
           "tatiller": "Geçersiz tarih: 2026-02-30.",
           "bilinmeyen": "Bilinmeyen alan."},
    "en": {"bekleme_zaman_asimi_dk": "Must be an integer between 1 and 1440.",
           "atama_modu": "Valid values: manuel, sirayla, en_az_yuklu.",  # enum values as they are
           "tatiller": "Invalid date: 2026-02-30.",
           "bilinmeyen": "Unknown field."},
}


@pytest.mark.parametrize(("kullanici_dili", "baslik", "dil"), [
    ("en", None, "en"),  # no header: the user's own language
    ("en", "tr", "tr"),  # the header beats the user's language
    ("tr", "en", "en"),
    ("", None, "tr"),  # not chosen, no header: the default
    ("en", "de", "en"),  # an unsupported header is no header
    ("tr", "en-US,en;q=0.9", "en"),
])
def test_authenticated_user_language_without_header(musteri, sahip, kullanici_dili, baslik, dil):
    sahip.dil = kullanici_dili
    sahip.save(update_fields=["dil"])
    client = _bearer(sahip, baslik)
    res = client.put(f"{TENANTS}/{musteri.id}/ayarlar", KOTU_AYARLAR, format="json")
    hata = _hata(res, 400, "GECERSIZ_ISTEK")
    assert hata["mesaj"] == {"tr": "İstek geçersiz. Lütfen alanları kontrol edin.",
                             "en": "The request is invalid. Please check the fields."}[dil]
    assert hata["alanlar"] == AYAR_MESAJLARI[dil], hata
    assert res["Content-Language"] == dil

    # A refusal after authentication (404 of another tenant's settings) and a success speak it too.
    baska = MusteriFactory()
    hata = _hata(client.get(f"{TENANTS}/{baska.id}/ayarlar"), 404, "BULUNAMADI")
    assert hata["mesaj"] == {"tr": "Kayıt bulunamadı.", "en": "Not found."}[dil]
    res = client.get(TENANTS)
    assert res.status_code == 200 and res["Content-Language"] == dil


def test_member_in_english_gets_english_field_messages(musteri, sahip):
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    client = _bearer(sahip)
    hata = _hata(client.post("/api/v1/operator/status", {"durum": "uykuda"}, format="json"), 400, "GECERSIZ_ISTEK")
    assert hata["alanlar"] == {"durum": '"uykuda" is not a valid choice.'}, hata  # DRF's own, in English
    hata = _hata(client.post(f"{TENANTS}/{musteri.id}/etiketler", {"ad": "x", "renk": "kirmizi"}, format="json"),
                 400, "GECERSIZ_ISTEK")
    assert hata["alanlar"] == {"renk": "Must be in #RRGGBB format (e.g. #2563EB)."}, hata


def test_the_same_user_in_turkish_is_unchanged(musteri, sahip):
    client = _bearer(sahip)
    hata = _hata(client.post("/api/v1/operator/status", {"durum": "uykuda"}, format="json"), 400, "GECERSIZ_ISTEK")
    assert hata["alanlar"] == {"durum": '"uykuda" geçerli bir seçim değil.'}, hata


# --- throttling, 500 and 503 --------------------------------------------------------------------
@pytest.mark.parametrize(("baslik", "dil"), [("en", "en"), (None, "tr")])
def test_429_follows_accept_language(musteri, settings, baslik, dil):
    settings.WIDGET_RATE_LIMIT = "1/min"
    client = widget_client(musteri, **({"HTTP_ACCEPT_LANGUAGE": baslik} if baslik else {}))
    assert client.post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json").status_code == 200
    res = client.post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json")
    hata = _hata(res, 429, "LIMIT_ASILDI")
    assert hata["mesaj"] == {"tr": "Çok fazla istek gönderildi. Lütfen biraz sonra tekrar deneyin.",
                             "en": "Too many requests. Please try again shortly."}[dil]
    assert res["Retry-After"] and res["Content-Language"] == dil


@pytest.mark.parametrize(("kullanici_dili", "baslik", "dil"), [("", "en", "en"), ("en", None, "en"), ("en", "tr", "tr")])
def test_500_follows_the_request_language(musteri, monkeypatch, kullanici_dili, baslik, dil):
    from tenants.api import views

    def patla(self, request):
        raise RuntimeError("iç ayrıntı")

    monkeypatch.setattr(views.TenantListView, "get", patla)
    user = operator_yap(musteri)
    user.dil = kullanici_dili
    user.save(update_fields=["dil"])
    client = _istemci(baslik, raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(APIClient(), user)}",
                       **({"HTTP_ACCEPT_LANGUAGE": baslik} if baslik else {}))
    hata = _hata(client.get(TENANTS), 500, "SUNUCU_HATASI")
    beklenen = {"tr": "Beklenmeyen bir hata oluştu.", "en": "An unexpected error occurred."}[dil]
    assert hata["mesaj"].startswith(beklenen), hata
    assert "iç ayrıntı" not in hata["mesaj"]


@pytest.mark.parametrize(("baslik", "dil"), [("en", "en"), ("de", "tr")])
def test_503_follows_accept_language_and_keeps_its_states(baslik, dil):
    with override_settings(MIGRATION_MODULES={"core": "supportdesk.tests.goc_eksik"}):
        res = _istemci(baslik).get("/api/v1/saglik/hazir")
    hata = _hata(res, 503, "SERVIS_KULLANILAMIYOR")
    assert hata["mesaj"] == {"tr": "Servis şu anda kullanılamıyor.", "en": "The service is currently unavailable."}[dil]
    alanlar = hata["alanlar"]  # states, not words (background work is reported beside them)
    assert {a: alanlar[a] for a in ("veritabani", "gocler", "onbellek")} == {
        "veritabani": "ok", "gocler": "eksik", "onbellek": "ok"}
    assert alanlar["kuyruk"] in ("ok", "erisilemiyor", "yerel") and alanlar["isci"] in ("ok", "gorulmedi", "bilinmiyor", "yerel")


def test_login_success_is_not_affected(ctx):
    res = _istemci("en").post(LOGIN, {"email": ctx["operator"].email, "sifre": TEST_SIFRE}, format="json")
    assert res.status_code == 200 and res.json()["basarili"] is True
    assert res["Content-Language"] == "en"


@pytest.mark.parametrize(("baslik", "dil"), [("en;q=0", "tr"), ("en;q=0, tr;q=0.5", "tr"), ("tr;q=0, en;q=0.1", "en")])
def test_q_zero_means_not_this_language(baslik, dil):
    res = _istemci(baslik).get(TENANTS)
    assert res["Content-Language"] == dil
    assert _hata(res, 401, "KIMLIK_GEREKLI")["mesaj"] == {"tr": "Bu işlem için kimlik bilgisi gerekli.",
                                                          "en": "Authentication is required for this action."}[dil]
