"""Prometheus metrics (CONTRACT 20): `GET /metrics` with `Authorization: Bearer <METRICS_TOKEN>`.

Two kinds of numbers:
- What processes count as they work (requests by route, method and status with latency
  histograms, database queries, Celery task outcomes): prometheus_client counters. With several
  processes (gunicorn workers, Celery, the socket processes) each one writes its counts to files
  under `PROMETHEUS_MULTIPROC_DIR` (prometheus_client's multiprocess mode) and a scrape, served by
  any worker, adds them all up. Without that directory each process counts for itself: right
  for `make run` (one process), wrong behind several workers (docs/production.md).
- What the data says now (waiting and active chats, open sockets, webhook and mail backlogs and
  failures): gauges computed at scrape time by functions the domain apps register
  (`gosterge_kaydet`), one bounded query each, so they are the same whichever process answers.

Route labels are URL names (`saglik-canli`, `api-bilinmeyen`), never raw paths: the number of
series stays bounded whatever clients request.
"""
import hmac
import logging
import os
import socket
import time
from collections.abc import Callable

from celery import signals as celery_sinyalleri
from django.conf import settings
from django.db.backends.signals import connection_created
from django.db.models import Count
from django.http import Http404, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest, values
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from . import varlik

logger = logging.getLogger("supportdesk.metrikler")

_COKLU_SUREC_KLASORU = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
_MAKINE = socket.gethostname().replace("_", "-")


def _surec_kimligi() -> str:
    # Files are named after the process: host name and pid, not the pid alone, so containers
    # sharing one volume (each with its own pid 1, 7, 8...) never write each other's files.
    # No underscore: prometheus_client splits the file name on it.
    return f"{_MAKINE}-{os.getpid()}"


if _COKLU_SUREC_KLASORU:
    os.makedirs(_COKLU_SUREC_KLASORU, exist_ok=True)
    values.ValueClass = values.MultiProcessValue(_surec_kimligi)

_SUREC = CollectorRegistry(auto_describe=True)

HTTP_ISTEKLERI = Counter("supportdesk_http_requests", "HTTP requests answered, by route name, method and status.",
                         ["route", "method", "status"], registry=_SUREC)
