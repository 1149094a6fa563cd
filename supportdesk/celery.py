import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")

app = Celery("supportdesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# With LOG_FORMAT=json every line of beat is JSON too (supportdesk.core.gunluk).
from supportdesk.core.gunluk import celery_json  # noqa: E402

celery_json(app)
