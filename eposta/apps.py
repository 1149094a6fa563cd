from django.apps import AppConfig


class EpostaConfig(AppConfig):
    name = "eposta"
    verbose_name = "E-posta"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from supportdesk.core import metrikler

        # dinleyiciler: mails are written after the change commits (a rolled-back ticket sends nothing).
        from . import dinleyiciler, selectors, tasks  # noqa: F401  (tasks: so the web process's Celery app knows them)

        # Backlog and failures (CONTRACT 20): mails waiting to be sent, and those given up on.
        metrikler.gosterge_kaydet("supportdesk_outgoing_mails", "Outgoing mails waiting (bekliyor) and given "
                                  "up on (basarisiz).", "state", selectors.giden_eposta_sayilari_durumlara_gore)
