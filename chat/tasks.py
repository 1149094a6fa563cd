"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import atama, services, sla


@shared_task(name="chat.zaman_asimlari", ignore_result=True)
def zaman_asimlari() -> dict:
    """Beat, every minute: the ticket offer for chats nobody can answer, and silent chats closed
    (each tenant's `bekleme_zaman_asimi_dk` and `sessiz_kapatma_dk`)."""
    return services.chat_zaman_asimlarini_isle()


@shared_task(name="chat.atama_taramasi", ignore_result=True)
def atama_taramasi() -> dict:
    """Beat, every ATAMA_TARAMA_ARALIGI seconds: routing's timed rule (CONTRACT 15)."""
    return atama.atama_taramasi()


@shared_task(name="chat.ertelenenleri_uyandir", ignore_result=True)
def ertelenenleri_uyandir() -> int:
    """Beat ("ertelenenleri-uyandir"): snoozed chats whose time has come (CONTRACT 24)."""
    return services.ertelenen_oturumlari_uyandir()


@shared_task(name="chat.sla_tara", ignore_result=True)
def sla_tara() -> dict:
    """Beat (CELERY_BEAT_SCHEDULE "sohbet-sla-tarama", at the tickets' SLA sweep's interval): chats'
    first-response warnings and breaches now due (CONTRACT 17, 24)."""
    return sla.tara()
