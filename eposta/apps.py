from django.apps import AppConfig


class EpostaConfig(AppConfig):
    name = "eposta"
    verbose_name = "E-posta"

    def ready(self):
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from supportdesk.core import bildirimler, metrikler, olaylar

        from . import alicilar, selectors, tasks  # noqa: F401  (tasks: so the web process's Celery app knows them)

        # Mails are written after the change commits: a rolled-back ticket sends nothing.
        olaylar.commit_sonrasi_kaydet(alicilar.olay_geldi)
        bildirimler.bildirim_kaydet("ticket_operator_yaniti", alicilar.ticket_operator_yaniti)
        bildirimler.bildirim_kaydet("chat_operator_mesaji", alicilar.chat_operator_mesaji)
        # Backlog and failures (CONTRACT 20): mails waiting to be sent, and those given up on.
        metrikler.gosterge_kaydet("supportdesk_outgoing_mails", "Outgoing mails waiting (bekliyor) and given "
                                  "up on (basarisiz).", "state", selectors.giden_eposta_sayilari_durumlara_gore)
