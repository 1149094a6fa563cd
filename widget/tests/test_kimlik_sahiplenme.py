"""CONTRACT 2a, amended (issue 24, found by an outside tester): a visitor id cannot be claimed
before its visitor and kept."""
import time

import pytest
from rest_framework.test import APIClient

from context.imza import imza_hesapla
from tenants.models import Musteri, ZiyaretciKimligi
from tenants.services import musteri_olustur
from tenants.tests.test_auth import hata
from tenants.ziyaretci import ziyaretci_serbest_birak

pytestmark = pytest.mark.django_db

INIT = "/api/v1/widget/init"
TICKETS = "/api/v1/widget/ticket/list"
WIDGET_ID = "z_" + "0123456789abcdef" * 2


@pytest.fixture
def musteri():
    return musteri_olustur(firma_adi="Dükkan")


def istemci(musteri, token=None) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_X_API_KEY=musteri.api_key, **({"HTTP_X_ZIYARETCI_TOKEN": token} if token else {}))
    return c


def imza(musteri, ziyaretci_id, email="", ts=None) -> dict:
    ts = int(time.time()) if ts is None else ts
    return {"timestamp": ts, "email": email,
            "signature": imza_hesapla(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id, email=email, timestamp=ts)}


def init(c, ziyaretci_id, **govde):
    return c.post(INIT, {"ziyaretci_id": ziyaretci_id, **govde}, format="json")


def token_al(musteri, ziyaretci_id, **govde) -> str:
    res = init(istemci(musteri), ziyaretci_id, token_iste=True, **govde)
    assert res.status_code == 200, res.content
    return res.json()["data"]["ziyaretci_token"]


def biletler(c, ziyaretci_id):
    return c.get(TICKETS, {"ziyaretci_id": ziyaretci_id})


def ticket_ac(c, ziyaretci_id, konu="Faturam"):
    res = c.post("/api/v1/widget/ticket/create", {"ziyaretci_id": ziyaretci_id, "konu": konu, "mesaj": "Merhaba"},
                 format="json")
    assert res.status_code == 201, res.content


# --- 1. an unsigned init binds only an id the widget made --------------------------------------

@pytest.mark.parametrize("ziyaretci_id", [
    "u-1842", "1842", "ayse@ornek.com",
    "z_" + "a" * 31, "z_" + "a" * 33, "z_" + "A" * 32, "Z_" + "a" * 32, "z-" + "a" * 32, "z_" + "g" * 32,
    "z_" + "a" * 31 + "\u0663",
])
def test_an_unsigned_init_cannot_claim_an_id_the_widget_did_not_make(musteri, ziyaretci_id):
    hata(init(istemci(musteri), ziyaretci_id, token_iste=True), 401, "ZIYARETCI_TOKEN_GEREKLI")
    assert not ZiyaretciKimligi.objects.exists()
    # Nothing was bound: the id works as one that never asked for a token.
    assert biletler(istemci(musteri), ziyaretci_id).status_code == 200


def test_a_squatter_cannot_lock_out_the_site_s_visitor(musteri):
    # An attacker with the public widget key asks first for a user number it guessed; the real
    # user, on a site that never signs, keeps working without a token.
    hata(init(istemci(musteri), "u-1842", token_iste=True), 401, "ZIYARETCI_TOKEN_GEREKLI")
    gercek = istemci(musteri)
    ticket_ac(gercek, "u-1842")
    assert init(gercek, "u-1842").status_code == 200
    assert len(biletler(gercek, "u-1842").json()["data"]["ticketlar"]) == 1