HTTP_SURESI = Histogram("supportdesk_http_request_duration_seconds", "Time to answer an HTTP request, by route name.",
                        ["route"], registry=_SUREC,
                        buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
DB_SORGULARI = Counter("supportdesk_db_queries", "Database queries run (web, socket and Celery processes).",
                       ["database"], registry=_SUREC)
DB_SURESI = Counter("supportdesk_db_query_seconds", "Time spent in database queries.", ["database"], registry=_SUREC)
CELERY_GOREVLERI = Counter("supportdesk_celery_tasks", "Celery task runs by task name and outcome "
                           "(basarili, hata, yeniden_denenecek).", ["task", "outcome"], registry=_SUREC)


# --- requests -------------------------------------------------------------------------------
def rota_adi(request) -> str:
    """The URL name that answered (bounded), or `eslesmedi` when no route was resolved (an
    unknown page, or a middleware that answered first)."""
    eslesme = getattr(request, "resolver_match", None)
    return eslesme.view_name if eslesme is not None else "eslesmedi"


def istek_sayildi(request, response, sure: float, rota: str) -> None:
    HTTP_ISTEKLERI.labels(rota, request.method, str(response.status_code)).inc()
    HTTP_SURESI.labels(rota).observe(sure)


# --- database queries -------------------------------------------------------------------------
def _sorgu_sayaci(alias: str):
    sayac, sure = DB_SORGULARI.labels(alias), DB_SURESI.labels(alias)

    def sar(execute, sql, params, many, context):
        baslangic = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            sure.inc(time.perf_counter() - baslangic)
            sayac.inc()

    sar.supportdesk_sayaci = True
    return sar


def _baglanti_acildi(sender, connection, **kwargs):
    # First in the list: Django's own `connection.execute_wrapper()` blocks pop the last one, and a
    # connection opened inside such a block must not lose theirs to ours.
    if not any(getattr(w, "supportdesk_sayaci", False) for w in connection.execute_wrappers):
        connection.execute_wrappers.insert(0, _sorgu_sayaci(connection.alias))


connection_created.connect(_baglanti_acildi, dispatch_uid="supportdesk.metrikler.sorgular")


# --- Celery -----------------------------------------------------------------------------------
def _gorev_adi(sender) -> str:
    return getattr(sender, "name", None) or str(sender)


@celery_sinyalleri.task_success.connect(weak=False)
def _gorev_basarili(sender=None, **kwargs):
    CELERY_GOREVLERI.labels(_gorev_adi(sender), "basarili").inc()


@celery_sinyalleri.task_failure.connect(weak=False)
def _gorev_hata(sender=None, **kwargs):
    CELERY_GOREVLERI.labels(_gorev_adi(sender), "hata").inc()


@celery_sinyalleri.task_retry.connect(weak=False)
def _gorev_yeniden(sender=None, **kwargs):
    CELERY_GOREVLERI.labels(_gorev_adi(sender), "yeniden_denenecek").inc()


# --- gauges computed at scrape time -------------------------------------------------------------
_GOSTERGELER: dict[str, tuple[str, str, Callable[[], dict[str, float]]]] = {}


def durum_sayilari(satirlar, durumlar) -> dict[str, int]:
    """How many rows of `satirlar` (a queryset) are in each of `durumlar` (its `durum` field),
    zero-filled: one query, for a gauge of a backlog or of open chats."""
    sayilar = dict.fromkeys((str(d) for d in durumlar), 0)
    sayilar.update(satirlar.filter(durum__in=durumlar).order_by().values_list("durum").annotate(n=Count("id")))
    return sayilar


def gosterge_kaydet(ad: str, aciklama: str, etiket: str, fonksiyon: Callable[[], dict[str, float]]) -> None:
    """A gauge `ad` with one label `etiket`, whose values `fonksiyon()` returns at each scrape
    ({label value: number}). It must cost a bounded number of queries (one, as a rule)."""
    _GOSTERGELER[ad] = (aciklama, etiket, fonksiyon)


class _AnlikGostergeler:
    def collect(self):
        for ad, (aciklama, etiket, fonksiyon) in _GOSTERGELER.items():
            try:
                degerler = fonksiyon()
            except Exception:
                logger.warning("%s ölçülemedi.", ad, exc_info=True)
                continue
            aile = GaugeMetricFamily(ad, aciklama, labels=[etiket])
            for deger, sayi in sorted(degerler.items()):
                aile.add_metric([deger], sayi)
            yield aile


_ANLIK = CollectorRegistry(auto_describe=False)
_ANLIK.register(_AnlikGostergeler())
gosterge_kaydet("supportdesk_open_sockets", "Open WebSockets of every process, by kind (operator, ziyaretci).",
                "kind", varlik.acik_soket_sayilari)


def metin() -> bytes:
    """The exposition text of a scrape: every process's counters, then the gauges of now."""
    if _COKLU_SUREC_KLASORU:
        surecler = CollectorRegistry()
        MultiProcessCollector(surecler, path=_COKLU_SUREC_KLASORU)
    else:
        surecler = _SUREC
    return generate_latest(surecler) + generate_latest(_ANLIK)


# --- the endpoint -------------------------------------------------------------------------------
def _token_dogru(request) -> bool:
    beklenen = settings.METRICS_TOKEN
    if not beklenen:
        return False
    baslik = request.META.get("HTTP_AUTHORIZATION", "")
    sema, _, gelen = baslik.partition(" ")
    # Constant time: a scraper-facing secret must not leak through how long a refusal takes.
    return sema.lower() == "bearer" and hmac.compare_digest(gelen.strip().encode(), beklenen.encode())


def metrics_view(request):
    """404 without `METRICS_TOKEN`, and 404 for a missing or wrong token too: the address says
    nothing about itself to those who may not scrape it (docs/production.md)."""
    if not _token_dogru(request):
        raise Http404
    return HttpResponse(metin(), content_type=CONTENT_TYPE_LATEST)
