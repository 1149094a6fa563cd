"""gunicorn's settings, read from the working directory by `gunicorn supportdesk.wsgi` (README).

gunicorn answers a request line over its limit (4094 bytes by default) with its own HTML page,
outside the API's envelope. Its limit is lifted here: the service answers an over-long address
itself, 414 in the envelope (`ISTEK_ADRESI_SINIRI`, supportdesk/core/middleware.py), and the
worker timeout still bounds how long one client can keep sending a line.
"""
limit_request_line = 0


def post_worker_init(worker):
    """Each worker opens its database connection before its first request (after the fork, so no
    two processes share one). A database that is not up yet only leaves that to the first request."""
    import logging

    from django.db import connection

    try:
        connection.ensure_connection()
    except Exception:  # noqa: BLE001  (a worker must start even when the database is not up yet)
        logging.getLogger("supportdesk").warning("Veritabanına açılışta bağlanılamadı; ilk istek bağlanacak.")
