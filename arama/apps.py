from django.apps import AppConfig


class AramaConfig(AppConfig):
    name = "arama"

    def ready(self):
        from . import dinleyiciler  # noqa: F401  (the search index follows the domain events)
