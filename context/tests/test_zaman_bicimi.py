"""CONTRACT preamble: times are ISO 8601 with a UTC offset (`+00:00`, never DRF's `Z`)."""
import re

import pytest

from supportdesk.testing.fixtures import operator_yap

from .test_operator_context import kayitlar, oturum, url
from .yardimci import CUSTOMER_INFO, PAGE_INFO, imzali, ok

pytestmark = pytest.mark.django_db

ZAMAN = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$")
ZAMAN_ALANLARI = {"zaman", "guncellenme", "dogrulama_zamani", "olusturulma", "baslangic", "bitis"}


def zamanlar(veri) -> list[str]:
    """Every non-null time value anywhere in an answer."""
    if isinstance(veri, dict):
        out = [v for k, v in veri.items() if k in ZAMAN_ALANLARI and v is not None]
        return out + [z for v in veri.values() for z in zamanlar(v)]
    if isinstance(veri, list):
        return [z for v in veri for z in zamanlar(v)]
    return []


@pytest.mark.parametrize("zaman_dilimi", ["UTC", "Europe/Istanbul"])
def test_context_times_carry_a_utc_offset(settings, widget, musteri, zaman_dilimi):
    settings.TIME_ZONE = zaman_dilimi
    yanitlar = [ok(widget.post(CUSTOMER_INFO, imzali(musteri, ad="Ayşe"), format="json")),
                ok(widget.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://s.example/"}, format="json"), 201)]
    kayitlar(musteri)
    yanitlar.append(ok(oturum(operator_yap(musteri)).get(url("z-1"))))
    bulunan = zamanlar(yanitlar)
    assert len(bulunan) >= 6, bulunan
    assert [z for z in bulunan if not ZAMAN.match(z)] == []
