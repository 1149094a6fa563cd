import json
from io import StringIO

import pytest
from django.core.management import call_command

from knowledge.models import Kampanya, KbKategori, KbMakale
from tenants.models import Musteri
from tickets.models import Ticket

from .yardimci import ziyaretci_istemcisi as widget_client

pytestmark = pytest.mark.django_db


def test_demo_help_center_is_idempotent_and_searchable():
    for _ in range(2):
        out = StringIO()
        call_command("demo_verisi", "--json", stdout=out)
    veri = json.loads(out.getvalue())
    ilk = Musteri.objects.get(pk=veri["musteriler"][0]["id"])
    assert KbMakale.objects.filter(musteri=ilk, yayinda=True).count() >= 10
    assert KbKategori.objects.filter(musteri=ilk).count() >= 2
    assert Kampanya.objects.filter(musteri=ilk).count() == 1
    assert Ticket.objects.filter(musteri=ilk).count() == 2
    widget = widget_client(ilk)
    assert widget.get("/api/v1/widget/campaigns").json()["data"]["kampanyalar"]
    bulunan = widget.get("/api/v1/widget/kb/search", {"q": "faturamı"}).json()["data"]["makaleler"]
    assert bulunan and bulunan[0]["slug"].startswith("fatura")
