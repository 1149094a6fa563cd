"""Queue adapter: hands deliveries to Celery, or, without a broker, to this process's pool.

The task is looked up in the project's Celery app by its name (the name beat and the broker use
too; not `celery.current_app`, which a worker's pool thread does not share), so this module and
the tasks import one another in one direction only: `tasks` -> `kuyruk` -> `havuz` -> `teslimat`.
In a worker the task only hands the delivery to the process's per-endpoint pool (`havuz`, on the
runner) and returns: the HTTP request never holds a worker slot, and one endpoint's slowness only
delays that endpoint's deliveries. Without a broker (`make run`) the web process hands its
deliveries to the same pool after commit, a short retry waits on the runner's timer (the broker's
countdown otherwise), and the beat sweep runs on the runner's timetable. `WebhooksConfig.ready()`
imports the tasks so that the web process knows them.
"""
import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from supportdesk.celery import app as celery_app
from supportdesk.core.kosucu import Kosucu, broker_var, kosucu

from . import havuz
from .models import Teslimat
from .teslimat import TopluSonuc, bos_kilit, teslimat_dene, teslimatlari_dene, vadesi_gelen_teslimat_idleri

logger = logging.getLogger("supportdesk.webhooks")

TESLIMAT_GOREVI = "webhooks.teslimat_gonder"
TOPLU_TESLIMAT_GOREVI = "webhooks.teslimatlar_gonder"
KUYRUK_PARTI = 500
MESAJ_PARTI = 100  # deliveries in one broker message, when several are queued at once


def teslimata_gonder(teslimat_idleri: list[int], countdown: float | None = None,
                     endpointler: dict[int, int] | None = None) -> bool:
    """Queue deliveries on the broker (`endpointler`: delivery id -> endpoint id, when known, so
    the worker need not look it up). Never raises: an unreachable broker leaves them due, and the
    beat sweep queues them once it is back (the request that caused the event is not hurt)."""
    endpointler = endpointler or {}
    if yerel_havuz():
        try:
            teslimatlari_isle([[i, endpointler.get(i)] for i in teslimat_idleri])
        except Exception:  # the sweep (on the runner's timetable) brings them back
            logger.exception("Webhook teslimatı havuza verilemedi: %s", teslimat_idleri)
            return False
        return True
    try:
        if len(teslimat_idleri) == 1:
            [teslimat_id] = teslimat_idleri
            endpoint_id = endpointler.get(teslimat_id)
            celery_app.tasks[TESLIMAT_GOREVI].apply_async(
                (teslimat_id, endpoint_id) if endpoint_id else (teslimat_id,), countdown=countdown)
        else:  # several at once (an event with several endpoints, the sweep): one message per 100
            gorev = celery_app.tasks[TOPLU_TESLIMAT_GOREVI]
            for k in range(0, len(teslimat_idleri), MESAJ_PARTI):
                ciftler = [[i, endpointler.get(i)] for i in teslimat_idleri[k:k + MESAJ_PARTI]]
                gorev.apply_async((ciftler,), countdown=countdown)
    except Exception:  # any broker failure: the outbox keeps the delivery
        logger.warning("Webhook teslimatı kuyruğa alınamadı; süpürme görevi yeniden deneyecek: %s", teslimat_idleri,
                       exc_info=True)
        return False
    return True


def teslimat_isle(*, teslimat_id: int, endpoint_id: int | None = None) -> None:
    """The task's work, and without a broker the hand-off after commit: hand the delivery to this
    process's per-endpoint pool (`havuz`), which attempts it on the runner's lanes. In eager mode
    with the pool off (tests: WEBHOOK_LOCAL_WORKER): attempt it here."""
    if not broker_var() and not yerel_havuz():
        teslimat = teslimat_dene(teslimat_id=teslimat_id)
        if teslimat is not None:
            sonraki_denemeyi_kuyruga_al(teslimat)
        return
    if endpoint_id is None:  # a message queued before endpoint ids rode along
        endpoint_id = Teslimat.objects.filter(pk=teslimat_id).values_list("endpoint_id", flat=True).first()
        if endpoint_id is None:
            return
    _havuza_ver(teslimat_id, endpoint_id)