def test_a_site_id_is_bound_by_a_signed_init_only(musteri):
    token = token_al(musteri, "u-1842", **imza(musteri, "u-1842"))
    assert ZiyaretciKimligi.objects.get(ziyaretci_id="u-1842").baglanti == ZiyaretciKimligi.IMZALI
    assert biletler(istemci(musteri, token), "u-1842").status_code == 200
    hata(biletler(istemci(musteri), "u-1842"), 401, "ZIYARETCI_TOKEN_GEREKLI")
    # The widget asking again with its token (unsigned) gets the same one back.
    res = init(istemci(musteri, token), "u-1842", token_iste=True)
    assert res.status_code == 200 and res.json()["data"]["ziyaretci_token"] == token


def test_the_widget_s_own_id_is_still_bound_by_an_unsigned_init(musteri):
    token = token_al(musteri, WIDGET_ID)
    assert ZiyaretciKimligi.objects.get(ziyaretci_id=WIDGET_ID).baglanti == ZiyaretciKimligi.IMZASIZ
    assert biletler(istemci(musteri, token), WIDGET_ID).status_code == 200
    hata(biletler(istemci(musteri), WIDGET_ID), 401, "ZIYARETCI_TOKEN_GEREKLI")


def test_a_signed_init_ends_the_tokens_of_an_unsigned_binding(musteri):
    # Whoever bound the id first without a signature may not be its visitor: once the site
    # vouches for the visitor, only tokens issued from then on open its chats.
    ts = int(time.time())
    kapan = token_al(musteri, WIDGET_ID)
    sahip = token_al(musteri, WIDGET_ID, **imza(musteri, WIDGET_ID, ts=ts))
    hata(biletler(istemci(musteri, kapan), WIDGET_ID), 401, "ZIYARETCI_TOKEN_GEREKLI")
    hata(init(istemci(musteri, kapan), WIDGET_ID, token_iste=True), 401, "ZIYARETCI_TOKEN_GEREKLI")
    assert biletler(istemci(musteri, sahip), WIDGET_ID).status_code == 200
    assert ZiyaretciKimligi.objects.get(ziyaretci_id=WIDGET_ID).baglanti == ZiyaretciKimligi.IMZALI
    # From then on a further signed init is a second device: the first device's token stays.
    ikinci = token_al(musteri, WIDGET_ID, **imza(musteri, WIDGET_ID, ts=ts - 5))
    for token in (sahip, ikinci):
        assert biletler(istemci(musteri, token), WIDGET_ID).status_code == 200


def test_a_released_visitor_works_as_one_that_never_asked_and_old_tokens_stay_dead(musteri):
    token = token_al(musteri, WIDGET_ID)
    ticket_ac(istemci(musteri, token), WIDGET_ID)
    assert ziyaretci_serbest_birak(musteri=musteri, ziyaretci_id=WIDGET_ID) is True
    assert ziyaretci_serbest_birak(musteri=musteri, ziyaretci_id=WIDGET_ID) is False
    anahtarsiz = istemci(musteri)
    assert len(biletler(anahtarsiz, WIDGET_ID).json()["data"]["ticketlar"]) == 1
    # It has data now, so an unsigned request binds nothing; the widget goes on unbound.
    hata(init(anahtarsiz, WIDGET_ID, token_iste=True), 401, "ZIYARETCI_TOKEN_GEREKLI")
    assert init(anahtarsiz, WIDGET_ID).status_code == 200
    # Bound again by the site: the token from before the release does not come back to life.
    yeni = token_al(musteri, WIDGET_ID, **imza(musteri, WIDGET_ID))
    assert biletler(istemci(musteri, yeni), WIDGET_ID).status_code == 200
    hata(biletler(istemci(musteri, token), WIDGET_ID), 401, "ZIYARETCI_TOKEN_GEREKLI")


def test_a_tenant_that_requires_identity_still_refuses_unsigned_widget_ids(musteri):
    Musteri.objects.filter(pk=musteri.pk).update(kimlik_dogrulama_zorunlu=True)
    musteri.refresh_from_db()
    hata(init(istemci(musteri), WIDGET_ID, token_iste=True), 401, "ZIYARETCI_TOKEN_GEREKLI")
    assert not ZiyaretciKimligi.objects.exists()
