"""Thin Celery tasks: ids in, a call of `gonderim`, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from supportdesk.core.kosucu import broker_var

from . import gonderim


@shared_task(name="eposta.gonder", ignore_result=True, acks_late=True)
def eposta_gonder(eposta_id: int) -> None:
    """One attempt; a failure queues the next with the row's backoff. Without a broker (eager
    mode) a retry is left to the sweep, since an eager countdown would run at once, in a loop."""
    bekleme = gonderim.eposta_gonder(eposta_id=eposta_id)
    if bekleme is not None and broker_var():
        eposta_gonder.apply_async((eposta_id,), countdown=bekleme)


@shared_task(name="eposta.vadesi_gelenleri_gonder", ignore_result=True)
def vadesi_gelenleri_gonder() -> int:
    """Beat: send what is due but whose task was lost (broker down at commit, worker killed)."""
    return gonderim.vadesi_gelenleri_gonder()
