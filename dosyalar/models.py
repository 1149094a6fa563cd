import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet

UZANTILAR = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "application/pdf": ".pdf",
    "text/plain": ".txt",
}


def dosya_yolu(instance: "Dosya", filename: str) -> str:
    """Stored name: random, so a URL cannot be guessed; the extension follows the sniffed type,
    never the client's file name (which is kept only as `ad`)."""
    uzanti = UZANTILAR.get(instance.mime_tipi, "")
    return f"yuklemeler/{timezone.now():%Y/%m}/{secrets.token_urlsafe(24)}{uzanti}"


class DosyaQuerySet(KapsamliQuerySet):
    def sahipsiz(self) -> "DosyaQuerySet":
        """Uploads nothing refers to. Whatever points at an upload (a ticket reply's attachments,
        a chat message's `ek`, the next feature's) is a reverse relation of the model, so this app
        tells used from abandoned without knowing any of those features."""
        qs = self
        for iliski in _gelen_iliskiler(self.model):
            kullanan = iliski.related_model._base_manager.filter(**{iliski.field.name: models.OuterRef("pk")})
            qs = qs.exclude(models.Exists(kullanan))
        return qs


def _gelen_iliskiler(model) -> list:
    # Hidden ones too (`related_name="+"`, as chat's `ek`); an M2M is counted once, by its own
    # relation rather than by the FK of its auto-created through table.
    return [
        f for f in model._meta.get_fields(include_hidden=True)
        if f.auto_created and not f.concrete and f.is_relation and not f.related_model._meta.auto_created
    ]


class Dosya(models.Model):
    """A visitor's upload (CONTRACT 5). Attachable by id only by the same visitor of the same tenant.
    An operator's upload (the console) has `yukleyen` set and an empty `ziyaretci_id`, which no
    visitor id can be, and is attachable only by that operator within that tenant."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="dosyalar", db_index=True,
        verbose_name=_("proje"))
    ziyaretci_id = models.CharField(_("ziyaretçi"), max_length=128, blank=True)
    yukleyen = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("yükleyen operatör"),
    )
    dosya = models.FileField(_("dosya"), upload_to=dosya_yolu, max_length=255)
    ad = models.CharField(_("ad"), max_length=255)
    boyut = models.PositiveBigIntegerField(_("boyut (bayt)"))
    mime_tipi = models.CharField(_("MIME tipi"), max_length=64)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = DosyaQuerySet.as_manager()

    class Meta:
        # The table kept its name when the model moved here from `tickets` (no data migration).
        db_table = "tickets_dosya"
        verbose_name = _("dosya")
        verbose_name_plural = _("dosyalar")
        indexes = [models.Index(fields=["musteri", "ziyaretci_id"], name="dosya_ziyaretci_idx")]

    def __str__(self) -> str:
        return self.ad
