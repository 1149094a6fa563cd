"""CONTRACT 2a: visitor tokens. Knowing a visitor's id is not enough to read or write its data."""
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from chat.models import Mesaj, Oturum
from context.imza import imza_hesapla
from context.models import SayfaGoruntuleme
from tenants.models import Musteri, ZiyaretciKimligi
from tenants.services import musteri_olustur
from tenants.ziyaretci import ziyaretci_tokenlari_iptal_et
from tickets.models import Ticket

pytestmark = pytest.mark.django_db
ZID = "z_" + "18" * 16  # an id the widget made for itself (CONTRACT 2a): an unsigned init may bind it

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


@pytest.fixture
def musteri():
    return musteri_olustur(firma_adi="Dükkan")


def istemci(musteri, token=None) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_X_API_KEY=musteri.api_key, **({"HTTP_X_ZIYARETCI_TOKEN": token} if token else {}))
    return c


def imza(musteri, ziyaretci_id=ZID, email="", ts=None) -> dict:
    ts = int(time.time()) if ts is None else ts
    return {"timestamp": ts, "email": email,
            "signature": imza_hesapla(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id, email=email, timestamp=ts)}


def init(c, ziyaretci_id=ZID, **govde):
    return c.post("/api/v1/widget/init", {"ziyaretci_id": ziyaretci_id, **govde}, format="json")


def hata_kodu(res, status=401):
    assert res.status_code == status, res.content
    return res.json()["hata"]["kod"]


def token_al(musteri, ziyaretci_id=ZID, **govde) -> str:
    res = init(istemci(musteri), ziyaretci_id, token_iste=True, **govde)
    assert res.status_code == 200, res.content
    return res.json()["data"]["ziyaretci_token"]


def test_a_new_visitor_gets_a_token_and_is_bound(musteri):
    token = token_al(musteri)
    assert len(token) > 40 and ZID not in token[:10]
    assert ZiyaretciKimligi.objects.filter(musteri=musteri, ziyaretci_id=ZID).exists()
    # The owner can start a chat with its token; the attacker with only the id and the key cannot.
    sahip = istemci(musteri, token)
    res = sahip.post("/api/v1/widget/chat/start", {"ziyaretci_id": ZID, "mesaj": "Merhaba"}, format="json")
    assert res.status_code == 201, res.content
    oturum_id = res.json()["data"]["oturum"]["id"]
    mesaj_sayisi = Mesaj.objects.filter(oturum_id=oturum_id).count()  # its own, and the offer's with nobody online
    saldirgan = istemci(musteri)
    yanlis = istemci(musteri, token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    for c in (saldirgan, yanlis):
        assert hata_kodu(init(c)) == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.get("/api/v1/widget/chat/messages", {"ziyaretci_id": ZID, "oturum_id": oturum_id})) \
            == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.post("/api/v1/widget/chat/message", {"ziyaretci_id": ZID, "oturum_id": oturum_id,
                                                                  "icerik": "ele geçirildi"}, format="json")) \
            == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID})) == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.post("/api/v1/widget/ticket/create", {"ziyaretci_id": ZID, "konu": "x", "mesaj": "y"},
                                format="json")) == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.post("/api/v1/widget/upload", {"ziyaretci_id": ZID,
                                                          "dosya": SimpleUploadedFile("a.png", PNG, "image/png")},
                                format="multipart")) == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.post("/api/v1/context/page-info", {"ziyaretci_id": ZID, "url": "https://x.example/"},
                                format="json")) == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(c.post("/api/v1/context/customer-info", {"ziyaretci_id": ZID, "kontor": 1},
                                format="json")) == "ZIYARETCI_TOKEN_GEREKLI"
        # Another visitor's token is no key either; asking for a fresh token for a bound visitor is refused.
        assert hata_kodu(init(c, token_iste=True)) == "ZIYARETCI_TOKEN_GEREKLI"
    # Nothing was stored by the refused calls.
    assert Mesaj.objects.filter(oturum_id=oturum_id).count() == mesaj_sayisi
    assert not Ticket.objects.exists() and not SayfaGoruntuleme.objects.exists()
    # With the token: everything works, and init hands the same token back.
    assert sahip.get("/api/v1/widget/chat/messages", {"ziyaretci_id": ZID, "oturum_id": oturum_id}).status_code == 200
    res = sahip.post("/api/v1/widget/upload", {"ziyaretci_id": ZID, "dosya": SimpleUploadedFile("a.png", PNG, "image/png")},
                     format="multipart")
    assert res.status_code == 201, res.content
    assert init(sahip, token_iste=True).json()["data"]["ziyaretci_token"] == token
    assert sahip.post("/api/v1/context/page-info", {"ziyaretci_id": ZID, "url": "https://x.example/"},
                      format="json").status_code == 201
    # Another visitor's token does not open this one.
    baska = token_al(musteri, "z_" + "7" * 32)
    assert hata_kodu(istemci(musteri, baska).get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID})) \
        == "ZIYARETCI_TOKEN_GEREKLI"


