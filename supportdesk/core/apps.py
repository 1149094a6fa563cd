from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "supportdesk.core"
    label = "core"

    def ready(self):
        from . import schema  # noqa: F401  (registers the OpenAPI auth extensions)
