import secrets

from django.db import models
from django.utils import timezone


def dosya_yolu(instance: "Dosya", filename: str) -> str:
    """Stored name: random, so a URL cannot be guessed; the extension follows the sniffed type,
    never the client's file name (which is kept only as `ad`)."""
    uzanti = UZANTILAR.get(instance.mime_tipi, "")
    return f"yuklemeler/{timezone.now():%Y/%m}/{secrets.token_urlsafe(24)}{uzanti}"


UZANTILAR = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "application/pdf": ".pdf",
    "text/plain": ".txt",
}


class Dosya(models.Model):
    """A visitor's upload (CONTRACT 5). Attachable by id only by the same visitor of the same tenant."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="dosyalar", db_index=True)
    ziyaretci_id = models.CharField("ziyaretçi", max_length=128)
    dosya = models.FileField("dosya", upload_to=dosya_yolu, max_length=255)
    ad = models.CharField("ad", max_length=255)
    boyut = models.PositiveBigIntegerField("boyut (bayt)")
    mime_tipi = models.CharField("MIME tipi", max_length=64)
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)

    class Meta:
        verbose_name = "dosya"
        verbose_name_plural = "dosyalar"
        indexes = [models.Index(fields=["musteri", "ziyaretci_id"], name="dosya_ziyaretci_idx")]

    def __str__(self) -> str:
        return self.ad


class Ticket(models.Model):
    class Durum(models.TextChoices):
        ACIK = "acik", "Açık"
        BEKLEMEDE = "beklemede", "Beklemede"
        COZULDU = "cozuldu", "Çözüldü"
        KAPANDI = "kapandi", "Kapandı"

    class Oncelik(models.TextChoices):
        DUSUK = "dusuk", "Düşük"
        NORMAL = "normal", "Normal"
        YUKSEK = "yuksek", "Yüksek"
        ACIL = "acil", "Acil"

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="ticketlar", db_index=True)
    ziyaretci_id = models.CharField("ziyaretçi", max_length=128)
    konu = models.CharField("konu", max_length=200)
    durum = models.CharField("durum", max_length=12, choices=Durum.choices, default=Durum.ACIK)
    oncelik = models.CharField("öncelik", max_length=8, choices=Oncelik.choices, default=Oncelik.NORMAL)
    ad = models.CharField("ad", max_length=150, blank=True)
    email = models.EmailField("e-posta", blank=True)
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)
    guncellenme = models.DateTimeField("güncellenme", default=timezone.now)

    class Meta:
        verbose_name = "ticket"
        verbose_name_plural = "ticketlar"
        indexes = [
            models.Index(fields=["musteri", "ziyaretci_id", "olusturulma"], name="ticket_ziyaretci_idx"),
            models.Index(fields=["musteri", "durum"], name="ticket_durum_idx"),
            models.Index(fields=["olusturulma", "id"], name="ticket_sira_idx"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.konu}"


class TicketYanit(models.Model):
    class Gonderen(models.TextChoices):
        ZIYARETCI = "ziyaretci", "Ziyaretçi"
        OPERATOR = "operator", "Operatör"

    ticket = models.ForeignKey(Ticket, on_delete=models.CASCADE, related_name="yanitlar")
    gonderen = models.CharField("gönderen", max_length=12, choices=Gonderen.choices)
    operator = models.ForeignKey(
        "tenants.Kullanici", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name="operatör"
    )
    icerik = models.TextField("içerik")
    ekler = models.ManyToManyField(Dosya, blank=True, related_name="ticket_yanitlari", verbose_name="ekler")
    zaman = models.DateTimeField("zaman", default=timezone.now)

    class Meta:
        verbose_name = "ticket yanıtı"
        verbose_name_plural = "ticket yanıtları"
        ordering = ["zaman", "id"]

    def __str__(self) -> str:
        return f"{self.get_gonderen_display()}: {self.icerik[:40]}"
