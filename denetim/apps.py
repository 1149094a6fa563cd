from django.apps import AppConfig


class DenetimConfig(AppConfig):
    """The audit log (CONTRACT 18): who did what to a tenant, written only by listeners of the
    domain events (`dinleyiciler.py`), never by views; append-only. Just above tenants."""

    name = "denetim"
    verbose_name = "denetim kaydı"

    def ready(self):
        from . import dinleyiciler, tasks  # noqa: F401
