"""CONTRACT 2a, last points: signed identity is unambiguous, and a signature is consumed by its first use:
not replayable with another body, nor on the other endpoint."""
import time

import pytest

from context.imza import imza_hesapla
from context.models import Ziyaretci
from tenants.models import ZiyaretciKimligi
from tenants.tests.test_auth import hata

from .yardimci import CUSTOMER_INFO, durum, imzali, ok

pytestmark = pytest.mark.django_db


def gonder(client, body):
    return client.post(CUSTOMER_INFO, body, format="json")


@pytest.mark.parametrize("alan", ["ziyaretci_id", "email"])
def test_a_pipe_in_a_signed_field_is_refused(widget, musteri, alan):
    # "a|b" + "|c" and "a" + "|b|c" would sign the same message: no such value is accepted signed.
    degerler = {"ziyaretci_id": "z-1", "email": "ayse@ornek.com", alan: "x|ayse@ornek.com"}
    ts = int(time.time())
    body = {**degerler, "timestamp": ts, "signature": imza_hesapla(api_secret=musteri.api_secret, timestamp=ts, **degerler)}
    res = gonder(widget, body)
    assert hata(res, 400, "GECERSIZ_ISTEK")["hata"]["alanlar"].keys() == {alan}
    assert durum(musteri) == [[], 0, 0, 0]


def test_one_signature_is_accepted_for_one_body(widget, musteri):
    body = imzali(musteri, paket="Basic", kontor=10)
    ilk = ok(gonder(widget, body))
    # Someone who saw the signed call replays it with a better package and more credit.
    for degisen in ({"paket": "Enterprise"}, {"kontor": 10**6}, {"ad": "Saldırgan"}, {"ekstra": {"trial_kalan_gun": 99}}):
        hata(gonder(widget, {**body, **degisen}), 401, "GECERSIZ_IMZA")
    z = Ziyaretci.objects.get(musteri=musteri, ziyaretci_id="z-1")
    assert (z.paket, z.kontor, z.ad) == ("Basic", 10, "")
    # The identical body again (a retried request) answers as the first did.
    tekrar = ok(gonder(widget, body))
    assert tekrar["data"]["profil"]["paket"] == ilk["data"]["profil"]["paket"] == "Basic"
    assert tekrar["identity_dogrulandi"] is True


def test_a_signature_refused_for_another_reason_is_not_used_up(widget, musteri):
    body = imzali(musteri, kontor="çok")  # a 400: nothing stored, the signature not spent
    hata(gonder(widget, body), 400, "GECERSIZ_ISTEK")
    body["kontor"] = 5
    assert ok(gonder(widget, body))["identity_dogrulandi"] is True


# --- across endpoints (CONTRACT 2a, issue 24): a signature is consumed by its first use ----------
INIT = "/api/v1/widget/init"


def imzasi(musteri, ziyaretci_id="u-1842", ts=None) -> dict:
    ts = int(time.time()) if ts is None else ts
    return {"timestamp": ts, "email": "",
            "signature": imza_hesapla(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id, email="", timestamp=ts)}


def test_the_init_signature_cannot_mark_an_invented_profile_verified(widget, musteri):
    # The init signature reaches the browser (data-signature); sent on to customer-info with an
    # invented package, credit and extras, it must not vouch for them.
    ts = int(time.time())
    imza = imzasi(musteri, ts=ts)
    res = widget.post(INIT, {"ziyaretci_id": "u-1842", "token_iste": True, **imza}, format="json")
    assert res.status_code == 200, res.content
    sahte = {"ziyaretci_id": "u-1842", **imza, "paket": "Enterprise", "kontor": 10**6, "ekstra": {"trial_kalan_gun": 999}}
    hata(gonder(widget, sahte), 401, "GECERSIZ_IMZA")
    assert not Ziyaretci.objects.filter(ziyaretci_id="u-1842").exists()
    # The site's own call, with its own signature, is accepted.
    res = ok(gonder(widget, {"ziyaretci_id": "u-1842", **imzasi(musteri, ts=ts - 1), "paket": "Basic"}))
    assert res["identity_dogrulandi"] is True and res["data"]["profil"]["paket"] == "Basic"


def test_a_customer_info_signature_cannot_open_an_init(widget, musteri):
    body = {"ziyaretci_id": "u-1842", **imzasi(musteri), "paket": "Basic"}
    ilk = ok(gonder(widget, body))
    imza = {k: body[k] for k in ("timestamp", "email", "signature")}
    for token_iste in (True, False):
        res = widget.post(INIT, {"ziyaretci_id": "u-1842", "token_iste": token_iste, **imza}, format="json")
        hata(res, 401, "GECERSIZ_IMZA")
    assert not ZiyaretciKimligi.objects.exists()
    # The identical customer-info call again answers as the first did.
    tekrar = ok(gonder(widget, body))
    assert tekrar["identity_dogrulandi"] is True
    assert tekrar["data"]["profil"]["paket"] == ilk["data"]["profil"]["paket"] == "Basic"


def test_a_repeated_signed_init_answers_as_the_first_did(widget, musteri):
    body = {"ziyaretci_id": "u-1842", "token_iste": True, **imzasi(musteri)}
    tokenlar = [ok(widget.post(INIT, body, format="json"))["data"]["ziyaretci_token"] for _ in range(2)]
    for token in tokenlar:  # a retried request: a token again, both valid
        res = widget.get("/api/v1/widget/ticket/list", {"ziyaretci_id": "u-1842"}, HTTP_X_ZIYARETCI_TOKEN=token)
        assert res.status_code == 200, res.content


@pytest.mark.parametrize("eklenen", [{"token_iste": True}, {"ad": "Saldırgan"}, {"dil": "en"}, {"bilinmeyen": 1}])
def test_a_signed_init_signature_is_spent_on_its_own_body(widget, musteri, eklenen):
    # CONTRACT 2a, wave 4: the page's signed init (here without `token_iste`) is seen by whoever
    # reads the page; the same signature with a field added must not bind or answer a token.
    body = {"ziyaretci_id": "u-1842", **imzasi(musteri)}
    ok(widget.post(INIT, body, format="json"))
    nesil = list(ZiyaretciKimligi.objects.values_list("ziyaretci_id", "nesil", "baglanti"))
    res = widget.post(INIT, {**body, **eklenen}, format="json")
    assert "ziyaretci_token" not in hata(res, 401, "GECERSIZ_IMZA").get("data", {})
    assert list(ZiyaretciKimligi.objects.values_list("ziyaretci_id", "nesil", "baglanti")) == nesil
    # The identical body again (a reload of the same page) answers as the first did.
    ok(widget.post(INIT, body, format="json"))
    ok(widget.post(INIT, {**body, "token_iste": False}, format="json"))


def test_a_signature_first_used_with_a_field_added_binds_nothing_for_the_plain_body(widget, musteri):
    body = {"ziyaretci_id": "u-1842", **imzasi(musteri)}
    ok(widget.post(INIT, {**body, "token_iste": True, "dil": "en"}, format="json"))
    nesil = ZiyaretciKimligi.objects.get().nesil
    hata(widget.post(INIT, {**body, "token_iste": True}, format="json"), 401, "GECERSIZ_IMZA")
    assert ZiyaretciKimligi.objects.get().nesil == nesil
