"""The hot paths with rules (CONTRACT 23, issue 42's budget): a tenant with 50 active rules adds at
most one query to a visitor's message and to a chat's start, against the same tenant with none.
The rules are this process's compiled copy under the tenant's generation (no query); the runs of
one event whose conditions did not hold are one INSERT of one row in the event's transaction
(KURAL_BIRIKTIRME_SANIYE=0), or none at all when they are written after the commit with other
events' (`otomasyon.biriktir`, production's default); the conditions here read only the event's
own text and what the action holds."""
import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from otomasyon import biriktir, selectors
from otomasyon.models import Kural
from otomasyon.services import kural_olustur

from .yardimci import START, W_MESAJ, ok, widget_client

pytestmark = pytest.mark.django_db(transaction=True)


def _kurallar(musteri, olay: str, adet: int) -> None:
    for i in range(adet):
        kural_olustur(musteri_id=musteri.id, aktor_id=None, veri={
            "ad": f"K{i}", "olay": olay, "eylemler": [{"tur": "kapat"}],
            "kosullar": [{"alan": "metin", "islem": "icerir", "deger": f"yok-{i}"},
                         {"alan": "kanal", "islem": "esit", "deger": "widget"}]})
    assert Kural.objects.filter(musteri=musteri, aktif=True).count() == adet


def _calisma_sayisi() -> int:
    """Every rule's runs as its `calismalar` lists them (one row per event holds 50 rules' runs)."""
    return sum(len(selectors.calisma_list(kural=k)) for k in Kural.objects.all())


def _say(fonksiyon) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fonksiyon()
    return len(ctx.captured_queries)


def _mesaj_sayisi(musteri) -> int:
    widget = widget_client(musteri)
    o = ok(widget.post(START, {"ziyaretci_id": "z", "mesaj": "ilk"}, format="json"), 201)["oturum"]
    # The first message warms the caches (the tenant's key, its rules); the second is measured.
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ısınma"}, format="json"), 201)
    return _say(lambda: ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"],
                                                 "icerik": "Kargom nerede?"}, format="json"), 201))


def _baslat_sayisi(musteri) -> int:
    widget = widget_client(musteri)
    ok(widget.post(START, {"ziyaretci_id": "isinma", "mesaj": "x"}, format="json"), 201)
    return _say(lambda: ok(widget.post(START, {"ziyaretci_id": "z", "mesaj": "Merhaba"}, format="json"), 201))


# (interval, the extra queries of the 50 rules): written in the event's transaction, one INSERT;
# noted and written after the commit (a long interval: written here by `bosalt`), none.
BIRIKTIRME = [pytest.param((0, 1), id="olayda"), pytest.param((60, 0), id="biriktirerek")]


@pytest.fixture
def biriktirme(request):
    saniye, ek = request.param
    biriktir.bosalt()
    with override_settings(KURAL_BIRIKTIRME_SANIYE=saniye):
        # Batching is PostgreSQL's (`biriktir.biriktiriliyor`): elsewhere (SQLite, the embedded
        # default) the runs are written at the event, one INSERT, whatever the interval.
        yield ek if connection.vendor == "postgresql" else 1
    biriktir.bosalt()


@pytest.mark.parametrize("biriktirme", BIRIKTIRME, indirect=True)
def test_fifty_rules_add_at_most_one_query_to_a_visitors_message(musteri, diger_musteri, biriktirme):
    _kurallar(diger_musteri, "ziyaretci_mesaji", 50)
    sifir, elli = _mesaj_sayisi(musteri), _mesaj_sayisi(diger_musteri)
    assert elli - sifir == biriktirme, (sifir, elli)
    biriktir.bosalt()
    assert _calisma_sayisi() == 100  # both messages, 50 runs each


@pytest.mark.parametrize("biriktirme", BIRIKTIRME, indirect=True)
def test_fifty_rules_add_at_most_one_query_to_a_chats_start(musteri, diger_musteri, biriktirme):
    _kurallar(diger_musteri, "chat_baslatildi", 50)
    sifir, elli = _baslat_sayisi(musteri), _baslat_sayisi(diger_musteri)
    assert elli - sifir == biriktirme, (sifir, elli)
    biriktir.bosalt()
    assert _calisma_sayisi() == 100
