"""A transaction PostgreSQL chose as a deadlock's victim (or a serialization failure) is run again
(CONTRACT 18 wave 4: an erasure racing the visitor's own activity answers 200, never 5xx; the
search indexer that loses retries too). Only the outermost block can be retried: inside another
transaction the error goes up to whoever owns it."""
import logging
import random
import time

from django.db import OperationalError, connection

logger = logging.getLogger("supportdesk.veritabani")

_YENIDEN_DENENIR = {"40P01", "40001"}  # deadlock_detected, serialization_failure
DENEME = 5


def yeniden_denenir_mi(hata: BaseException) -> bool:
    neden = hata.__cause__ or hata
    return getattr(neden, "sqlstate", None) in _YENIDEN_DENENIR


def kilitlenmede_yinele(islem, *args, **kwargs):
    """`islem(*args, **kwargs)`, itself one transaction, again (after a short random pause) when the
    database aborted it to break a deadlock, up to `DENEME` times."""
    for deneme in range(1, DENEME + 1):
        try:
            return islem(*args, **kwargs)
        except OperationalError as hata:
            if connection.in_atomic_block or not yeniden_denenir_mi(hata) or deneme == DENEME:
                raise
            logger.warning("Kilitlenme: işlem yeniden deneniyor (%s/%s): %s", deneme, DENEME, islem.__name__)
            time.sleep(random.uniform(0.01, 0.05) * deneme)
