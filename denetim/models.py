from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet

# CONTRACT 18: what the audit log records.
EYLEMLER = (
    "giris", "giris_basarisiz", "giris_kilitlendi", "ayar_degisti", "sla_degisti", "gorunum_degisti", "origin_degisti",
    "anahtar_yenilendi", "webhook_degisti", "uye_eklendi", "uye_rol_degisti", "uye_cikarildi",
    "etiket_olusturuldu", "etiket_degisti", "etiket_silindi", "ziyaretci_disa_aktarildi", "ziyaretci_silindi",
    "makale_yayinlandi", "makale_silindi",
    # issue 39.7: a member's chat cap, and the canned responses
    "uye_limit_degisti", "hazir_yanit_olusturuldu", "hazir_yanit_degisti", "hazir_yanit_silindi",
    "hazir_yanitlar_yuklendi",
    # CONTRACT 22: teams
    "ekip_degisti",
    # CONTRACT 25: contacts
    "kisi_birlesti",
    # CONTRACT 23: automation rules
    "kural_degisti",
)


class DenetimKaydi(models.Model):
    """One entry of a tenant's audit log. Append-only: no interface edits or deletes one (the admin
    is read-only, the API only lists), and on PostgreSQL a trigger refuses any UPDATE, and any
    DELETE but the year's purge and the deletion of the tenant itself (migration 0001, `silme_izni`).

    The user is kept as an id and the e-mail it had then (no foreign key): the entry outlives the
    account."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now, db_index=True)
    kullanici_id = models.BigIntegerField(_("kullanıcı"), null=True, blank=True)
    email = models.CharField(_("e-posta"), max_length=254, blank=True, default="")
    ip = models.GenericIPAddressField(_("IP adresi"), null=True, blank=True)
    eylem = models.CharField(_("eylem"), max_length=32, choices=[(e, e) for e in EYLEMLER])
    hedef = models.CharField(_("hedef"), max_length=200, blank=True, default="")
    ayrinti = models.JSONField(_("ayrıntı"), default=dict, blank=True)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("denetim kaydı")
        verbose_name_plural = _("denetim kayıtları")
        indexes = [
            models.Index(fields=["musteri", "-id"], name="denetim_musteri_idx"),
            models.Index(fields=["musteri", "eylem", "-id"], name="denetim_eylem_idx"),
        ]

    def __str__(self):
        return f"{self.zaman:%Y-%m-%d %H:%M} {self.eylem} {self.hedef}"


class DenetimKaydiGorunumu(DenetimKaydi):
    """The admin's read-only view of the log. A proxy, so that the admin knows the entries only
    under this name: deleting a tenant (whose cascade takes its log) is not refused for want of
    a permission to delete entries, which nobody has."""

    class Meta:
        proxy = True
        verbose_name = _("denetim kaydı")
        verbose_name_plural = _("denetim kayıtları")
