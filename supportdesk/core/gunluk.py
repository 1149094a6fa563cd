"""Logs (CONTRACT 20): every record carries the request id of the work it belongs to.

The id (`istek_id`, also the `X-Request-ID` header and a 500's body) is set per request by
`middleware.RequestIdMiddleware`, per socket connection by the consumers (`soket_baglami`), and
per Celery task from the header the publishing process added (`before_task_publish`), so the
lines of a request, of the tasks it queued and of a socket can be found together. What is known
of the caller (`musteri_id`, `kullanici_id`) is added by the authentication classes
(`baglam_ekle`) and lands on the request's later lines and on its closing line.

`LOG_FORMAT=json`: one JSON object per line (python-json-logger): `zaman`, `seviye`, `mesaj`,
`kaynak` (the logger), `surec` (the process kind: `web`, `sockets`, `worker`, `beat`, or the
management command, `surec_turu`), `istek_id`, and whatever the record adds (`rota`, `yontem`,
`durum`, `sure_ms` on a request's closing line). Otherwise the plain text format of settings.LOGGING.

Every line of every process kind is in that format (issue 37), not only what Django logs:
gunicorn's own lines and its access log (gunicorn.conf.py's `logger_class`, with
`GunicornErisimBicimi`), uvicorn's (`ops/uvicorn-gunluk.json`, the Procfile's `--log-config`, through
`ortam_bicimi`), Celery's (its handlers get the format at `after_setup_logger`; what it prints
instead of logging is handled in supportdesk/celery.py), and Python's warnings (`yapilandir`).
"""
import contextvars
import functools
import logging
import logging.config
import os
import sys
from pathlib import Path

from celery import signals as celery_sinyalleri
from django.conf import settings
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
# The caller, once known ({"musteri_id": 3, "kullanici_id": 7}); a new dict per request or task.
_baglam: contextvars.ContextVar[dict | None] = contextvars.ContextVar("gunluk_baglami", default=None)

ISTEK_BASLIGI = "istek_id"  # the Celery message header carrying the id
istek_logger = logging.getLogger("supportdesk.istek")


def current_request_id() -> str:
    return _request_id.get()


def istek_baslat(istek_id: str) -> tuple:
    """Make `istek_id` the current id, with an empty caller; returns the tokens for `istek_bitir`."""
    return _request_id.set(istek_id), _baglam.set({})


def istek_bitir(tokenlar: tuple) -> None:
    _request_id.reset(tokenlar[0])
    _baglam.reset(tokenlar[1])


def baglam_ekle(**alanlar) -> None:
    """Note what became known of the caller (`musteri_id=`, `kullanici_id=`) for this request's logs."""
    baglam = _baglam.get()
    if baglam is not None:
        baglam.update({k: v for k, v in alanlar.items() if v is not None})


def baglam() -> dict:
    return dict(_baglam.get() or {})


class IstekFiltresi(logging.Filter):
    """Adds `istek_id` (and `request_id`, for the plain format) and the caller to every record."""

    def filter(self, record):
        record.request_id = record.istek_id = _request_id.get()
        for ad, deger in (_baglam.get() or {}).items():
            if not hasattr(record, ad):
                setattr(record, ad, deger)
        return True


@functools.cache
def surec_turu() -> str:
    """The process kind a line comes from, for `surec`: `SUREC_TURU` when set, else read from the
    command that started the process (the Procfile's, however it is run: compose, supervisord,
    systemd, a platform): gunicorn → `web`, uvicorn → `sockets`, `celery … worker|beat` → `worker`
    / `beat`, `manage.py NAME` → NAME (`migrate` for the release step). Forked and spawned children
    (gunicorn's and Celery's workers, uvicorn's `--workers`) carry their parent's command line."""
    if tur := os.environ.get("SUREC_TURU", "").strip():
        return tur
    argv = sys.argv or [""]
    program = Path(argv[0]).name
    if program == "__main__.py":  # python -m gunicorn / uvicorn / celery
        program = Path(argv[0]).parent.name
    if program == "gunicorn":
        return "web"
    if program == "uvicorn":
        return "sockets"
    if program == "celery":
        return next((a for a in argv[1:] if a in ("worker", "beat")), "celery")
    if program == "manage.py" and len(argv) > 1:
        return argv[1]
    return program.removesuffix(".py") or "python"


def json_mu() -> bool:
    """LOG_FORMAT=json, read where Django's settings may not be loaded (gunicorn's master, uvicorn's
    parent): from the process environment, where every topology puts it."""
    return os.environ.get("LOG_FORMAT", "text").strip() == "json"