def _havuza_ver(teslimat_id: int, endpoint_id: int) -> None:
    # Quick (the attempt runs on a lane): also called on the runner's timer for a short retry.
    havuz.havuz(_dene, sonraki_denemeyi_kuyruga_al, _bekleyenleri_tazele).ekle(teslimat_id, endpoint_id)


def yerel_havuz() -> bool:
    """No broker, and this process delivers (`make run`; WEBHOOK_LOCAL_WORKER, off in tests)."""
    return settings.WEBHOOK_LOCAL_WORKER and not broker_var()


def vadesi_gelenleri_havuza_ver(_kosucu: Kosucu | None = None) -> None:
    """Without a broker, a web process's start (`kosucu.baslangicta`): deliveries due now (retries
    from before a restart, events whose process died before handing them on) go to its pool,
    without waiting for the next event or the sweep's grace."""
    if yerel_havuz():
        kosucu().calistir("webhook-tazele", _vadesi_gelenleri_isle, esz=1)


def _vadesi_gelenleri_isle() -> None:
    teslimatlari_isle([[i, None] for i in vadesi_gelen_teslimat_idleri(limit=KUYRUK_PARTI)])


def teslimatlari_isle(ciftler: list[list[int | None]]) -> None:
    """The multi-delivery task's work: `teslimat_isle` for each [delivery id, endpoint id or None],
    with the missing endpoint ids looked up in one query."""
    eksik = [t for t, e in ciftler if e is None]
    bulunan = dict(Teslimat.objects.filter(pk__in=eksik).values_list("id", "endpoint_id")) if eksik else {}
    for teslimat_id, endpoint_id in ciftler:
        endpoint_id = endpoint_id or bulunan.get(teslimat_id)
        if endpoint_id is not None:
            teslimat_isle(teslimat_id=teslimat_id, endpoint_id=endpoint_id)


def _dene(teslimat_idleri: list[int], oturum, devam) -> TopluSonuc:
    return teslimatlari_dene(teslimat_idleri, oturum=oturum, devam=devam)


def _bekleyenleri_tazele(teslimat_idleri: list[int]) -> None:
    Teslimat.objects.filter(pk__in=teslimat_idleri, durum=Teslimat.Durum.BEKLIYOR).update(
        kuyruga_alinma=timezone.now())


def sonraki_denemeyi_kuyruga_al(teslimat: Teslimat) -> None:
    """After an attempt: a short wait goes back on the broker (without one: on the runner's timer).

    Short waits ride on the broker's countdown; long ones (hours) are left to the sweep, since a
    Redis broker re-delivers unacked ETA messages after its visibility timeout. In eager mode with
    the pool off (tests) a countdown would run at once, so retries wait for the sweep there.
    """
    if teslimat.durum != Teslimat.Durum.BEKLIYOR or teslimat.sonraki_deneme is None:
        return
    bekleme = (teslimat.sonraki_deneme - timezone.now()).total_seconds()
    if bekleme > settings.WEBHOOK_ETA_MAX_SECONDS:
        return
    if yerel_havuz():
        kosucu().sonra(bekleme, _havuza_ver, teslimat.pk, teslimat.endpoint_id)
    elif broker_var():
        teslimata_gonder([teslimat.pk], countdown=max(0.0, bekleme), endpointler={teslimat.pk: teslimat.endpoint_id})


def vadesi_gelenleri_kuyruga_al() -> int:
    """The sweep: queue deliveries that have been due for longer than WEBHOOK_SWEEP_GRACE_SECONDS
    and are neither being attempted nor queued by this sweep recently. Returns how many."""
    simdi = timezone.now()
    sinir = simdi - timedelta(seconds=settings.WEBHOOK_SWEEP_GRACE_SECONDS)
    endpointler = dict(
        Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR, sonraki_deneme__lte=sinir)
        .filter(bos_kilit(simdi))
        .filter(Q(kuyruga_alinma__isnull=True) | Q(kuyruga_alinma__lte=sinir))
        .order_by("sonraki_deneme")
        .values_list("id", "endpoint_id")[:KUYRUK_PARTI]
    )
    ids = list(endpointler)
    if not ids:
        return 0
    Teslimat.objects.filter(pk__in=ids).update(kuyruga_alinma=simdi)
    if not teslimata_gonder(ids, endpointler=endpointler):
        Teslimat.objects.filter(pk__in=ids).update(kuyruga_alinma=None)
        return 0
    return len(ids)
