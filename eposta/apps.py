from django.apps import AppConfig


class EpostaConfig(AppConfig):
    name = "eposta"
    verbose_name = "E-posta"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from supportdesk.core import bildirimler, olaylar

        from . import alicilar, tasks  # noqa: F401  (tasks: so the web process's Celery app knows them)

        # Mails are written after the change commits: a rolled-back ticket sends nothing.
        olaylar.commit_sonrasi_kaydet(alicilar.olay_geldi)
        bildirimler.bildirim_kaydet("ticket_operator_yaniti", alicilar.ticket_operator_yaniti)
        bildirimler.bildirim_kaydet("chat_operator_mesaji", alicilar.chat_operator_mesaji)
