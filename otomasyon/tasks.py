"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import services


@shared_task(name="otomasyon.calismalari_buda", ignore_result=True)
def calismalari_buda() -> int:
    """Beat, daily: a rule's runs beyond its newest 100, or older than its tenant's retention, go."""
    return services.calismalari_buda()
