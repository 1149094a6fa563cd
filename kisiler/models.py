from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.girdi import ZIYARETCI_ID_MAX
from supportdesk.core.kapsam import KapsamliQuerySet

AD_MAX = 100
TELEFON_MAX = 40
SIRKET_MAX = 100


def eposta_anahtari(email: str | None) -> str:
    """The one way two e-mails are compared for a contact (`Kisi.email_anahtari`): trimmed, lower case."""
    return (email or "").strip().lower()


class Kisi(models.Model):
    """A contact (CONTRACT 25): the person behind one or more visitor ids of one tenant.

    `email_anahtari` is the e-mail as two identities are compared (lower case): a signed identity
    with the same e-mail joins the contact that has it. `nitelikler` holds the values of the
    tenant's declared attributes (`NitelikTanimi`), checked by the service on every write."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    ad = models.CharField(_("ad"), max_length=AD_MAX, blank=True, default="")
    email = models.CharField(_("e-posta"), max_length=254, blank=True, default="")
    email_anahtari = models.CharField(_("e-posta anahtarı"), max_length=254, blank=True, default="")
    telefon = models.CharField(_("telefon"), max_length=TELEFON_MAX, blank=True, default="")
    sirket = models.CharField(_("şirket"), max_length=SIRKET_MAX, blank=True, default="")
    nitelikler = models.JSONField(_("nitelikler"), default=dict, blank=True)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)
    guncellenme = models.DateTimeField(_("güncellenme"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("kişi")
        verbose_name_plural = _("kişiler")
        indexes = [
            models.Index(fields=["musteri", "-id"], name="kisi_musteri_id"),
            models.Index(fields=["musteri", "email_anahtari"], name="kisi_musteri_email"),
        ]

    def __str__(self):
        return self.ad or self.email or f"#{self.pk}"


class KisiZiyaretci(models.Model):
    """A visitor id of a contact: one contact per `(musteri, ziyaretci_id)` (the unique index is
    also what settles two racing first chats of one visitor)."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    kisi = models.ForeignKey(Kisi, on_delete=models.CASCADE, related_name="ziyaretciler", verbose_name=_("kişi"))
    ziyaretci_id = models.CharField(_("ziyaretçi kimliği"), max_length=ZIYARETCI_ID_MAX)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("kişinin ziyaretçi kimliği")
        verbose_name_plural = _("kişilerin ziyaretçi kimlikleri")
        constraints = [models.UniqueConstraint(fields=["musteri", "ziyaretci_id"], name="kisi_ziyaretci_tekil")]

    def __str__(self):
        return f"{self.ziyaretci_id} → {self.kisi_id}"


class NitelikTanimi(models.Model):
    """A typed attribute a tenant declares for its contacts (CONTRACT 25); the whole list is
    replaced at once (`PUT /operator/tenants/{id}/nitelikler`), in `sira` order."""

    class Tur(models.TextChoices):
        METIN = "metin"
        SAYI = "sayi"
        TARIH = "tarih"
        EVET_HAYIR = "evet_hayir"
        SECIM = "secim"

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    anahtar = models.CharField(_("anahtar"), max_length=40)
    ad = models.CharField(_("ad"), max_length=60)
    tur = models.CharField(_("tür"), max_length=12, choices=Tur.choices)
    secenekler = models.JSONField(_("seçenekler"), default=list, blank=True)
    sira = models.PositiveIntegerField(_("sıra"), default=0)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("nitelik tanımı")
        verbose_name_plural = _("nitelik tanımları")
        ordering = ["sira", "id"]
        constraints = [models.UniqueConstraint(fields=["musteri", "anahtar"], name="nitelik_anahtar_tekil")]

    def __str__(self):
        return self.anahtar
