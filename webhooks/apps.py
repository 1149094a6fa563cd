from django.apps import AppConfig
from django.core.signals import request_started


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from supportdesk.core import metrikler

        # dinleyiciler: every webhook event is written to the outbox in its transaction (CONTRACT 7).
        from . import dinleyiciler, selectors, tasks, yerel  # noqa: F401  (tasks: so the web process's Celery app knows them)

        request_started.connect(yerel.ilk_istek, dispatch_uid=yerel.ILK_ISTEK_UID)
        # Backlog and failures (CONTRACT 20): deliveries waiting, and those given up on.
        metrikler.gosterge_kaydet("supportdesk_webhook_deliveries", "Webhook deliveries waiting (bekliyor) "
                                  "and given up on (basarisiz).", "state", selectors.teslimat_sayilari_durumlara_gore)