class JsonBicimi(JsonFormatter):
    """One JSON object per line with the contract's names (CONTRACT 20), each naming its process
    kind and the request id of the work it belongs to ("-" outside any)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("rename_fields", {"levelname": "seviye", "message": "mesaj", "name": "kaynak"})
        kwargs.setdefault("timestamp", "zaman")
        kwargs.setdefault("reserved_attrs", [*RESERVED_ATTRS, "request_id", "request", "color_message"])
        kwargs.setdefault("json_ensure_ascii", False)
        super().__init__(["levelname", "message", "name"], *args, **kwargs)

    def add_fields(self, log_data, record, message_dict):
        super().add_fields(log_data, record, message_dict)
        log_data.setdefault("surec", surec_turu())
        log_data.setdefault("istek_id", _request_id.get())


DUZ_BICIM = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def ortam_bicimi() -> logging.Formatter:
    """The format LOG_FORMAT asks for, for servers that configure logging before Django is loaded
    (uvicorn's `--log-config`): JSON, or the plain format of settings.LOGGING."""
    return JsonBicimi() if json_mu() else logging.Formatter(DUZ_BICIM)


def yapilandir(ayarlar: dict) -> None:
    """settings.LOGGING_CONFIG: Django's dictConfig, and Python's warnings as log records (a
    library's warning would otherwise be a plain line on stderr, outside the format)."""
    logging.config.dictConfig(ayarlar)
    logging.captureWarnings(True)


class GunicornErisimBicimi(JsonBicimi):
    """gunicorn's access line as JSON: gunicorn logs it with its atoms (a dict) as the record's
    arguments; the request id is the `X-Request-ID` the service answered with."""

    def add_fields(self, log_data, record, message_dict):
        atomlar = record.args if isinstance(record.args, dict) else {}
        istek_id = atomlar.get("{x-request-id}o")
        if istek_id and istek_id != "-":
            log_data["istek_id"] = istek_id
        super().add_fields(log_data, record, message_dict)
        if atomlar:
            log_data.update(yontem=atomlar.get("m"), yol=atomlar.get("U"), durum=_sayi(atomlar.get("s")),
                            sure_ms=round(atomlar.get("D", 0) / 1000, 1), boyut=atomlar.get("B"))


def _sayi(deger):
    try:
        return int(deger)
    except (TypeError, ValueError):
        return deger


def istek_kapandi(request, response, sure: float, rota: str) -> None:
    """A request's closing line (one per request) with its route name, status and duration."""
    alanlar = {"rota": rota, "yontem": request.method, "durum": response.status_code, "sure_ms": round(sure * 1000, 1)}
    kullanici = _kullanici(request)
    if kullanici is not None and "kullanici_id" not in (_baglam.get() or {}):
        alanlar["kullanici_id"] = kullanici
    istek_logger.info("%s %s %s", request.method, rota, response.status_code, extra=alanlar)


def soket_kapandi(tur: str, rota: str, sure: float) -> None:
    """A socket's closing line (one per connection), on the same logger as a request's: its
    consumer, path and how long it was open; the connection's id and caller come from the context."""
    istek_logger.info("Soket kapandı (%s).", tur, extra={"rota": rota, "sure_ms": round(sure * 1000, 1)})


def _kullanici(request):
    # Only a user already loaded (DRF's authentication, or a page that looked at it): reading
    # `request.user` here would cost a session query for a request that never needed it.
    kullanici = request.__dict__.get("user")
    kullanici = getattr(kullanici, "_wrapped", kullanici)
    pk = getattr(kullanici, "pk", None)
    return pk if isinstance(pk, int) else None


# --- the id follows the work into Celery tasks ----------------------------------------------------
@celery_sinyalleri.before_task_publish.connect(weak=False)
def _basliga_yaz(headers=None, **kwargs):
    istek_id = _request_id.get()
    if headers is not None and istek_id != "-":
        headers.setdefault(ISTEK_BASLIGI, istek_id)


@celery_sinyalleri.task_prerun.connect(weak=False)
def _gorev_basladi(task=None, **kwargs):
    # An eager task runs inside the request that queued it: its id is already the current one.
    if task is None or getattr(task.request, "is_eager", False):
        return
    istek_baslat(getattr(task.request, ISTEK_BASLIGI, None) or "-")


@celery_sinyalleri.after_setup_logger.connect(weak=False)
@celery_sinyalleri.after_setup_task_logger.connect(weak=False)
def _celery_gunlugu(logger=None, **kwargs):
    """The worker writes its own handlers (its `-f` file, its console); they get the id filter and,
    with LOG_FORMAT=json, the JSON format."""
    for handler in logger.handlers if logger is not None else []:
        handler.addFilter(IstekFiltresi())
        if getattr(settings, "LOG_FORMAT", "") == "json":
            handler.setFormatter(JsonBicimi())


@celery_sinyalleri.celeryd_after_setup.connect(weak=False)
def _isci_afisi(instance=None, **kwargs):
    # The worker prints its start banner (a dozen plain lines) right after this signal unless quiet;
    # with JSON logs it is left out (the lines that follow say the same: connected, ready).
    if instance is not None and getattr(settings, "LOG_FORMAT", "") == "json":
        instance.quiet = True
