"""gunicorn's settings, read from the working directory by `gunicorn supportdesk.wsgi` (README).

gunicorn answers a request line over its limit (4094 bytes by default) with its own HTML page,
outside the API's envelope. Its limit is lifted here: the service answers an over-long address
itself, 414 in the envelope (`ISTEK_ADRESI_SINIRI`, supportdesk/core/middleware.py), and the
worker timeout still bounds how long one client can keep sending a line.
"""
import json

from gunicorn import util

limit_request_line = 0

# What gunicorn still answers itself, before Django sees a request: a header line over 8190
# bytes or more than 100 headers (431), a header or request it cannot parse (400), an unsupported
# transfer coding (501). Its limits stay (they bound a worker's memory), but the answer is the
# API's envelope (CONTRACT 1: every error of the service), not gunicorn's HTML page. gunicorn has
# no setting for this page; its workers write it with `gunicorn.util.write_error`, replaced here
# (this file runs in the master, before the workers fork).
_GUNICORN_MESAJLARI = {
    431: "İstek başlıkları çok büyük ya da çok fazla.",
    414: "İstek adresi çok uzun.",
    501: "Desteklenmeyen aktarım kodlaması (Transfer-Encoding).",
}


def _zarfli_hata(sock, status_int, reason, mesg):
    kod = "SUNUCU_HATASI" if status_int == 500 else "GECERSIZ_ISTEK"
    mesaj = ("Beklenmeyen bir hata oluştu." if status_int == 500
             else _GUNICORN_MESAJLARI.get(status_int, "Geçersiz HTTP isteği."))
    govde = json.dumps({"basarili": False, "hata": {"kod": kod, "mesaj": mesaj}}, ensure_ascii=False).encode()
    basliklar = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(govde)}\r\n\r\n")
    util.write_nonblock(sock, basliklar.encode("latin-1") + govde)


util.write_error = _zarfli_hata


def post_worker_init(worker):
    """Each worker opens its database connection before its first request (after the fork, so no
    two processes share one). A database that is not up yet only leaves that to the first request."""
    import logging

    from django.db import connection

    try:
        connection.ensure_connection()
    except Exception:  # noqa: BLE001  (a worker must start even when the database is not up yet)
        logging.getLogger("supportdesk").warning("Veritabanına açılışta bağlanılamadı; ilk istek bağlanacak.")
