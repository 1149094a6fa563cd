"""Search catches up on what was written while the broker (Redis) was unreachable (issue 37): the
rebuild the broker did not take is noted in the database, and the beat sweep `arama-bekleyenler`
does it, so the message becomes searchable without the chat changing again. Through HTTP: the
widget writes, the operator searches; the broker is a closed port, then the real one again."""
import pytest
from django.conf import settings
from rest_framework.test import APIClient

from supportdesk.celery import app as celery_app
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client
from supportdesk.testing.sunucu import kapali_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker():
    """Real publishing (not eager) to a broker that can be made unreachable: `kapat()` points
    Celery at a closed port, `ac()` back at the suite's Redis (whose queue this test never drains:
    it only checks what reaches the broker)."""
    conf = celery_app.conf
    onceki = conf.task_always_eager, conf.broker_url

    class Broker:
        def kapat(self):
            self._ayarla(f"redis://127.0.0.1:{kapali_port()}/0")

        def ac(self):
            conf.task_always_eager = True  # what a worker then runs, here in the caller
            self._ayarla(onceki[1])

        def _ayarla(self, url):
            conf.broker_url = url
            celery_app._pool = None  # the connections of the previous URL go with it
            celery_app.__dict__.pop("producer_pool", None)
            celery_app.amqp._producer_pool = None

    conf.task_always_eager = False
    b = Broker()
    yield b
    conf.task_always_eager = onceki[0]
    b._ayarla(onceki[1])


def _bulunan(client, q):
    res = client.get("/api/v1/operator/ara", {"q": q})
    assert res.status_code == 200, res.content
    return [(s["tur"], s["id"]) for s in res.json()["data"]["sonuclar"]]


def _sweep():
    """What beat runs every minute (settings.CELERY_BEAT_SCHEDULE["arama-bekleyenler"])."""
    return celery_app.tasks[settings.CELERY_BEAT_SCHEDULE["arama-bekleyenler"]["task"]].apply()


def test_broker_yokken_yazilan_mesaj_ve_ticket_supurgeyle_aranir_olur(broker, django_capture_on_commit_callbacks):
    musteri = MusteriFactory()
    operator = operator_yap(musteri)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, operator)}")
    widget = widget_client(musteri)

    broker.kapat()
    with django_capture_on_commit_callbacks(execute=True):
        res = widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-kesinti", "mesaj": "Kargom nerede kaldı"},
                          format="json")
        assert res.status_code == 201, res.content
        oturum_id = res.json()["data"]["oturum"]["id"]
        res = widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z-kesinti", "konu": "Fatura itirazı",
                                                           "mesaj": "Tutar yanlış"}, format="json")
        assert res.status_code == 201, res.content
        ticket_id = res.json()["data"]["ticket"]["id"]
    assert _bulunan(client, "kargo") == [] and _bulunan(client, "itiraz") == []  # the tasks never left

    broker.ac()
    _sweep()
    assert _bulunan(client, "kargo") == [("chat", oturum_id)]
    assert _bulunan(client, "itiraz") == [("ticket", ticket_id)]
    assert sorted(_bulunan(client, "z-kesinti")) == sorted([("ticket", ticket_id), ("chat", oturum_id)])
    _sweep()  # the notes are done: a second run changes nothing
    assert _bulunan(client, "kargo") == [("chat", oturum_id)]


def test_broker_calisirken_not_dusulmez_ve_supurge_bos_gecer(broker, django_capture_on_commit_callbacks):
    from arama.models import AramaBekleyen

    musteri = MusteriFactory()
    broker.ac()  # eager, the usual path: the task runs; nothing is noted
    with django_capture_on_commit_callbacks(execute=True):
        res = widget_client(musteri).post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-1", "mesaj": "Merhaba"},
                                          format="json")
        assert res.status_code == 201, res.content
    assert not AramaBekleyen.objects.exists()
    _sweep()
