from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone

from knowledge.models import Kampanya
from knowledge.services import kampanya_kaydet
from supportdesk.core.exceptions import GecersizIstek

from .yardimci import ziyaretci_istemcisi as widget_client

pytestmark = pytest.mark.django_db

URL = "/api/v1/widget/campaigns"
SIMDI = datetime(2026, 11, 22, 21, 30, tzinfo=UTC)  # 00:30 on the 23rd in Istanbul
ISTANBUL = dt_timezone(timedelta(hours=3))
NEW_YORK = dt_timezone(timedelta(hours=-5))


def kampanya(musteri, baslik, baslangic, bitis, **kw):
    return kampanya_kaydet(musteri=musteri, baslik=baslik, baslangic=baslangic, bitis=bitis, **kw)


def basliklar(client) -> list[str]:
    res = client.get(URL)
    assert res.status_code == 200, res.content
    body = res.json()
    assert body["basarili"] is True
    return [k["baslik"] for k in body["data"]["kampanyalar"]]


@pytest.fixture
def saat(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: SIMDI)
    return SIMDI


def test_only_active_campaigns_in_window(widget, musteri, diger_musteri, saat):
    gun = timedelta(days=1)
    k = kampanya(musteri, "Kış indirimi", saat - gun, saat + gun, icerik="%20 indirim", gorsel_url="https://cdn.ornek.com/k.png",
                 buton_metni="İncele", buton_url="https://ornek.com/kis")
    kampanya(musteri, "Geçmiş", saat - 3 * gun, saat - gun)
    kampanya(musteri, "Gelecek", saat + gun, saat + 3 * gun)
    kampanya(musteri, "Pasif", saat - gun, saat + gun, aktif=False)
    kampanya(diger_musteri, "Başka proje", saat - gun, saat + gun)
    res = widget.get(URL).json()["data"]["kampanyalar"]
    assert res == [{
        "id": k.id, "baslik": "Kış indirimi", "icerik": "%20 indirim", "gorsel_url": "https://cdn.ornek.com/k.png",
        "buton_metni": "İncele", "buton_url": "https://ornek.com/kis",
        "baslangic": (saat - gun).isoformat(), "bitis": (saat + gun).isoformat(),
    }]
    assert basliklar(widget_client(diger_musteri)) == ["Başka proje"]


def test_window_edges_are_instants(widget, musteri, saat):
    # Starts exactly now: shown. Ends exactly now: over (the window is [baslangic, bitis)).
    kampanya(musteri, "Şimdi başlıyor", saat, saat + timedelta(hours=1))
    kampanya(musteri, "Şimdi bitti", saat - timedelta(hours=1), saat)
    kampanya(musteri, "Bir saniye sonra", saat + timedelta(seconds=1), saat + timedelta(hours=1))
    assert basliklar(widget) == ["Şimdi başlıyor"]


def test_other_time_zones_compare_as_instants(widget, musteri, saat):
    # 23:59 on the 22nd in Istanbul is 20:59 UTC: already over at 21:30 UTC, although the UTC
    # date is still the 22nd.
    kampanya(musteri, "İstanbul'da gün bitti", datetime(2026, 11, 22, 0, 0, tzinfo=ISTANBUL),
             datetime(2026, 11, 22, 23, 59, tzinfo=ISTANBUL))
    # 17:00 in New York on the 22nd is 22:00 UTC: still running.
    kampanya(musteri, "New York'ta sürüyor", datetime(2026, 11, 22, 0, 0, tzinfo=NEW_YORK),
             datetime(2026, 11, 22, 17, 0, tzinfo=NEW_YORK))
    # Starts at 00:45 on the 23rd in Istanbul = 21:45 UTC: not yet.
    kampanya(musteri, "Yarın İstanbul", datetime(2026, 11, 23, 0, 45, tzinfo=ISTANBUL),
             datetime(2026, 11, 24, 0, 0, tzinfo=ISTANBUL))
    assert basliklar(widget) == ["New York'ta sürüyor"]
    veri = widget.get(URL).json()["data"]["kampanyalar"][0]
    assert veri["bitis"] == "2026-11-22T22:00:00+00:00"


def test_no_campaigns(widget):
    assert basliklar(widget) == []


def test_requires_api_key(api):
    res = api.get(URL)
    assert res.status_code == 401 and res.json()["basarili"] is False


@pytest.mark.parametrize("adet", [0, 1, 15])
def test_query_count_flat(widget, musteri, saat, django_assert_max_num_queries, adet):
    for i in range(adet):
        kampanya(musteri, f"K{i}", saat - timedelta(days=1), saat + timedelta(days=1))
    with django_assert_max_num_queries(2):
        assert len(basliklar(widget)) == adet


@pytest.mark.parametrize("kw", [
    {"bitis": SIMDI - timedelta(days=2)},
    {"bitis": SIMDI - timedelta(days=1)},
    {"baslangic": datetime(2026, 11, 1)},
    {"gorsel_url": "javascript:alert(1)"},
    {"buton_url": "ftp://ornek.com"},
    {"baslik": ""},
    {"aktif": "evet"},
])
def test_invalid_campaign_refused(musteri, kw):
    args = {"baslik": "K", "baslangic": SIMDI - timedelta(days=1), "bitis": SIMDI + timedelta(days=1), **kw}
    with pytest.raises(GecersizIstek):
        kampanya_kaydet(musteri=musteri, **args)
    assert Kampanya.objects.count() == 0
