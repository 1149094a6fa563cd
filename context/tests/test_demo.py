import pytest

from context import demo
from context.models import EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .test_operator_context import oturum, url
from .yardimci import ok

pytestmark = pytest.mark.django_db


def test_demo_is_idempotent_and_shows_a_banner():
    musteriler = [MusteriFactory(), MusteriFactory(), MusteriFactory()]
    user = operator_yap(*musteriler[:2])
    for _ in range(2):
        demo.yukle(musteriler=musteriler, operatorler=[user])
    assert Ziyaretci.objects.count() == 3
    assert (SayfaGoruntuleme.objects.count(), HataKaydi.objects.count(), EkranGoruntusu.objects.count()) == (9, 3, 3)
    data = ok(oturum(user).get(url("demo-ziyaretci-1")))["data"]
    assert data["identity_dogrulandi"] is True
    assert [b["tip"] for b in data["banner"]] == ["paket", "kontor", "trial", "depolama"]
    assert data["banner"][-1]["deger"] == "45.5 / 50 GB (%91)"
    assert data["ekran_goruntuleri"][0]["mime_tipi"] == "image/png"
