"""The visitor's message before DRF's request cycle (issue 41, `WidgetChatMesajView.hizli_yanit`):
taken for a plain message, and answering every request exactly as the ordinary path does
(status, body bytes, headers), the service's errors included; anything else the fast path does not
certainly take goes the ordinary way. Needs Redis as the cache (the request's pre-read; CI has
it); skipped otherwise, where the ordinary path is the only one."""
import json

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.test import APIClient
from rest_framework.views import APIView

from chat import services
from chat.api.views import WidgetChatMesajView
from supportdesk.testing.factories import MusteriFactory
from tenants.api.temel import WidgetAPIView
from tenants.tests.test_auth import hata

from .yardimci import W_BITIR, W_MESAJ, baslat, ok, widget_client

pytestmark = pytest.mark.django_db

ORIGIN = "https://magaza.example.com"
# Differ from one request to the next whichever path answers.
DEGISKEN_BASLIKLAR = {"x-request-id", "retry-after"}


@pytest.fixture(autouse=True)
def _redis():
    if not isinstance(caches["default"], RedisCache):
        pytest.skip("Mesajın hızlı yolu ön okuma ister: Redis önbelleği (CI kullanır).")


@pytest.fixture
def drf_dongusu(monkeypatch):
    """The views whose request went through DRF's `initial` (the ordinary path), in order."""
    gecenler: list[str] = []
    asil = APIView.initial

    def initial(self, request, *args, **kwargs):
        gecenler.append(type(self).__name__)
        return asil(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", initial)
    return gecenler


@pytest.fixture
def servis_cagrilari(monkeypatch):
    cagrilar: list[dict] = []
    asil = services.chat_ziyaretci_mesaj_gonder

    def say(**kw):
        cagrilar.append(kw)
        return asil(**kw)

    monkeypatch.setattr(services, "chat_ziyaretci_mesaj_gonder", say)
    return cagrilar


@pytest.fixture
def sohbet(musteri):
    musteri.izinli_originler = [ORIGIN]
    musteri.save(update_fields=["izinli_originler"])
    widget = widget_client(musteri, HTTP_ORIGIN=ORIGIN)
    return widget, baslat(widget, "z")


def gonder(client, govde, content_type="application/json", **extra):
    veri = govde if isinstance(govde, (str, bytes)) else json.dumps(govde)
    return client.post(W_MESAJ, veri, content_type=content_type, **extra)


def iki_yoldan(monkeypatch, drf_dongusu, istek) -> tuple:
    """`istek()` as served, then with the view's fast path gone (main's ordinary path); with
    whether the first went through DRF's cycle."""
    hizli = istek()
    hizli_drf = bool(drf_dongusu)
    with monkeypatch.context() as m:
        m.setattr(WidgetChatMesajView, "hizli_yanit", WidgetAPIView.hizli_yanit)
        olagan = istek()
    return hizli, olagan, hizli_drf


def basliklar(res) -> dict:
    return {ad: deger for ad, deger in res.items() if ad.lower() not in DEGISKEN_BASLIKLAR}


def ayni(hizli, olagan) -> None:
    assert hizli.status_code == olagan.status_code, (hizli.content, olagan.content)
    assert hizli.content == olagan.content
    assert basliklar(hizli) == basliklar(olagan)


def test_a_plain_message_takes_the_fast_path_and_answers_as_the_ordinary_one(
        sohbet, monkeypatch, drf_dongusu, servis_cagrilari):
    widget, o = sohbet
    govde = {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}
    hizli, olagan, hizli_drf = iki_yoldan(monkeypatch, drf_dongusu, lambda: gonder(widget, govde))
    assert not hizli_drf and drf_dongusu == ["WidgetChatMesajView"]  # the second only: the ordinary path
    assert len(servis_cagrilari) == 2  # once per request
    a, b = ok(hizli, 201)["mesaj"], ok(olagan, 201)["mesaj"]
    assert b["id"] == a["id"] + 1
    # The same bytes but for the second message's own id and time.
    beklenen = olagan.content.replace(f'"id":{b["id"]},'.encode(), f'"id":{a["id"]},'.encode()).replace(
        b["zaman"].encode(), a["zaman"].encode())
    assert hizli.content == beklenen
    assert basliklar(hizli) == basliklar(olagan)
    assert hizli["Content-Type"] == "application/json" and "Access-Control-Allow-Origin" in hizli
    # Both are the chat's: the operator's list and the poll see them.
    assert [m["icerik"] for m in ok(widget.get("/api/v1/widget/chat/messages",
                                               {"ziyaretci_id": "z", "oturum_id": o["id"]}))["mesajlar"]][-2:] == [
        "Merhaba", "Merhaba"]


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "application/json;charset=UTF-8"])
def test_a_json_body_in_utf8_takes_the_fast_path(sohbet, drf_dongusu, content_type):
    widget, o = sohbet
    res = gonder(widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Şükran ğ", "ek_id": None},
                 content_type=content_type)
    assert ok(res, 201)["mesaj"]["icerik"] == "Şükran ğ"
    assert drf_dongusu == []


