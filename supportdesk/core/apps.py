from django.apps import AppConfig
from django.core.signals import request_started
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    name = "supportdesk.core"
    label = "core"

    def ready(self):
        from . import katlama

        katlama.kaydet()
        # The deployment checks; the metrics' database and Celery hooks, in every process (web,
        # sockets, Celery workers), not only where the middleware runs.
        from . import checks, katalog, kosucu, metrikler  # noqa: F401

        # `migrate` (every topology's release step) compiles the translation catalogs it finds
        # missing or stale, so English exists wherever the service was released (issue 37). Sent
        # once per app with models (this one has none): the first compiles, the rest find it current.
        post_migrate.connect(katalog.migrate_sonrasi, dispatch_uid="core.katalog")

        # Without a broker the web process's first request starts the runner's timetable.
        request_started.connect(kosucu.baslat, dispatch_uid=kosucu.BASLAT_UID)
