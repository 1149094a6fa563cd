"""Issue 41: a chat's new messages are appended to its search row (not the whole chat read again),
the messages of one interval handed off together (`arama.biriktir`). Through HTTP: the widget and
the operator write, the operator searches. On whichever database the suite runs (PostgreSQL by
default; `test_sqlite.py` runs this module on SQLite too)."""
import re
import threading
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from arama import biriktir, services
from arama.models import AramaKaydi
from chat.models import Mesaj
from supportdesk.celery import app as celery_app
from supportdesk.core import kosucu
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client

ARA = "/api/v1/operator/ara"
ALANLAR = ("ust_metin", "govde_metin", "katli_ust", "katli_govde", "zaman", "son_mesaj_id", "baslik")


@pytest.fixture(autouse=True)
def _broker_yok():
    """No broker, as `make run`: a task runs on this process's runner (ARAMA_YEREL_ISCI) or, in
    tests, inside the caller after the commit."""
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = onceki


def _ok(res, status=200):
    assert res.status_code == status, res.content
    return res.json()["data"]


def _operator(musteri):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, operator_yap(musteri))}")
    return client


def _bulunan(client, q):
    return [(s["tur"], s["id"]) for s in _ok(client.get(ARA, {"q": q}))["sonuclar"]]


def _baslat(widget, ziyaretci_id, mesaj):
    return _ok(widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": ziyaretci_id, "mesaj": mesaj},
                           format="json"), 201)["oturum"]["id"]


def _yaz(widget, ziyaretci_id, oturum_id, icerik):
    _ok(widget.post("/api/v1/widget/chat/message", {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id,
                                                    "icerik": icerik}, format="json"), 201)


def _satir(oturum_id) -> dict:
    satir = AramaKaydi.objects.filter(oturum_id=oturum_id).values(*ALANLAR).get()
    if connection.vendor == "postgresql":  # the vector's words and weights (positions may differ)
        with connection.cursor() as c:
            c.execute("SELECT array(SELECT unnest(tsvector_to_array(strip(vektor))) ORDER BY 1), "
                      "array(SELECT unnest(tsvector_to_array(strip(ts_filter(vektor, '{a}')))) ORDER BY 1) "
                      "FROM arama_aramakaydi WHERE oturum_id = %s", [oturum_id])
            satir["vektor"] = c.fetchone()
    return satir


def _yeniden_kurulan(oturum_id) -> dict:
    services.chat_kaydi_yenile(oturum_id=oturum_id)
    return _satir(oturum_id)


@pytest.mark.django_db
def test_appended_row_is_the_row_a_rebuild_writes(django_capture_on_commit_callbacks):
    musteri = MusteriFactory()
    operator = _operator(musteri)
    widget = widget_client(musteri)
    with django_capture_on_commit_callbacks(execute=True):
        oturum_id = _baslat(widget, "z-ekle", "Merhaba, siparişim gelmedi")
    for icerik in ("👍 !!!", "Kargo numaram ABC-123", "İADE istiyorum"):  # one without any word
        with django_capture_on_commit_callbacks(execute=True):
            _yaz(widget, "z-ekle", oturum_id, icerik)
    with django_capture_on_commit_callbacks(execute=True):
        _ok(operator.post(f"/api/v1/operator/chat/{oturum_id}/message", {"icerik": "Hemen bakıyorum"},
                          format="json"), 201)
    with django_capture_on_commit_callbacks(execute=True):
        _yaz(widget, "z-ekle", oturum_id, "Teşekkürler")
    eklenen = _satir(oturum_id)
    assert eklenen["son_mesaj_id"] == Mesaj.objects.filter(oturum_id=oturum_id).order_by("-id").first().pk
    assert eklenen == _yeniden_kurulan(oturum_id)
    for q in ("siparis", "kargo", "abc", "iade", "bakiyorum", "tesekkur"):
        assert _bulunan(operator, q) == [("chat", oturum_id)], q


