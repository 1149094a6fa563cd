import secrets
import uuid
from datetime import UTC

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet
from supportdesk.core.olaylar import OLAYLAR


def yeni_gizli_anahtar() -> str:
    """Signing secret of an endpoint (CONTRACT 7): shown to the tenant, used for HMAC-SHA256."""
    return "whsec_" + secrets.token_hex(32)


class Olay(models.Model):
    """Outbox row: one event, written in the same transaction as the change that causes it."""

    # The publisher's events (one list, `supportdesk.core.olaylar.OLAYLAR`) plus `webhook_test`,
    # sent only by the portal's "send test event" to one endpoint, never by the domain.
    Tip = models.TextChoices("Tip", [(o.upper(), o) for o in (*OLAYLAR, "webhook_test")])

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="olaylar", db_index=True,
        verbose_name=_("proje"))
    olay = models.CharField(max_length=32, choices=Tip.choices, db_index=True, verbose_name=_("olay"))
    zaman = models.DateTimeField(default=timezone.now, db_index=True, verbose_name=_("zaman"))
    veri = models.JSONField(default=dict, verbose_name=_("veri"))

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("olay")
        verbose_name_plural = _("olaylar")
        ordering = ["-zaman"]

    def __str__(self):
        return f"{self.olay} #{self.id}"

    def zarf(self) -> dict:
        """The webhook payload envelope of spec 2.7."""
        return {"olay": self.olay, "zaman": self.zaman.astimezone(UTC).isoformat(), "veri": self.veri}


class WebhookEndpoint(models.Model):
    """A tenant's delivery target (CONTRACT 7). `olaylar` empty means every event."""

    musteri = models.ForeignKey(
        "tenants.Musteri", on_delete=models.CASCADE, related_name="webhook_endpointleri", db_index=True, verbose_name=_("proje")
    )
    url = models.CharField(_("adres"), max_length=500)
    gizli_anahtar = models.CharField(_("imza anahtarı"), max_length=128, default=yeni_gizli_anahtar)
    olaylar = models.JSONField(_("abone olunan olaylar"), default=list, blank=True)
    aktif = models.BooleanField(_("aktif"), default=True, db_index=True)
    # Start of the current run of failed attempts; cleared by any success. Drives the
    # "failing for 3 days running -> disabled" rule.
    hata_baslangici = models.DateTimeField(_("ardışık hata başlangıcı"), null=True, blank=True)
    devre_disi_nedeni = models.CharField(_("devre dışı nedeni"), max_length=300, blank=True, default="")
    devre_disi_zamani = models.DateTimeField(_("devre dışı kalma zamanı"), null=True, blank=True)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)
    guncellenme = models.DateTimeField(_("güncellenme"), auto_now=True)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("webhook uç noktası")
        verbose_name_plural = _("webhook uç noktaları")
        ordering = ["id"]

    def __str__(self):
        return f"{self.url} (#{self.pk})"

    def abone_mi(self, olay: str) -> bool:
        return not self.olaylar or olay in self.olaylar


class Teslimat(models.Model):
    """One event to one endpoint: created with the event (same transaction), then attempted
    until a 2xx or the attempts run out."""

    class Durum(models.TextChoices):
        BEKLIYOR = "bekliyor", _("Bekliyor")
        TESLIM_EDILDI = "teslim_edildi", _("Teslim edildi")
        BASARISIZ = "basarisiz", _("Başarısız")

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", db_index=True,
        verbose_name=_("proje"))
    olay = models.ForeignKey(Olay, on_delete=models.CASCADE, related_name="teslimatlar", verbose_name=_("olay"))
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="teslimatlar",
        verbose_name=_("uç nokta"))
    durum = models.CharField(_("durum"), max_length=16, choices=Durum.choices, default=Durum.BEKLIYOR, db_index=True)
    deneme_sayisi = models.PositiveSmallIntegerField(_("deneme sayısı"), default=0)
    sonraki_deneme = models.DateTimeField(_("sonraki deneme"), null=True, blank=True, default=timezone.now)
    # Lease of the worker making an attempt: another worker (or the sweep) leaves it alone
    # until it expires, so a killed worker's delivery becomes due again by itself.
    kilit_bitis = models.DateTimeField(null=True, blank=True, verbose_name=_("kilit bitişi"))
    # Last time the sweep queued it: the sweep skips it for a grace period, so a busy worker
    # does not get the same delivery queued again every few seconds.
    kuyruga_alinma = models.DateTimeField(null=True, blank=True, verbose_name=_("kuyruğa alınma"))
    son_durum_kodu = models.PositiveSmallIntegerField(_("son durum kodu"), null=True, blank=True)
    son_hata = models.CharField(_("son hata"), max_length=500, blank=True, default="")
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now, db_index=True)
    tamamlanma = models.DateTimeField(_("tamamlanma"), null=True, blank=True)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("teslimat")
        verbose_name_plural = _("teslimatlar")
        ordering = ["-olusturulma", "-id"]
        constraints = [models.UniqueConstraint(fields=["olay", "endpoint"], name="teslimat_olay_endpoint_tekil")]
        indexes = [models.Index(fields=["durum", "sonraki_deneme"], name="teslimat_vade_idx")]

    def __str__(self):
        return f"{self.olay_id} -> {self.endpoint_id} ({self.durum})"


class TeslimatDenemesi(models.Model):
    """The log line of one HTTP attempt (CONTRACT 7: status code, duration, error)."""

    teslimat = models.ForeignKey(Teslimat, on_delete=models.CASCADE, related_name="denemeler", verbose_name=_("teslimat"))
    numara = models.PositiveSmallIntegerField(_("deneme"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)
    durum_kodu = models.PositiveSmallIntegerField(_("durum kodu"), null=True, blank=True)
    sure_ms = models.PositiveIntegerField(_("süre (ms)"), default=0)
    hata = models.CharField(_("hata"), max_length=500, blank=True, default="")
    basarili = models.BooleanField(_("başarılı"), default=False)

    class Meta:
        verbose_name = _("teslimat denemesi")
        verbose_name_plural = _("teslimat denemeleri")
        ordering = ["teslimat_id", "zaman", "id"]

    def __str__(self):
        return f"{self.teslimat_id}#{self.numara} {self.durum_kodu or self.hata[:40]}"
