"""CONTRACT 2a, last point: signed identity is unambiguous and not replayable with another body."""
import time

import pytest

from context.imza import imza_hesapla
from context.models import Ziyaretci
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
