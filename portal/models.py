from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SelfServisProje(models.Model):
    """A project a user opened themselves in the portal (sign-up or "new project").

    The 3-per-24-hours limit of spec 8 is about these only: projects a platform admin provisions
    for someone (`musteri_olustur --sahip`) do not use up the owner's allowance. The row outlives
    its project (SET_NULL), so deleting a project never gives the allowance back.
    """

    kullanici = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("kullanıcı"))
    musteri = models.OneToOneField("tenants.Musteri", null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("proje"))
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    class Meta:
        verbose_name = _("self-servis proje")
        verbose_name_plural = _("self-servis projeler")
        indexes = [models.Index(fields=["kullanici", "olusturulma"], name="selfservis_kullanici_zaman")]

    def __str__(self):
        return f"{self.kullanici_id} → {self.musteri_id} ({self.olusturulma:%Y-%m-%d %H:%M})"


class BekleyenKayit(models.Model):
    """A sign-up waiting for its address to be confirmed (the link mailed to it).

    The sign-up page answers the same whether the address has an account or not, so an account
    is opened only from this mailed link: the account and its first project are created when
    the link is opened, from what the form took (the password already hashed). Only the
    token's SHA-256 is kept, as for invitations.
    """

    email = models.EmailField(_("e-posta"), max_length=254, db_index=True)
    sifre = models.CharField(_("şifre özeti"), max_length=128)
    firma_adi = models.CharField(_("proje adı"), max_length=120)
    ad = models.CharField(_("ad"), max_length=150, blank=True, default="")
    # The sign-up page's language (CONTRACT 19): the account's `dil` when the link opens it.
    dil = models.CharField(_("dil"), max_length=8, blank=True, default="", db_default="")
    token_ozeti = models.CharField(_("token özeti"), max_length=64, unique=True)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("bekleyen kayıt")
        verbose_name_plural = _("bekleyen kayıtlar")

    def __str__(self):
        return f"{self.email} ({self.olusturulma:%Y-%m-%d %H:%M})"
