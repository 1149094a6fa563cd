from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self):
        from . import sinyaller

        sinyaller.bagla()
