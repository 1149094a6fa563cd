from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "supportdesk.core"
    label = "core"
