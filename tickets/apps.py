from django.apps import AppConfig


class TicketsConfig(AppConfig):
    name = "tickets"

    def ready(self):
        from . import dinleyiciler  # noqa: F401  (registers the listeners)