def test_an_unsigned_request_for_a_visitor_with_data_binds_nothing(musteri):
    eski = istemci(musteri)  # a v1.6 client, never asks for a token: works as before
    assert eski.post("/api/v1/widget/chat/start", {"ziyaretci_id": ZID, "mesaj": "Selam"}, format="json").status_code == 201
    assert hata_kodu(init(istemci(musteri), token_iste=True)) == "ZIYARETCI_TOKEN_GEREKLI"
    assert not ZiyaretciKimligi.objects.exists()
    assert init(eski).status_code == 200
    assert eski.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID}).status_code == 200


def test_a_signed_init_gives_a_second_device_a_token_and_the_portal_revokes_all(musteri):
    ts = int(time.time())
    ilk = token_al(musteri, **imza(musteri, ts=ts))
    ikinci = token_al(musteri, **imza(musteri, ts=ts - 1))
    assert ikinci != ilk
    for token in (ilk, ikinci):
        assert istemci(musteri, token).get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID}).status_code == 200
    ziyaretci_tokenlari_iptal_et(musteri=musteri, ziyaretci_id=ZID)
    for token in (ilk, ikinci):
        c = istemci(musteri, token)
        assert hata_kodu(c.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID})) == "ZIYARETCI_TOKEN_GEREKLI"
        assert hata_kodu(init(c, token_iste=True)) == "ZIYARETCI_TOKEN_GEREKLI"
    # The site vouches again: a fresh token works.
    yeni = token_al(musteri, **imza(musteri, ts=ts - 100))
    assert istemci(musteri, yeni).get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID}).status_code == 200


def test_a_tenant_requiring_identity_issues_tokens_to_signed_inits_only(musteri):
    Musteri.objects.filter(pk=musteri.pk).update(kimlik_dogrulama_zorunlu=True)
    musteri.refresh_from_db()
    c = istemci(musteri)
    assert hata_kodu(init(c, "z-yeni", token_iste=True)) == "ZIYARETCI_TOKEN_GEREKLI"
    assert hata_kodu(init(c, "z-yeni")) == "ZIYARETCI_TOKEN_GEREKLI"
    assert hata_kodu(c.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-yeni"}, format="json")) == "ZIYARETCI_TOKEN_GEREKLI"
    assert hata_kodu(c.get("/api/v1/widget/kb/categories", {"ziyaretci_id": "z-yeni"})) == "ZIYARETCI_TOKEN_GEREKLI"
    assert not Oturum.objects.exists() and not ZiyaretciKimligi.objects.exists()
    token = token_al(musteri, "z-yeni", **imza(musteri, "z-yeni", "a@b.example"))
    res = istemci(musteri, token).post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-yeni"}, format="json")
    assert res.status_code == 201, res.content


def test_a_bad_signature_on_init_is_refused(musteri):
    govde = imza(musteri)
    govde["email"] = "baska@ornek.com"
    assert hata_kodu(init(istemci(musteri), token_iste=True, **govde)) == "GECERSIZ_IMZA"
    assert hata_kodu(init(istemci(musteri), token_iste="evet"), 400) == "GECERSIZ_ISTEK"
    assert not ZiyaretciKimligi.objects.exists()


def test_the_token_check_costs_no_query_once_the_cache_is_warm(musteri):
    # The hot path stays as it was: the visitor's generation comes from the cache, not a query.
    token = token_al(musteri)
    bagli, anonim = istemci(musteri, token), istemci(musteri)

    def sorgular(c, ziyaretci_id):
        c.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ziyaretci_id})  # warms the caches
        with CaptureQueriesContext(connection) as ctx:
            assert c.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ziyaretci_id}).status_code == 200
        return len(ctx.captured_queries)

    assert sorgular(bagli, ZID) == sorgular(anonim, "z-anonim") == 1
