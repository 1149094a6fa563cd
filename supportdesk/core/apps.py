from django.apps import AppConfig
from django.core.signals import request_started


class CoreConfig(AppConfig):
    name = "supportdesk.core"
    label = "core"

    def ready(self):
        from . import katlama

        katlama.kaydet()
        # The deployment checks; the metrics' database and Celery hooks, in every process (web,
        # sockets, Celery workers), not only where the middleware runs.
        from . import checks, kosucu, metrikler  # noqa: F401

        # Without a broker the web process's first request starts the runner's timetable.
        request_started.connect(kosucu.baslat, dispatch_uid=kosucu.BASLAT_UID)
