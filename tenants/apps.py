from django.apps import AppConfig


class TenantsConfig(AppConfig):
    name = "tenants"

    def ready(self):
        from . import onbellek
        from .api import sema  # noqa: F401  (registers the OpenAPI descriptions of our two credentials)

        onbellek.bagla()
