from django.db import models
from django.utils import timezone

from supportdesk.core.kapsam import KapsamliQuerySet


class TicketYanitQuerySet(KapsamliQuerySet):
    # A reply belongs to its ticket's tenant and visitor.
    musteri_alani = "ticket__musteri"
    ziyaretci_alani = "ticket__ziyaretci_id"


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

    class Kanal(models.TextChoices):
        WIDGET = "widget", "Widget"
        API = "api", "API"
        EPOSTA = "eposta", "E-posta"

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="ticketlar", db_index=True)
    ziyaretci_id = models.CharField("ziyaretçi", max_length=128)
    konu = models.CharField("konu", max_length=200)
    durum = models.CharField("durum", max_length=12, choices=Durum.choices, default=Durum.ACIK)
    oncelik = models.CharField("öncelik", max_length=8, choices=Oncelik.choices, default=Oncelik.NORMAL)
    ad = models.CharField("ad", max_length=150, blank=True)
    email = models.EmailField("e-posta", blank=True)
    # Where the ticket came from; `eposta`: a mail to the tenant's own address (CONTRACT 14).
    kanal = models.CharField("kanal", max_length=10, choices=Kanal.choices, default=Kanal.WIDGET)
    # The ticket's owner (CONTRACT 16): a member of the tenant, or nobody.
    operator = models.ForeignKey(
        "tenants.Kullanici", null=True, blank=True, on_delete=models.SET_NULL, related_name="sahip_oldugu_ticketlar",
        verbose_name="sorumlu operatör",
    )
    # Labels of the ticket's tenant (CONTRACT 16): operators' shapes only, never the widget's.
    etiketler = models.ManyToManyField("tenants.Etiket", blank=True, related_name="ticketlar", verbose_name="etiketler")
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)
    guncellenme = models.DateTimeField("güncellenme", default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

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
    ekler = models.ManyToManyField("dosyalar.Dosya", blank=True, related_name="ticket_yanitlari", verbose_name="ekler")
    zaman = models.DateTimeField("zaman", default=timezone.now)
    # An internal note (CONTRACT 16): in the operators' timeline only, never by any path to the visitor.
    ozel = models.BooleanField("iç not", default=False)

    objects = TicketYanitQuerySet.as_manager()

    class Meta:
        verbose_name = "ticket yanıtı"
        verbose_name_plural = "ticket yanıtları"
        ordering = ["zaman", "id"]

    def __str__(self) -> str:
        return f"{self.get_gonderen_display()}: {self.icerik[:40]}"