@pytest.mark.parametrize("content_type", ["application/json; charset=latin-1", "Application/JSON",
                                          "application/json; x=1"])
def test_a_json_body_the_fast_path_does_not_certainly_read_goes_the_ordinary_way(sohbet, drf_dongusu, content_type):
    # DRF's parser takes these too (in their charset); only the ordinary path decides.
    widget, o = sohbet
    res = gonder(widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}, content_type=content_type)
    assert ok(res, 201)["mesaj"]["icerik"] == "Merhaba"
    assert drf_dongusu == ["WidgetChatMesajView"]


def _kapali(widget, o):
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z", "oturum_id": o["id"]}, format="json"))
    return widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}, {}


def _kapali_ingilizce(widget, o):
    client, govde, _ = _kapali(widget, o)
    return client, govde, {"HTTP_ACCEPT_LANGUAGE": "en"}  # the error in the request's language (CONTRACT 19)


def _baskasinin(widget, o):
    return widget, {"ziyaretci_id": "baskasi", "oturum_id": o["id"], "icerik": "Merhaba"}, {}


def _baska_musterinin(widget, o):
    baska = widget_client(MusteriFactory())
    baslat(baska, "z")  # the process holds the other tenant: its requests are pre-read too
    return baska, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}, {}


def _cok_uzun(widget, o):
    return widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "a" * 5001}, {}


def _bos(widget, o):
    return widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "   "}, {}


def _olmayan_ek(widget, o):
    return widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba", "ek_id": 10**9}, {}


@pytest.mark.parametrize("hazirla, status, kod", [
    (_kapali, 409, "DURUM_CAKISMASI"),
    (_kapali_ingilizce, 409, "DURUM_CAKISMASI"),
    (_baskasinin, 404, "BULUNAMADI"),
    (_baska_musterinin, 404, "BULUNAMADI"),
    (_cok_uzun, 400, "GECERSIZ_ISTEK"),
    (_bos, 400, "GECERSIZ_ISTEK"),
    (_olmayan_ek, 404, "BULUNAMADI"),
])
def test_the_services_errors_on_the_fast_path_are_the_ordinary_paths(
        sohbet, monkeypatch, drf_dongusu, servis_cagrilari, hazirla, status, kod):
    client, govde, extra = hazirla(*sohbet)
    drf_dongusu.clear()
    hizli, olagan, hizli_drf = iki_yoldan(monkeypatch, drf_dongusu, lambda: gonder(client, govde, **extra))
    assert not hizli_drf, "the fast path ran the service"
    assert len(servis_cagrilari) == 2  # never twice for one request
    hata(hizli, status, kod)
    ayni(hizli, olagan)


def _baglanmis(widget, o):
    """A bound visitor (CONTRACT 2a) asking without its token."""
    musteri_anahtari = widget._credentials["HTTP_X_API_KEY"]  # the tenant's key, as `sohbet` set it
    zid = "z_" + "7" * 32
    izinsiz = APIClient()
    izinsiz.credentials(HTTP_X_API_KEY=musteri_anahtari, HTTP_ORIGIN=ORIGIN)
    token = ok(izinsiz.post("/api/v1/widget/init", {"ziyaretci_id": zid, "token_iste": True}, format="json"))[
        "ziyaretci_token"]
    tokenli = APIClient()
    tokenli.credentials(HTTP_X_API_KEY=musteri_anahtari, HTTP_X_ZIYARETCI_TOKEN=token, HTTP_ORIGIN=ORIGIN)
    bagli = baslat(tokenli, zid)
    ok(gonder(tokenli, {"ziyaretci_id": zid, "oturum_id": bagli["id"], "icerik": "tokenli"}), 201)
    return izinsiz, {"ziyaretci_id": zid, "oturum_id": bagli["id"], "icerik": "Merhaba"}, {}


