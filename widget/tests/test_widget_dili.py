"""`data.dil` of `POST /widget/init` (CONTRACT 19 and 15's `dil`): the tenant's language, or with
`otomatik` the visitor browser's first supported one (`Accept-Language`, by its q order), else `tr`."""
import pytest

from supportdesk.testing.fixtures import widget_client

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"

BASLIKLAR = {
    "yok": None,
    "en": "en",
    "en-US": "en-US,en;q=0.9",
    "tr-TR": "tr-TR,tr;q=0.9,en;q=0.8",
    "q sirasi": "de-DE;q=0.9,en-GB;q=0.8,tr;q=0.7",
    "desteklenmeyen": "de-DE,fr;q=0.8",
    "joker": "*",
}
BEKLENEN = {  # header -> (tr, en, otomatik)
    "yok": ("tr", "en", "tr"),
    "en": ("tr", "en", "en"),
    "en-US": ("tr", "en", "en"),
    "tr-TR": ("tr", "en", "tr"),
    "q sirasi": ("tr", "en", "en"),
    "desteklenmeyen": ("tr", "en", "tr"),
    "joker": ("tr", "en", "tr"),
}


def _init(musteri, baslik):
    ekstra = {"HTTP_ACCEPT_LANGUAGE": baslik} if baslik else {}
    res = widget_client(musteri).post(INIT, {"ziyaretci_id": "z-dil"}, format="json", **ekstra)
    assert res.status_code == 200, res.content
    return res.json()["data"]


@pytest.mark.parametrize("baslik", BASLIKLAR, ids=str)
@pytest.mark.parametrize("secim", ["tr", "en", "otomatik"])
def test_init_names_the_widgets_language(musteri, secim, baslik):
    musteri.dil = secim
    musteri.save()
    beklenen = BEKLENEN[baslik][("tr", "en", "otomatik").index(secim)]
    assert _init(musteri, BASLIKLAR[baslik])["dil"] == beklenen


def test_a_new_tenant_speaks_turkish(musteri):
    assert musteri.dil == "tr"
    assert _init(musteri, "en-US,en;q=0.9")["dil"] == "tr"


def test_a_changed_setting_shows_at_the_next_init(musteri):
    """The tenant's row is cached for the widget's calls: a change through the settings API is
    seen by the very next init."""
    from rest_framework.test import APIClient

    from supportdesk.testing.fixtures import giris_yap, operator_yap

    sahip = operator_yap(musteri, rol="sahip")
    op = APIClient()
    op.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(op, sahip)}")
    assert _init(musteri, "en")["dil"] == "tr"
    res = op.put(f"/api/v1/operator/tenants/{musteri.id}/ayarlar", {"dil": "otomatik"}, format="json")
    assert res.status_code == 200, res.content
    assert _init(musteri, "en")["dil"] == "en"
    assert _init(musteri, "tr")["dil"] == "tr"
    res = op.put(f"/api/v1/operator/tenants/{musteri.id}/ayarlar", {"dil": "en"}, format="json")
    assert res.status_code == 200, res.content
    assert _init(musteri, "tr")["dil"] == "en"
