from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self):
        # Imported here, not at the top: models must be loaded first (Django's rule for ready()).
        from django.core.signals import request_started

        from supportdesk.core import olaylar

        from . import outbox, tasks, yerel  # noqa: F401  (tasks: known to the web process's Celery app)

        # Every domain event is written to the outbox in the publishing transaction (CONTRACT 7).
        olaylar.alici_kaydet(outbox.olay_yaz)
        request_started.connect(yerel.ilk_istek, dispatch_uid=yerel.ILK_ISTEK_UID)