def _yanlis_token(widget, o):
    izinsiz, govde, _ = _baglanmis(widget, o)
    return izinsiz, govde, {"HTTP_X_ZIYARETCI_TOKEN": "yanlis"}


def _yanlis_anahtar(widget, o):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY="yanlis-anahtar", HTTP_ORIGIN=ORIGIN)
    return client, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}, {}


def _izinsiz_origin(widget, o):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=widget._credentials["HTTP_X_API_KEY"], HTTP_ORIGIN="https://kotu.example.com")
    return client, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}, {}


def _duz(widget, o, **ek):
    return widget, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba", **ek}, {}


def _ham(govde: str, **extra):
    return lambda widget, o: (widget, govde.replace("OTURUM", str(o["id"])), extra)


@pytest.mark.parametrize("hazirla, status, kod", [
    (_baglanmis, 401, "ZIYARETCI_TOKEN_GEREKLI"),
    (_yanlis_token, 401, "ZIYARETCI_TOKEN_GEREKLI"),
    (_yanlis_anahtar, 401, "GECERSIZ_API_ANAHTARI"),
    (_izinsiz_origin, 403, "ORIGIN_IZINSIZ"),
    (_ham('{"ziyaretci_id": "z", "oturum_id": OTURUM, "icerik": "Merhaba"'), 400, "GECERSIZ_ISTEK"),
    (_ham('{"ziyaretci_id": "z", "oturum_id": OTURUM, "icerik": NaN}'), 400, "GECERSIZ_ISTEK"),
    (_ham('["z", OTURUM]'), 400, "GECERSIZ_ISTEK"),
    (_ham('\ufeff{"ziyaretci_id": "z", "oturum_id": OTURUM, "icerik": "Merhaba"}'), 400, "GECERSIZ_ISTEK"),  # a BOM
    (_ham('{"ziyaretci_id": "z", "oturum_id": OTURUM, "icerik": "Merhaba"}', content_type="text/plain"),
     415, "DESTEKLENMEYEN_ICERIK_TIPI"),
    (_ham('{"ziyaretci_id": "z", "oturum_id": OTURUM, "icerik": "Merhaba"}', HTTP_CONTENT_ENCODING="gzip"),
     415, "DESTEKLENMEYEN_ICERIK_TIPI"),
    (_ham('{"ziyaretci_id": "z", "oturum_id": OTURUM, "icerik": "Merhaba"}', HTTP_ACCEPT="application/xml"),
     406, "KABUL_EDILEMEZ"),
    (lambda w, o: _duz(w, o, oturum_id=str(o["id"])), 400, "GECERSIZ_ISTEK"),
    (lambda w, o: _duz(w, o, icerik=5), 400, "GECERSIZ_ISTEK"),
    (lambda w, o: _duz(w, o, ziyaretci_id=""), 400, "GECERSIZ_ISTEK"),
    (lambda w, o: _duz(w, o, ek_id="3"), 400, "GECERSIZ_ISTEK"),
    (lambda w, o: _duz(w, o, icerik="a\x00b"), 400, "GECERSIZ_ISTEK"),
])
def test_a_request_refused_before_the_service_goes_the_ordinary_way(
        sohbet, monkeypatch, drf_dongusu, servis_cagrilari, hazirla, status, kod):
    client, govde, extra = hazirla(*sohbet)
    drf_dongusu.clear()
    servis_cagrilari.clear()
    hizli, olagan, hizli_drf = iki_yoldan(monkeypatch, drf_dongusu, lambda: gonder(client, govde, **extra))
    assert hizli_drf, "the ordinary path answered"
    assert servis_cagrilari == []
    hata(hizli, status, kod)
    ayni(hizli, olagan)


def test_a_message_over_the_limit_is_refused_as_before(musteri, sohbet, monkeypatch, drf_dongusu, settings):
    widget, o = sohbet
    settings.WIDGET_RATE_LIMIT = "2/min"
    client = widget_client(musteri, HTTP_ORIGIN=ORIGIN, REMOTE_ADDR="10.9.8.7")
    govde = {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}
    ok(gonder(client, govde), 201)
    ok(gonder(client, govde), 201)
    assert drf_dongusu == []
    hizli, olagan, hizli_drf = iki_yoldan(monkeypatch, drf_dongusu, lambda: gonder(client, govde))
    assert hizli_drf
    hata(hizli, 429, "LIMIT_ASILDI")
    assert int(hizli["Retry-After"]) >= 1 and int(olagan["Retry-After"]) >= 1
    ayni(hizli, olagan)

