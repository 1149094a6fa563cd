from django.apps import AppConfig


class WidgetConfig(AppConfig):
    """What the embedded widget sees, composed above the feature apps (`POST /widget/init`)."""

    name = "widget"
