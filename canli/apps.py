from django.apps import AppConfig


class CanliConfig(AppConfig):
    name = "canli"
    verbose_name = "Canlı (WebSocket)"

    def ready(self):
        # The sockets hear of domain events after their commit (canli/dinleyiciler.py).
        from . import dinleyiciler  # noqa: F401
