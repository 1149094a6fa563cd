"""Issue 41 with a broker and a real Celery worker (production's path): the web process notes the
chats, hands them to the broker once an interval (`arama.chat_mesajlari_ekle`, one message for
all of them), and the worker appends; through HTTP, the operator finds every message."""
import threading
import time

import pytest
from django.db import connection

from arama import biriktir
from supportdesk.celery import app as celery_app
from supportdesk.core import kosucu
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import widget_client

from .test_mesaj_ekleme import _baslat, _bekle, _bulunan, _operator, _satir, _yaz, _yeniden_kurulan

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _kuyruk(settings):
    # The autouse cache.clear() emptied the broker's bindings (as in webhooks/tests/test_toplu_worker).
    with celery_app.connection_for_write() as baglanti:
        celery_app.amqp.queues[celery_app.conf.task_default_queue].bind(baglanti.default_channel).declare()
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    settings.ARAMA_BIRIKTIRME_SANIYE = 0.2
    yield
    biriktir.bosalt()
    kosucu.durdur()
    celery_app.conf.task_always_eager = onceki


def test_the_worker_appends_what_the_web_process_handed_off_and_search_finds_it(celery_worker_sureci):
    musteri = MusteriFactory()
    operator = _operator(musteri)
    widget = widget_client(musteri)
    sohbetler = {z: _baslat(widget, z, "Merhaba") for z in ("w-a", "w-b")}
    kelimeler = {(z, i): f"isci{z[-1]}x{i}" for z in sohbetler for i in range(6)}

    def yazar(z):
        try:
            w = widget_client(musteri)
            for i in range(6):
                _yaz(w, z, sohbetler[z], f"Mesaj {kelimeler[(z, i)]}")
        finally:
            connection.close()

    t0 = time.monotonic()
    threads = [threading.Thread(target=yazar, args=(z,)) for z in sohbetler]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (z, _), kelime in kelimeler.items():
        assert _bekle(lambda k=kelime: _bulunan(operator, k), sure=10) == [("chat", sohbetler[z])], kelime
    print(f"\n12 mesaj, 2 sohbet: hepsi {time.monotonic() - t0:.2f} s içinde aranabilir")
    for oturum_id in sohbetler.values():
        assert _satir(oturum_id) == _yeniden_kurulan(oturum_id)
