"""Every self-service page acts on the active project only (CONTRACT 8, 13): a user owning two
projects writes into the one chosen in the header, never into the other."""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import HazirYanit
from knowledge.models import Kampanya, KbKategori, KbMakale
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Davet

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db


def test_writes_go_to_the_active_project(musteri, diger_musteri):
    t = giris_yapmis(operator_yap(musteri, diger_musteri, rol="sahip"))
    assert t.post(f"/portal/projeler/sec/{diger_musteri.id}").status_code == 302
    yerel = timezone.localtime(timezone.now())
    istekler = [
        ("/portal/bilgi-bankasi", {"ad": "Kargo"}),
        ("/portal/bilgi-bankasi/makale/yeni", {"baslik": "Kargo ücreti", "icerik_markdown": "x", "yayinda": "on"}),
        ("/portal/hazir-yanitlar", {"kisayol": "/k", "baslik": "K", "icerik": "k"}),
        ("/portal/kampanyalar", {"baslik": "K", "baslangic": yerel.strftime("%Y-%m-%dT%H:%M"),
                                 "bitis": (yerel + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")}),
    ]
    for url, veri in istekler:
        assert t.post(url, veri).status_code == 302, url
    assert t.post("/portal/ekip", {"email": "yeni@ornek.com", "rol": "operator"}).status_code == 200
    for model in (KbKategori, KbMakale, HazirYanit, Kampanya, Davet):
        assert list(model.objects.values_list("musteri_id", flat=True)) == [diger_musteri.id], model
    # Switching back shows none of it.
    t.post(f"/portal/projeler/sec/{musteri.id}")
    for url in ("/portal/bilgi-bankasi", "/portal/hazir-yanitlar", "/portal/kampanyalar", "/portal/ekip"):
        html = t.get(url).content.decode()
        assert "Kargo" not in html and "/k</code>" not in html and "yeni@ornek.com" not in html, url
