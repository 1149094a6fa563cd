from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self):
        from django.core.signals import request_started

        from . import yerel

        request_started.connect(yerel.ilk_istek, dispatch_uid="webhooks-yerel-ilk-istek")
