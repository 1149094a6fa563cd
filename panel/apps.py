from django.apps import AppConfig


class PanelConfig(AppConfig):
    """The operators' side composed over every feature app: the dashboard's figures."""

    name = "panel"
