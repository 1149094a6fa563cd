"""Racing writers of one visitor, on a real PostgreSQL (row locks are what is tested)."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from context.models import SAKLANAN_KAYIT, SayfaGoruntuleme, Ziyaretci
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import widget_client

from .yardimci import CUSTOMER_INFO, PAGE_INFO

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def _paralel(n, is_):
    def calis(i):
        try:
            return is_(i)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(calis, range(n)))


def test_racing_calls_for_a_new_visitor_make_one_visitor_and_keep_50(settings):
    settings.WIDGET_RATE_LIMIT = "10000/min"
    musteri = MusteriFactory()

    def sayfa(i):
        return widget_client(musteri).post(PAGE_INFO, {"ziyaretci_id": "yarisan", "url": f"https://s.example/{i}"},
                                           format="json").status_code

    def profil(i):
        return widget_client(musteri).post(CUSTOMER_INFO, {"ziyaretci_id": "yarisan", "kontor": i}, format="json").status_code

    kodlar = _paralel(SAKLANAN_KAYIT + 20, lambda i: sayfa(i) if i % 4 else profil(i))
    assert set(kodlar) <= {200, 201}, kodlar
    assert Ziyaretci.objects.filter(ziyaretci_id="yarisan").count() == 1
    assert SayfaGoruntuleme.objects.count() == SAKLANAN_KAYIT
