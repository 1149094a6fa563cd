"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import services


@shared_task(name="denetim.eski_kayitlari_temizle", ignore_result=True)
def eski_kayitlari_temizle() -> int:
    """Beat, daily: audit entries older than a year go."""
    return services.eski_kayitlari_temizle()
