from django.apps import AppConfig


class GizlilikConfig(AppConfig):
    """Privacy and data lifecycle (CONTRACT 18): a visitor's export and erasure, retention, and the
    files a deleted tenant leaves in storage. Above every feature whose rows it reads and erases."""

    name = "gizlilik"
    verbose_name = "gizlilik"

    def ready(self):
        from . import dinleyiciler, tasks  # noqa: F401
