"""Thin Celery tasks of the service's own plumbing (HOUSE-STYLE 11)."""
from celery import shared_task

from . import yedek


@shared_task(name="yedek.zamanli_yedek", ignore_result=True)
def zamanli_yedek() -> None:
    # Off unless YEDEK_KLASORU is set. Not retried: tomorrow's run is the next try, and a failure
    # is logged with its cause (the task's error) for alerting.
    yedek.zamanli_yedek()
