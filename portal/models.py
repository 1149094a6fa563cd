from django.conf import settings
from django.db import models
from django.utils import timezone


class SelfServisProje(models.Model):
    """A project a user opened themselves in the portal (sign-up or "new project").

    The 3-per-24-hours limit of spec 8 is about these only: projects a platform admin provisions
    for someone (`musteri_olustur --sahip`) do not use up the owner's allowance. The row outlives
    its project (SET_NULL), so deleting a project never gives the allowance back.
    """

    kullanici = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    musteri = models.OneToOneField("tenants.Musteri", null=True, on_delete=models.SET_NULL, related_name="+")
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)

    class Meta:
        verbose_name = "self-servis proje"
        verbose_name_plural = "self-servis projeler"
        indexes = [models.Index(fields=["kullanici", "olusturulma"], name="selfservis_kullanici_zaman")]

    def __str__(self):
        return f"{self.kullanici_id} → {self.musteri_id} ({self.olusturulma:%Y-%m-%d %H:%M})"
