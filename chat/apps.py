from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self):
        from supportdesk.core import metrikler

        from . import dinleyiciler, selectors, sinyaller  # noqa: F401  (dinleyiciler: the poll snapshots' listeners)

        sinyaller.bagla()
        metrikler.gosterge_kaydet("supportdesk_chats", "Open chats of every tenant, by state (bekliyor, aktif).",
                                  "state", selectors.oturum_sayilari_durumlara_gore)
