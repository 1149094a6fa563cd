from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self):
        from supportdesk.core import metrikler

        from . import selectors, sinyaller

        sinyaller.bagla()
        metrikler.gosterge_kaydet("supportdesk_chats", "Open chats of every tenant, by state (bekliyor, aktif).",
                                  "state", selectors.oturum_sayilari_durumlara_gore)
