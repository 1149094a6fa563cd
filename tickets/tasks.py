"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import services, sla


@shared_task(name="tickets.sla_tara", ignore_result=True)
def sla_tara() -> dict:
    """Beat (CELERY_BEAT_SCHEDULE "sla-tarama"): SLA warnings and breaches now due (CONTRACT 17)."""
    return sla.tara()


@shared_task(name="tickets.ertelenenleri_uyandir", ignore_result=True)
def ertelenenleri_uyandir() -> int:
    """Beat ("ertelenenleri-uyandir"): snoozed tickets whose time has come (CONTRACT 24)."""
    return services.ertelenen_ticketlari_uyandir()
