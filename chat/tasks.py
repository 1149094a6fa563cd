"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import services


@shared_task(name="chat.zaman_asimlari", ignore_result=True)
def zaman_asimlari() -> dict:
    """Beat, every minute: the ticket offer for chats nobody can answer, and silent chats closed
    (each tenant's `bekleme_zaman_asimi_dk` and `sessiz_kapatma_dk`)."""
    return services.chat_zaman_asimlarini_isle()
