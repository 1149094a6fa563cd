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
import atexit
import contextlib
import glob
import hmac
import logging
import os
import resource
import socket
import tempfile
import time
from collections.abc import Callable

from celery import signals as celery_sinyalleri
from django.conf import settings
from django.db.backends.signals import connection_created
from django.db.models import Count
from django.http import Http404, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest, values
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from . import arka_plan, varlik

logger = logging.getLogger("supportdesk.metrikler")

_COKLU_SUREC_KLASORU = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
_MAKINE = socket.gethostname().replace("_", "-")


def _surec_kimligi() -> str:
    # Files are named after the process: host name and pid, not the pid alone, so containers
    # sharing one volume (each with its own pid 1, 7, 8...) never write each other's files.
    # No underscore: prometheus_client splits the file name on it.
    return f"{_MAKINE}-{os.getpid()}"


def _klasor_yazilabilir(klasor: str) -> bool:
    """The multiprocess folder exists (or can be made) and this process can write files in it.
    If not, the process counts for itself, as without the setting, and says so once: a metrics
    folder never makes a request fail (every counter would otherwise raise on its first use)."""
    try:
        os.makedirs(klasor, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=klasor, prefix=".yazilabilir-"):
            pass
    except OSError as hata:
        logger.warning("PROMETHEUS_MULTIPROC_DIR=%s kullanılamıyor (%s): bu süreç yalnızca kendi sayılarını "
                       "bildirir.", klasor, hata)
        return False
    return True


if _COKLU_SUREC_KLASORU and not _klasor_yazilabilir(_COKLU_SUREC_KLASORU):
    _COKLU_SUREC_KLASORU = ""
    # prometheus_client chose its multiprocess values from the environment when imported.
    values.ValueClass = values.MutexValue
if _COKLU_SUREC_KLASORU:
    values.ValueClass = values.MultiProcessValue(_surec_kimligi)

    @atexit.register
    def _surec_bitti() -> None:
        # A process leaving takes its per-process gauges (CPU, memory) with it; its counters stay
        # (they add up). gunicorn's master does the same for a worker it lost (gunicorn.conf.py).
        with contextlib.suppress(Exception):
            mark_process_dead(_surec_kimligi(), _COKLU_SUREC_KLASORU)

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
# Process CPU and memory: prometheus_client's process collector does not work in multiprocess
# mode, gauges do ("liveall": one series per live process, labelled `pid`). Each process sets its
# own when it works (a request, a task, a worker heartbeat; at most every SUREC_OLCUM_ARALIGI s)
# and when it answers a scrape.
SUREC_CPU = Gauge("supportdesk_process_cpu_seconds", "CPU time (user and system) this process has used.",
                  registry=_SUREC, multiprocess_mode="liveall")
SUREC_BELLEK = Gauge("supportdesk_process_resident_memory_bytes", "Resident memory of this process.",
                     registry=_SUREC, multiprocess_mode="liveall")
SUREC_OLCUM_ARALIGI = 5.0
_son_surec_olcumu = 0.0
_SAYFA = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def surec_olc(*, simdi_olc: bool = False) -> None:
    global _son_surec_olcumu
    simdi = time.monotonic()
    if not simdi_olc and simdi - _son_surec_olcumu < SUREC_OLCUM_ARALIGI:
        return
    _son_surec_olcumu = simdi
    kullanim = resource.getrusage(resource.RUSAGE_SELF)
    SUREC_CPU.set(kullanim.ru_utime + kullanim.ru_stime)
    try:
        with open("/proc/self/statm") as statm:
            SUREC_BELLEK.set(int(statm.read().split()[1]) * _SAYFA)
    except OSError:  # no /proc: the peak, in KiB on Linux
        SUREC_BELLEK.set(kullanim.ru_maxrss * 1024)


def _olcerek(fn):
    """Counting never breaks the work it counts: a metrics store that fails (a folder gone or
    unwritable under a running process) is logged, at most once a minute, and skipped."""
    son = [0.0]

    def sar(*args, **kwargs):
        try:
            fn(*args, **kwargs)
        except Exception:
            if time.monotonic() - son[0] > 60:
                son[0] = time.monotonic()
                logger.warning("Metrik yazılamadı (%s).", fn.__name__, exc_info=True)

    return sar


# --- requests -------------------------------------------------------------------------------
def rota_adi(request) -> str:
    """The URL name that answered (bounded), or `eslesmedi` when no route was resolved (an
    unknown page, or a middleware that answered first)."""
    eslesme = getattr(request, "resolver_match", None)
    return eslesme.view_name if eslesme is not None else "eslesmedi"


@_olcerek
def istek_sayildi(request, response, sure: float, rota: str) -> None:
    HTTP_ISTEKLERI.labels(rota, request.method, str(response.status_code)).inc()
    HTTP_SURESI.labels(rota).observe(sure)
    surec_olc()


# --- database queries -------------------------------------------------------------------------
def _sorgu_sayaci(alias: str):
    sayac, sure = DB_SORGULARI.labels(alias), DB_SURESI.labels(alias)

    @_olcerek
    def say(gecen: float) -> None:
        sure.inc(gecen)
        sayac.inc()

    def sar(execute, sql, params, many, context):
        baslangic = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            say(time.perf_counter() - baslangic)

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
@_olcerek
def _gorev_basarili(sender=None, **kwargs):
    CELERY_GOREVLERI.labels(_gorev_adi(sender), "basarili").inc()
    surec_olc()


