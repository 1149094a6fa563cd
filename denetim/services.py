"""The audit log's one deletion: entries older than `DENETIM_SAKLAMA_GUN` (a year), daily."""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import koruma
from .models import DenetimKaydi

PARTI = 5000


def eski_kayitlari_temizle(*, simdi=None) -> int:
    """Delete entries past the retention period, a batch per short transaction; idempotent, and
    two processes at once only share the work (SKIP LOCKED)."""
    sinir = (simdi or timezone.now()) - timedelta(days=settings.DENETIM_SAKLAMA_GUN)
    toplam = 0
    while True:
        with transaction.atomic():
            idler = list(DenetimKaydi.objects.select_for_update(skip_locked=True).filter(zaman__lt=sinir)
                         .order_by("id").values_list("id", flat=True)[:PARTI])
            if not idler:
                return toplam
            koruma.silme_izni()
            toplam += DenetimKaydi.objects.filter(id__in=idler).delete()[0]
