"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task
from django.conf import settings

from . import services


@shared_task(name="dosyalar.sahipsiz_dosyalari_temizle", ignore_result=True)
def sahipsiz_dosyalari_temizle() -> int:
    """Beat, daily: uploads never attached to anything, past the retention period, go."""
    return services.sahipsiz_dosyalari_temizle(gun=getattr(settings, "DOSYA_SAHIPSIZ_SAKLAMA_GUN", 7))
