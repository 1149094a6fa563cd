from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class BekleyenDosyaSilme(models.Model):
    """A file in storage whose row is gone (an erasure, retention, a deleted tenant), written in
    the transaction that deleted the row. The file itself is removed after commit, and the row
    with it; a crash between the two leaves the row, and the sweep (`gizlilik.dosya_supurge`)
    finishes the job. A rollback takes the row back with everything else, so no file of a kept
    row is ever removed. No foreign key: it outlives its tenant."""

    ad = models.CharField(_("depodaki ad"), max_length=255)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("silinecek dosya")
        verbose_name_plural = _("silinecek dosyalar")

    def __str__(self):
        return self.ad
