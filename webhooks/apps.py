from django.apps import AppConfig

from supportdesk.core import kosucu


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from supportdesk.core import metrikler

        # dinleyiciler: every webhook event is written to the outbox in its transaction (CONTRACT 7).
        from . import dinleyiciler, kuyruk, selectors, tasks  # noqa: F401  (tasks: so the web process's Celery app knows them)

        # Without a broker, a web process's start hands the deliveries already due to its pool.
        kosucu.baslangicta(kuyruk.vadesi_gelenleri_havuza_ver)
        # Backlog and failures (CONTRACT 20): deliveries waiting, and those given up on.
        metrikler.gosterge_kaydet("supportdesk_webhook_deliveries", "Webhook deliveries waiting (bekliyor) "
                                  "and given up on (basarisiz).", "state", selectors.teslimat_sayilari_durumlara_gore)
