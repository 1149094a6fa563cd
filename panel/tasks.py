"""Thin Celery tasks: a service call, nothing else (HOUSE-STYLE 11)."""
from celery import shared_task

from . import sayaclar


@shared_task(name="panel.gorunum_sayaclarini_sikistir", ignore_result=True)
def gorunum_sayaclarini_sikistir() -> dict:
    """Beat ("gorunum-sayaclari-sikistir"): the views' +1/-1 rows folded per key (issue 43)."""
    return sayaclar.sikistir()


@shared_task(name="panel.gorunum_sayaclarini_yeniden_say", ignore_result=True)
def gorunum_sayaclarini_yeniden_say() -> dict:
    """Beat ("gorunum-sayaclari-yeniden-say"): the views' counters recounted from the base tables."""
    return sayaclar.yeniden_say()
