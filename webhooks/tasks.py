"""Thin Celery tasks: ids in, a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import kuyruk, teslimat


@shared_task(name=kuyruk.TESLIMAT_GOREVI, ignore_result=True, acks_late=True)
def teslimat_gonder(teslimat_id: int, endpoint_id: int | None = None) -> None:
    """One attempt of one delivery, handed to the process's per-endpoint pool (kuyruk.teslimat_isle).
    A duplicate or stale message does nothing (see teslimat_dene)."""
    kuyruk.teslimat_isle(teslimat_id=teslimat_id, endpoint_id=endpoint_id)


@shared_task(name=kuyruk.TOPLU_TESLIMAT_GOREVI, ignore_result=True, acks_late=True)
def teslimatlar_gonder(ciftler: list[list[int | None]]) -> None:
    """Several deliveries ([delivery id, endpoint id or None] each), handed to the pool as
    `teslimat_gonder` hands one: one broker message for an event's endpoints or a sweep's 100."""
    kuyruk.teslimatlari_isle(ciftler)


@shared_task(name="webhooks.vadesi_gelenleri_gonder", ignore_result=True)
def vadesi_gelenleri_gonder() -> int:
    """Beat: queue what is due but was never queued (broker down at commit, worker killed)."""
    return kuyruk.vadesi_gelenleri_kuyruga_al()


@shared_task(name="webhooks.eski_olaylari_temizle", ignore_result=True)
def eski_olaylari_temizle() -> int:
    """Beat, daily: finished events past the retention period go."""
    return teslimat.eski_olaylari_temizle()
