"""gunicorn's settings, read from the working directory by `gunicorn supportdesk.wsgi` (README).

Deployment settings come from the environment (docs/production.md, "Settings"); a flag on the
command line still wins over them. Unset, they keep gunicorn's own behaviour for one machine:

- `GUNICORN_BIND` (e.g. `0.0.0.0:8000` or `unix:/run/supportdesk.sock`); else `BIND_HOST:PORT`
  when `PORT` is set (Procfile platforms, honcho: `BIND_HOST` defaults to 0.0.0.0); else
  127.0.0.1:8000.
- `WEB_CONCURRENCY`: worker processes (default 2 per core + 1); `GUNICORN_WORKER_CLASS` (sync)
  and `GUNICORN_THREADS` (1; more with `gthread`).
- `GUNICORN_TIMEOUT` (30 s: a worker silent this long is killed and replaced),
  `GUNICORN_GRACEFUL_TIMEOUT` (30 s to finish requests on a restart), `GUNICORN_KEEPALIVE` (2 s).
- `GUNICORN_MAX_REQUESTS` (0, off) and `GUNICORN_MAX_REQUESTS_JITTER` (a worker is replaced
  after about this many requests).
- `GUNICORN_ACCESS_LOG`: `-` for standard output, a file path, or empty (the default: no access
  log; the service logs what it needs itself). `GUNICORN_ERROR_LOG`: `-` (standard error).
- `GUNICORN_CONTROL_SOCKET`: a path to turn gunicorn's control socket on; off by default (its
  default path is one per user, so two gunicorn processes of one user would share it).
- `LOG_FORMAT=json`: gunicorn's own lines and its access log are JSON like the service's
  (`supportdesk.core.gunluk`), each with `surec: web`; an access line carries the request's
  `istek_id` (the `X-Request-ID` answered) and its method, path, status and duration.

gunicorn answers a request line over its limit (4094 bytes by default) with its own HTML page,
outside the API's envelope. Its limit is lifted here: the service answers an over-long address
itself, 414 in the envelope (`ISTEK_ADRESI_SINIRI`, supportdesk/core/middleware.py), and the
worker timeout still bounds how long one client can keep sending a line.
"""
import json
import multiprocessing
import os

from gunicorn import util
from gunicorn.glogging import Logger

from supportdesk.core.gunluk import GunicornErisimBicimi, JsonBicimi, json_mu


def _ortam_sayi(ad, varsayilan):
    deger = os.environ.get(ad, "").strip()
    return int(deger) if deger else varsayilan


if os.environ.get("GUNICORN_BIND"):
    bind = [b.strip() for b in os.environ["GUNICORN_BIND"].split(",") if b.strip()]
elif os.environ.get("PORT"):
    bind = [f"{os.environ.get('BIND_HOST') or '0.0.0.0'}:{os.environ['PORT']}"]  # noqa: S104  (a platform's port)
else:
    bind = ["127.0.0.1:8000"]
workers = _ortam_sayi("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS") or "sync"
threads = _ortam_sayi("GUNICORN_THREADS", 1)
timeout = _ortam_sayi("GUNICORN_TIMEOUT", 30)
graceful_timeout = _ortam_sayi("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _ortam_sayi("GUNICORN_KEEPALIVE", 2)
max_requests = _ortam_sayi("GUNICORN_MAX_REQUESTS", 0)
max_requests_jitter = _ortam_sayi("GUNICORN_MAX_REQUESTS_JITTER", 0)
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = os.environ.get("GUNICORN_ERROR_LOG") or "-"
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

limit_request_line = 0


class GunicornGunlugu(Logger):
    """gunicorn's own logger; with LOG_FORMAT=json its handlers (error log, access log) write JSON
    like the service's lines (supportdesk.core.gunluk), otherwise gunicorn's text as it is."""

    def setup(self, cfg):
        super().setup(cfg)
        if json_mu():
            for handler in self.error_log.handlers:
                handler.setFormatter(JsonBicimi())
            for handler in self.access_log.handlers:
                handler.setFormatter(GunicornErisimBicimi())


logger_class = GunicornGunlugu

# What gunicorn still answers itself, before Django sees a request: a header line over 8190
# bytes or more than 100 headers (431), a header or request it cannot parse (400), an unsupported
# transfer coding (501). Its limits stay (they bound a worker's memory), but the answer is the
# API's envelope (CONTRACT 1: every error of the service), not gunicorn's HTML page. gunicorn has
# no setting for this page; its workers write it with `gunicorn.util.write_error`, replaced here
# (this file runs in the master, before the workers fork). In the default language (CONTRACT 19):
# a request whose head gunicorn cannot read has no Accept-Language to be read either.
_GUNICORN_MESAJLARI = {
    431: "İstek başlıkları çok büyük ya da çok fazla.",  # ceviri: yok
    414: "İstek adresi çok uzun.",  # ceviri: yok
    501: "Desteklenmeyen aktarım kodlaması (Transfer-Encoding).",  # ceviri: yok
}


def _zarfli_hata(sock, status_int, reason, mesg):
    kod = "SUNUCU_HATASI" if status_int == 500 else "GECERSIZ_ISTEK"
    mesaj = ("Beklenmeyen bir hata oluştu." if status_int == 500  # ceviri: yok
             else _GUNICORN_MESAJLARI.get(status_int, "Geçersiz HTTP isteği."))  # ceviri: yok
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
        logging.getLogger("supportdesk").warning("Veritabanına açılışta bağlanılamadı; ilk istek bağlanacak.")  # ceviri: yok


def child_exit(server, worker):
    """A worker gone (killed, or replaced) leaves its per-process gauges (CPU, memory) out of the
    scrape; the files are named after host and pid as supportdesk.core.metrikler names them."""
    klasor = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if klasor and os.path.isdir(klasor):
        import socket

        from prometheus_client import multiprocess

        try:
            multiprocess.mark_process_dead(f"{socket.gethostname().replace('_', '-')}-{worker.pid}", klasor)
        except OSError:
            pass
