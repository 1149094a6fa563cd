"""CONTRACT 18 wave 4 on PostgreSQL with real concurrency: an erasure racing the search indexer of
the visitor's own last write answers 200 and erases everything, never 5xx; the indexer that loses
retries rather than failing."""
import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from arama import tasks as arama_tasks
from arama.models import AramaKaydi
from chat.models import Mesaj, Oturum
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client

pytestmark = [pytest.mark.django_db(transaction=True)]

TUR = 20


def _yaris(*isler):
    engel = threading.Barrier(len(isler))
    sonuclar = [None] * len(isler)

    def calistir(i, is_):
        try:
            engel.wait()
            sonuclar[i] = is_()
        except Exception as hata:  # noqa: BLE001  (reported below, with the tour it happened in)
            sonuclar[i] = hata
        finally:
            connections.close_all()

    ipler = [threading.Thread(target=calistir, args=(i, is_)) for i, is_ in enumerate(isler)]
    for ip in ipler:
        ip.start()
    for ip in ipler:
        ip.join(30)
    return sonuclar


def _silme_ve_dizin(sahip, musteri, ziyaretci_id, oturum_id):
    """The erasure, while the visitor's chat is being indexed again and again for as long as it runs."""
    bitti = threading.Event()

    def silme():
        try:
            return sahip.delete(f"/api/v1/operator/ziyaretci/{ziyaretci_id}?musteri_id={musteri.id}")
        finally:
            bitti.set()

    def dizinleme():
        while not bitti.is_set():
            arama_tasks.chat_dizinle(oturum_id)

    return _yaris(silme, dizinleme)


def test_erasure_racing_the_indexer_answers_200_and_erases_everything(settings):
    settings.WIDGET_RATE_LIMIT = "100000/min"
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL'in satır kilitleri gerekir.")
    musteri = MusteriFactory()
    sahip = APIClient()
    sahip.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(sahip, operator_yap(musteri, rol='sahip'))}")
    widget = widget_client(musteri)
    hatalar = []
    for tur in range(TUR):
        ziyaretci_id = f"z-{tur}"
        oturum = widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": ziyaretci_id, "mesaj": "ilk"},
                             format="json").json()["data"]["oturum"]
        for i in range(30):
            widget.post("/api/v1/widget/chat/message", {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum["id"],
                                                        "icerik": f"mesaj {i}"}, format="json")
        arama_tasks.chat_dizinle(oturum["id"])
        sil, dizin = _silme_ve_dizin(sahip, musteri, ziyaretci_id, oturum["id"])
        if isinstance(sil, Exception) or sil.status_code != 200:
            hatalar.append((tur, "silme", sil if isinstance(sil, Exception) else sil.status_code))
        if isinstance(dizin, Exception):
            hatalar.append((tur, "dizin", repr(dizin)[:200]))
        kalan = (Oturum.objects.filter(ziyaretci_id=ziyaretci_id).count(),
                 Mesaj.objects.filter(oturum_id=oturum["id"]).count(),
                 AramaKaydi.objects.filter(ziyaretci_id=ziyaretci_id).count())
        if kalan != (0, 0, 0):
            hatalar.append((tur, "kalan", kalan))
    assert hatalar == []
