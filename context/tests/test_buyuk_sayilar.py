"""Issue 13: integers beyond float range in `kontor` and the banner numbers are a 400, not a 500."""
import json

import pytest

from tenants.tests.test_auth import hata

from .yardimci import CUSTOMER_INFO, durum

pytestmark = pytest.mark.django_db
DEV = 10**400  # a JSON integer no float can hold


def gonder(client, govde: dict):
    # Written by hand: the JSON integer must reach the server as digits, as an attacker sends it.
    return client.generic("POST", CUSTOMER_INFO, json.dumps(govde), content_type="application/json")


@pytest.mark.parametrize("govde, alan", [
    ({"kontor": DEV}, "kontor"),
    ({"kontor": -DEV}, "kontor"),
    ({"ekstra": {"depolama_kullanilan_gb": DEV, "depolama_toplam_gb": 50}}, "ekstra.depolama_kullanilan_gb"),
    ({"ekstra": {"depolama_kullanilan_gb": 1, "depolama_toplam_gb": DEV}}, "ekstra.depolama_toplam_gb"),
    ({"ekstra": {"depolama_dolu_yuzde": DEV}}, "ekstra.depolama_dolu_yuzde"),
    ({"ekstra": {"trial_kalan_gun": DEV}}, "ekstra.trial_kalan_gun"),
    ({"ekstra": {"trial_kalan_gun": -DEV}}, "ekstra.trial_kalan_gun"),
])
def test_an_integer_beyond_float_range_is_a_400(widget, musteri, govde, alan):
    res = gonder(widget, {"ziyaretci_id": "z-1", **govde})
    body = hata(res, 400, "GECERSIZ_ISTEK")
    assert alan in body["hata"]["alanlar"], body
    assert durum(musteri) == [[], 0, 0, 0]