@celery_sinyalleri.task_failure.connect(weak=False)
@_olcerek
def _gorev_hata(sender=None, **kwargs):
    CELERY_GOREVLERI.labels(_gorev_adi(sender), "hata").inc()
    surec_olc()


@celery_sinyalleri.task_retry.connect(weak=False)
@_olcerek
def _gorev_yeniden(sender=None, **kwargs):
    CELERY_GOREVLERI.labels(_gorev_adi(sender), "yeniden_denenecek").inc()
    surec_olc()


# A worker's event heartbeat (every 2 s, in its main process): it is seen (readiness, the
# workers gauge) and its CPU and memory are measured. Cheap and never raising.
_son_isci_yazimi = 0.0


@celery_sinyalleri.heartbeat_sent.connect(weak=False)
@_olcerek
def _kalp_atisi(sender=None, **kwargs):
    global _son_isci_yazimi
    surec_olc()
    simdi = time.monotonic()
    if simdi - _son_isci_yazimi < arka_plan.ISCI_YAZMA_ARALIGI:
        return
    _son_isci_yazimi = simdi
    arka_plan.isci_goruldu(getattr(getattr(sender, "eventer", None), "hostname", None) or socket.gethostname())


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


def surum_bilgisi() -> dict[str, str]:
    """The build: the API's version (docs/api.md) and the revision the deploy names (SENTRY_RELEASE)."""
    return {"version": str(settings.SPECTACULAR_SETTINGS["VERSION"]),
            "revision": os.environ.get("SENTRY_RELEASE", "").strip()}


class _ArkaPlanGostergeleri:
    """Background work, read from the broker's Redis at scrape time (supportdesk/core/arka_plan.py):
    one round trip each, skipped (logged) when Redis does not answer; absent without a broker."""

    def collect(self):
        yield InfoMetricFamily("supportdesk_build", "The running build.", value=surum_bilgisi())
        istemci = arka_plan.broker_redis()
        if istemci is None:
            return
        try:
            derinlikler = arka_plan.kuyruk_derinlikleri(istemci)
            isciler = arka_plan.canli_isciler(istemci)
            beat = arka_plan.beat_son_calismalar(istemci)
        except Exception:
            logger.warning("Kuyruk, işçi ve beat ölçümleri okunamadı.", exc_info=True)
            return
        aile = GaugeMetricFamily("supportdesk_celery_queue_length", "Messages waiting in each Celery queue.",
                                 labels=["queue"])
        for kuyruk, uzunluk in derinlikler.items():
            aile.add_metric([kuyruk], uzunluk)
        yield aile
        yield GaugeMetricFamily("supportdesk_celery_workers", "Celery workers seen (heartbeat) in the last minute.",
                                value=len(isciler))
        aile = GaugeMetricFamily("supportdesk_beat_last_run_timestamp_seconds",
                                 "When beat last sent each periodic job (Unix time).", labels=["job"])
        for is_adi, zaman in sorted(beat.items()):
            aile.add_metric([is_adi], zaman)
        yield aile


_ANLIK = CollectorRegistry(auto_describe=False)
_ANLIK.register(_AnlikGostergeler())
_ANLIK.register(_ArkaPlanGostergeleri())
gosterge_kaydet("supportdesk_open_sockets", "Open WebSockets of every process, by kind (operator, ziyaretci).",
                "kind", varlik.acik_soket_sayilari)


class _OkunanDosyalar(MultiProcessCollector):
    """prometheus_client's multiprocess collector, reading only the files that can be read: a
    process creating its file for a metric leaves it empty for a moment (opened, not yet sized),
    and reading that one raised `struct.error` out of the scrape (a 500 at /metrics while a worker
    started, met under load); a file of a process marked dead between the listing and the read is
    left out too. A file at least as long as its header only ever grows, so one read is safe."""

    def collect(self):
        for _ in range(3):
            dosyalar = []
            for yol in glob.glob(os.path.join(self._path, "*.db")):
                with contextlib.suppress(OSError):
                    if os.path.getsize(yol) >= 8:  # the header: how much of the file is in use
                        dosyalar.append(yol)
            try:
                return self.merge(dosyalar, accumulate=True)
            except FileNotFoundError:
                continue  # gone since the listing: list again
        return self.merge([d for d in dosyalar if os.path.exists(d)], accumulate=True)


def metin() -> bytes:
    """The exposition text of a scrape: every process's counters, then the gauges of now."""
    _olcerek(surec_olc)(simdi_olc=True)
    surecler = _SUREC
    if _COKLU_SUREC_KLASORU:
        try:
            surecler = CollectorRegistry()
            _OkunanDosyalar(surecler, path=_COKLU_SUREC_KLASORU)
        except (OSError, ValueError):  # the folder went away under the running service
            logger.warning("PROMETHEUS_MULTIPROC_DIR okunamadı: yalnızca bu sürecin sayıları.", exc_info=True)
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


# Every process reports its CPU and memory from its start, not only once it has worked (a Celery
# pool's child from its fork).
_olcerek(surec_olc)(simdi_olc=True)


@celery_sinyalleri.worker_process_init.connect(weak=False)
def _havuz_sureci_basladi(**kwargs):
    _olcerek(surec_olc)(simdi_olc=True)