def _kalip(sorgular) -> list[str]:
    # A statement's shape: its SQL without the literal values and ids.
    return [re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'…'", q["sql"])) for q in sorgular]


@pytest.mark.django_db
def test_a_message_costs_the_same_work_in_a_chat_of_1000_messages_as_in_a_chat_of_2(
        django_capture_on_commit_callbacks):
    musteri = MusteriFactory()
    widget = widget_client(musteri)
    with django_capture_on_commit_callbacks(execute=True):
        kisa = _baslat(widget, "z-kisa", "Merhaba")
        uzun = _baslat(widget, "z-uzun", "Merhaba")
    # One chat grown to 999 messages, then its row rebuilt once (as `manage.py arama_dizini` would).
    Mesaj.objects.bulk_create(Mesaj(musteri=musteri, oturum_id=uzun, gonderen=Mesaj.Gonderen.ZIYARETCI,
                                    icerik=f"eski mesaj {i}")
                              for i in range(999 - Mesaj.objects.filter(oturum_id=uzun).count()))
    services.chat_kaydi_yenile(oturum_id=uzun)
    assert Mesaj.objects.filter(oturum_id=uzun).count() == 999

    def ekle(oturum_id, ziyaretci_id, icerik):
        _yaz(widget, ziyaretci_id, oturum_id, icerik)  # the request; its append is only noted
        with CaptureQueriesContext(connection) as sorgular:
            services.chat_mesajlari_ekle(oturum_id=oturum_id)
        return sorgular.captured_queries

    kisa_sorgular = ekle(kisa, "z-kisa", "yeni kelime zeytin")
    uzun_sorgular = ekle(uzun, "z-uzun", "yeni kelime zeytin")  # the chat's 1,000th message
    assert len(uzun_sorgular) == len(kisa_sorgular) == 3  # the row's lock, the new messages, one UPDATE
    assert _kalip(uzun_sorgular) == _kalip(kisa_sorgular)
    assert Mesaj.objects.filter(oturum_id=uzun).count() == 1000
    # What the second statement brought back is the one new message, in either chat.
    for oturum_id in (kisa, uzun):
        satir = AramaKaydi.objects.get(oturum_id=oturum_id)
        assert satir.son_mesaj_id == Mesaj.objects.filter(oturum_id=oturum_id).latest("id").pk
        assert satir.govde_metin.endswith("\nyeni kelime zeytin")
    assert _satir(uzun) == _yeniden_kurulan(uzun)


@pytest.fixture
def biriktirme(settings):
    """The production path: messages noted, handed off once an interval to this process's runner."""
    settings.ARAMA_BIRIKTIRME_SANIYE = 0.2
    settings.ARAMA_YEREL_ISCI = True
    yield
    biriktir.bosalt()
    kosucu.durdur()


def _bekle(kosul, sure=5.0):
    bitis = time.monotonic() + sure
    while not (sonuc := kosul()):
        if time.monotonic() > bitis:
            return sonuc
        time.sleep(0.05)
    return sonuc


@pytest.mark.django_db(transaction=True)
def test_a_message_is_found_soon_after_its_commit_and_nothing_coalesced_is_lost(biriktirme):
    if connection.vendor == "sqlite":
        # The suite's SQLite database is in memory with a shared cache, whose table locks ignore the
        # busy timeout: a request and the runner's thread writing at once fail there (not on a file).
        pytest.skip("concurrent writers need PostgreSQL or an SQLite file")
    musteri = MusteriFactory()
    operator = _operator(musteri)
    widget = widget_client(musteri)
    sohbetler = {z: _baslat(widget, z, "Merhaba") for z in ("z-a", "z-b", "z-c")}
    # 3 chats × 8 messages from 3 threads at once: several messages of a chat in one interval, and
    # messages written while the runner appends.
    kelimeler = {(z, i): f"kelime{z[-1]}x{i}" for z in sohbetler for i in range(8)}
    hatalar = []

    def yazar(z):
        w = widget_client(musteri)
        try:
            for i in range(8):
                _yaz(w, z, sohbetler[z], f"Mesaj {kelimeler[(z, i)]}")
        except AssertionError as e:
            hatalar.append(e)
        finally:
            connection.close()

    t0 = time.monotonic()
    threads = [threading.Thread(target=yazar, args=(z,)) for z in sohbetler]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not hatalar
    for (z, _), kelime in kelimeler.items():
        assert _bekle(lambda k=kelime: _bulunan(operator, k)) == [("chat", sohbetler[z])], kelime
    assert time.monotonic() - t0 < 5
    for oturum_id in sohbetler.values():
        assert _satir(oturum_id) == _yeniden_kurulan(oturum_id)


@pytest.mark.django_db(transaction=True)
def test_a_chat_noted_many_times_in_an_interval_is_handed_off_once(settings):
    settings.ARAMA_BIRIKTIRME_SANIYE = 60  # no timer fires during the test: the hand-off by hand
    settings.ARAMA_YEREL_ISCI = False  # the task inside the caller (eager), to count what it got
    musteri = MusteriFactory()
    widget = widget_client(musteri)
    oturum_id = _baslat(widget, "z-tek", "Merhaba")
    biriktir.bosalt()
    for i in range(5):
        _yaz(widget, "z-tek", oturum_id, f"ardisik{i}")
    assert AramaKaydi.objects.get(oturum_id=oturum_id).katli_govde == " merhaba "  # not yet
    assert biriktir.bosalt() == 1  # one chat, one hand-off, five messages
    assert biriktir.bosalt() == 0
    kosucu.durdur()
    assert AramaKaydi.objects.get(oturum_id=oturum_id).katli_govde == " merhaba " + " ".join(
        f"ardisik{i}" for i in range(5)) + " "
