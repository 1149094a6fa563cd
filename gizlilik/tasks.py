"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import services


@shared_task(name="gizlilik.saklama_uygula", ignore_result=True)
def saklama_uygula() -> dict:
    """Beat, daily: what tenants with `saklama_gun` keep no longer goes (CONTRACT 18)."""
    return services.saklama_uygula()


@shared_task(name="gizlilik.dosya_supurge", ignore_result=True)
def dosya_supurge() -> int:
    """Beat, hourly: files whose rows are gone but whose after-commit removal never ran (a crash)."""
    return services.dosya_supurge()
