from django.apps import AppConfig


class DosyalarConfig(AppConfig):
    """Uploads (CONTRACT 5), below every feature that attaches them: it knows none of them."""

    name = "dosyalar"
    verbose_name = "dosyalar"
