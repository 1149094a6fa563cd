"""Writes of uploads: storing a checked file, and removing abandoned ones (CONTRACT 5).

Any feature that takes a file from a visitor (widget, and later operator console, e-mail
attachments) stores it through `dosya_yukle` and attaches the returned `Dosya` by reference."""
import logging
from datetime import timedelta
from functools import partial

from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import DesteklenmeyenDosya, DosyaCokBuyuk, GecersizIstek
from tenants.models import Musteri

from .models import Dosya
from .yukleme import EN_BUYUK_BOYUT, mime_tipi_bul

logger = logging.getLogger("supportdesk.dosyalar")

AD_MAX = 255


def dosya_yukle(*, musteri: Musteri, ziyaretci_id: str, dosya: File, ad: str | None = None,
                yukleyen=None) -> Dosya:
    """Store an upload through the storage API after checking size and content type: a
    visitor's (`ziyaretci_id`) or an operator's (`yukleyen`, with `ziyaretci_id` empty).
    `ad` is the name shown back (defaults to the file's own name, reduced to its last part)."""
    boyut = dosya.size
    if boyut is None or boyut > EN_BUYUK_BOYUT:
        raise DosyaCokBuyuk()
    if boyut == 0:
        raise GecersizIstek(_("Dosya boş."), alanlar={"dosya": _("Boş dosya yüklenemez.")})
    mime_tipi = mime_tipi_bul(dosya)
    if mime_tipi is None:
        raise DesteklenmeyenDosya()
    ad = _dosya_adi(ad if ad is not None else getattr(dosya, "name", ""))
    kayit = Dosya(musteri=musteri, ziyaretci_id=ziyaretci_id, ad=ad, boyut=boyut, mime_tipi=mime_tipi,
                  yukleyen=yukleyen)
    # The storage write happens in save(); if the row then fails, the stored file is removed so
    # nothing is left behind on error.
    try:
        with transaction.atomic():
            kayit.dosya.save(ad, dosya, save=False)
            kayit.save()
    except Exception:
        if kayit.dosya.name:
            kayit.dosya.storage.delete(kayit.dosya.name)
        raise
    return kayit


def _dosya_adi(ad: str) -> str:
    # Only the last path component, printable, bounded: the name is shown back to people.
    ad = (ad or "").replace("\\", "/").rsplit("/", 1)[-1]
    ad = "".join(ch for ch in ad if ch.isprintable()).strip()
    return (ad or "dosya")[:AD_MAX]


def sahipsiz_dosyalari_temizle(*, gun: int = 7) -> int:
    """Delete uploads older than `gun` days that nothing refers to (`DosyaQuerySet.sahipsiz`),
    with their stored files. Abandoned uploads (the visitor never sent the form) would otherwise
    pile up."""
    sinir = timezone.now() - timedelta(days=gun)
    sahipsiz = Dosya.objects.filter(olusturulma__lt=sinir).sahipsiz()
    silinen = 0
    for dosya in sahipsiz.iterator(chunk_size=500):
        with transaction.atomic():
            adi = dosya.dosya.name
            dosya.delete()
            # The stored bytes go only after the row is gone for good.
            transaction.on_commit(partial(dosya.dosya.storage.delete, adi))
        silinen += 1
    logger.info("Sahipsiz %s dosya silindi.", silinen)
    return silinen
