"""The one way mail work leaves a request: a Celery task where a broker is configured, a thread
of the web process otherwise (`make run`: eager Celery would run it inside the request, which
would then wait on the mail server, and take longer for some inputs than for others)."""
import logging
import threading

from celery import current_app
from django import db
from django.conf import settings

logger = logging.getLogger("supportdesk.eposta")


def kuyruga_al(gorev, *args) -> None:
    """Run the Celery task `gorev` with JSON `args` outside this request. Call it on commit."""
    if current_app.conf.task_always_eager and settings.EPOSTA_YEREL_ISCI:
        threading.Thread(target=_yerel, args=(gorev, args), daemon=True, name="eposta-yerel").start()
        return
    try:
        gorev.delay(*args)
    except Exception:
        # Broker down. A stored mail is sent by the sweep (CONTRACT 14: no mail lost); a request
        # that stores nothing yet (a password reset) is lost, and its user asks again.
        logger.warning("%s kuyruğa alınamadı.", gorev.name, exc_info=True)


def _yerel(gorev, args) -> None:
    try:
        gorev(*args)
    except Exception:
        logger.exception("%s yerel iş parçacığında başarısız oldu.", gorev.name)
    finally:
        db.connection.close()
