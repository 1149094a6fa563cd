from django.apps import AppConfig


class CanliConfig(AppConfig):
    name = "canli"
    verbose_name = "Canlı (WebSocket)"

    def ready(self):
        # The sockets hear of every socket-only event after its commit (supportdesk.core.olaylar).
        from supportdesk.core import olaylar

        from . import yayin

        olaylar.anlik_alici_kaydet(yayin.dagit)
        # An operator socket's tenants follow its user's memberships (CONTRACT 11, docs/api.md).
        yayin.sinyalleri_bagla()
