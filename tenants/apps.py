from django.apps import AppConfig


class TenantsConfig(AppConfig):
    name = "tenants"

    def ready(self):
        from . import dinleyiciler, sinyaller  # noqa: F401  (dinleyiciler: the caches' listeners)
        from .api import sema  # noqa: F401  (registers the OpenAPI descriptions of our two credentials)

        sinyaller.bagla()

