from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "supportdesk.core"
    label = "core"

    def ready(self):
        from . import katlama

        katlama.kaydet()
        # The deployment checks; the metrics' database and Celery hooks, in every process (web,
        # sockets, Celery workers), not only where the middleware runs.
        from . import checks, metrikler  # noqa: F401
