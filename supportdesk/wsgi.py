"""The REST entry point (gunicorn `supportdesk.wsgi`).

Each worker loads the URLconf, and with it every view module, when it starts instead of inside its
first request, and opens its database connection: a fresh worker's first call took about 80 ms
(60 of them importing views), later calls 3 ms. A database that cannot be reached yet only
leaves that for the first request, as before.
"""
import logging
import os

from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")
application = get_wsgi_application()


def _isit() -> None:
    get_resolver().url_patterns  # noqa: B018  (loading it is the point)
    try:
        connection.ensure_connection()
    except Exception:  # noqa: BLE001  (a worker must start even when the database is not up yet)
        logging.getLogger("supportdesk").warning("Veritabanına açılışta bağlanılamadı; ilk istek bağlanacak.")


_isit()
