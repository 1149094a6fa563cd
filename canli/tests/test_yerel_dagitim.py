"""The socket process's local fan-out (issue 32, canli.dagitim): one event reaching many sockets of
one process is encoded once there, and the same bytes reach every socket.

Counted, not timed: the server runs in this test's process (uvicorn in a thread, the same
application and WebSocket implementation as `canli_sunucu`), so its fan-out's counters can be read.
"""
import json
import socket
import threading
import time

import pytest
import uvicorn
from django.db import connection

from canli import dagitim
from supportdesk.asgi import application
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


class _SurecIciSunucu:
    def __init__(self):
        self.soket = socket.socket()
        self.soket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.soket.bind(("127.0.0.1", 0))
        self.soket.listen(128)
        port = self.soket.getsockname()[1]
        self.url, self.ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        self.sunucu = uvicorn.Server(uvicorn.Config(application, ws="websockets-sansio", lifespan="off",
                                                    log_level="warning", ws_per_message_deflate=False))
        self.is_parcacigi = threading.Thread(target=self.sunucu.run, kwargs={"sockets": [self.soket]}, daemon=True)
        self.is_parcacigi.start()
        bitis = time.monotonic() + 10
        while not self.sunucu.started:
            assert time.monotonic() < bitis, "uvicorn başlamadı"
            time.sleep(0.05)

    def kapat(self):
        self.sunucu.should_exit = True
        self.is_parcacigi.join(timeout=10)
        self.soket.close()


@pytest.fixture
def surec_ici_sunucu(settings):
    if connection.vendor != "postgresql":
        pytest.skip("Sunucu iş parçacıkları testin veritabanını paylaşabilmeli (PostgreSQL).")
    settings.CANLI_MAKS_SOKET_OPERATOR = 100
    sunucu = _SurecIciSunucu()
    yield sunucu
    sunucu.kapat()
    # The server's threads keep their database connections: ended here, or the test database
    # could not be flushed or dropped after the test.
    with connection.cursor() as imlec:
        imlec.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                      " WHERE datname = current_database() AND pid <> pg_backend_pid()")


def _sayaclar():
    return [(d.kodlanan, d.yazilan, d.siraya_konan) for d in list(dagitim._dagiticilar.values())]


def test_bir_olay_yerel_soketlere_bir_kez_kodlanir(surec_ici_sunucu):
    sunucu = surec_ici_sunucu
    musteri, diger = MusteriFactory(), MusteriFactory()
    op1, op2, op3 = operator_yap(musteri), operator_yap(musteri, diger), operator_yap(musteri)
    soketler = []
    for op in (op1, op2, op3):
        token = giris(sunucu, op)
        soketler += [operator_soketi(sunucu, token)[0] for _ in range(8)]
    # Someone online: the chat waits (with nobody reachable it would get the ticket offer's line).
    Rest(sunucu, token=token).post("operator/status", {"durum": "cevrimici"}, 200)
    ziyaretci = widget_soketi(sunucu, musteri, "z-yerel")
    widget = Rest(sunucu, api_key=musteri.api_key)
    oturum = widget.post("widget/chat/start", {"ziyaretci_id": "z-yerel"}, 201)["oturum"]
    for s in soketler:
        s.bekle("chat_yeni")
    ziyaretci.bekleyen.clear()

    (kodlanan, yazilan, siraya), = [x for x in _sayaclar() if x[1]]  # this server's loop
    widget.post("widget/chat/message", {"ziyaretci_id": "z-yerel", "oturum_id": oturum["id"], "icerik": "tek kodlama"}, 201)
    metinler = set()
    for s in soketler:  # every operator socket of the tenant gets the one `mesaj` frame, the same text
        d = s.bekle("mesaj", kosul=lambda d: d["mesaj"]["icerik"] == "tek kodlama")
        metinler.add(json.dumps(d, sort_keys=True))
    assert ziyaretci.bekle("mesaj")["mesaj"]["icerik"] == "tek kodlama"  # the visitor's own tab too
    assert len(metinler) == 1

    # Two groups had local members: the tenant's operators (24 sockets) and the visitor (1): two
    # encodings in all, one per group, not one per socket; 25 writes of ready bytes, none queued.
    # (Read from another thread: the server counts a write just after making it, so the client may
    # hold the last frame a moment before the count has it.)
    bitis = time.monotonic() + 2
    while True:
        (k2, y2, s2), = [x for x in _sayaclar() if x[1]]
        if (k2 - kodlanan, y2 - yazilan, s2 - siraya) == (2, 25, 0) or time.monotonic() > bitis:
            break
        time.sleep(0.05)
    assert (k2 - kodlanan, y2 - yazilan, s2 - siraya) == (2, 25, 0)

    # An event for two groups a socket is in (op2 is in both tenants): each socket gets it once.
    Rest(sunucu, token=giris(sunucu, op2)).post("operator/status", {"durum": "mesgul"}, 200)
    for s in soketler:
        s.bekle("operator_durumu", kosul=lambda d: d["operator_id"] == op2.pk and d["durum"] == "mesgul")
    time.sleep(0.5)  # a window for what must not happen: a second copy of the event reaching a socket
    for s in soketler:
        assert not [c for c in s.sessiz(0.05) if c["tip"] == "operator_durumu" and c["data"]["durum"] == "mesgul"]
    for s in [*soketler, ziyaretci]:
        s.kapat()
