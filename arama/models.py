"""The operators' search index (CONTRACT 16, issue 27): one row per chat and per ticket, holding
what search looks at (visitor name, e-mail and id, message / reply / note text, ticket subject),
plain for snippets and Turkish-folded for matching (`arama.metin`), and on PostgreSQL a tsvector
with a GIN index (migration 0002). Rows are derived data: `services` rebuilds a row from its chat
or ticket whenever a domain event says it changed; the foreign keys cascade, so deleting a chat or
a ticket (privacy erasure, retention, a tenant's deletion) deletes its row too."""
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet


class AramaKaydi(models.Model):
    class Tur(models.TextChoices):
        CHAT = "chat", "Sohbet"
        TICKET = "ticket", "Ticket"

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    tur = models.CharField(_("tür"), max_length=6, choices=Tur.choices)
    # Exactly one of the two is set, by `tur`; the cascade removes the row with its document.
    oturum = models.OneToOneField("chat.Oturum", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("sohbet"))
    ticket = models.OneToOneField("tickets.Ticket", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("ticket"))
    # The chat's or ticket's id, whichever it is (the result's `id`).
    belge_id = models.BigIntegerField(_("belge"))
    ziyaretci_id = models.CharField(_("ziyaretçi"), max_length=128)
    baslik = models.CharField(_("başlık"), max_length=200, blank=True, default="")
    # Plain text, for snippets: the header (subject, visitor name, e-mail, id) and the body
    # (messages, replies, notes; one line each).
    ust_metin = models.TextField(blank=True, default="", verbose_name=_("üst metin"))
    govde_metin = models.TextField(blank=True, default="", verbose_name=_("gövde metni"))
    # Folded words, one space apart, with a space at each end (` sifre faturami `): what matches.
    katli_ust = models.TextField(blank=True, default=" ", verbose_name=_("katlanmış üst metin"))
    katli_govde = models.TextField(blank=True, default=" ", verbose_name=_("katlanmış gövde metni"))
    # PostgreSQL only: the folded words as a tsvector, header weight A, body weight B.
    vektor = SearchVectorField(null=True, editable=False, verbose_name=_("vektör"))
    zaman = models.DateTimeField(_("son etkinlik"), default=timezone.now)
    # A chat's row: the last message already in it (system lines included), so new messages are
    # appended to it (`services.chat_mesajlari_ekle`) instead of the chat being read again.
    son_mesaj_id = models.BigIntegerField(_("dizindeki son mesaj"), null=True, blank=True, editable=False)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("arama kaydı")
        verbose_name_plural = _("arama kayıtları")
        indexes = [
            models.Index(fields=["musteri", "ziyaretci_id"], name="arama_ziyaretci_idx"),
            models.Index(fields=["musteri", "tur", "-zaman"], name="arama_musteri_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(tur="chat", oturum__isnull=False, ticket__isnull=True)
                           | models.Q(tur="ticket", ticket__isnull=False, oturum__isnull=True)),
                name="arama_kaydi_tek_belge",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tur} #{self.belge_id}"


class AramaZiyaretci(models.Model):
    """A visitor's name and e-mail as its tenant's site last told them (customer-info, CONTRACT
    2.4): searched with each of the visitor's chats and tickets. Kept here, from the event
    `ziyaretci_profili_kaydedildi`, so the index needs nothing of the `context` app."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    ziyaretci_id = models.CharField(_("ziyaretçi"), max_length=128)
    ad = models.CharField(_("ad"), max_length=201, blank=True, default="")
    email = models.CharField(_("e-posta"), max_length=254, blank=True, default="")

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("aranan ziyaretçi")
        verbose_name_plural = _("aranan ziyaretçiler")
        constraints = [models.UniqueConstraint(fields=["musteri", "ziyaretci_id"], name="arama_ziyaretci_tekil")]

    def __str__(self) -> str:
        return self.ziyaretci_id


class AramaBekleyen(models.Model):
    """A rebuild of the index that could not be handed to a worker (the broker was unreachable when
    the change committed): without this the chat or ticket stayed unsearchable until it changed
    again. Written only on that failure, after the commit; the beat sweep `arama-bekleyenler` does
    the rebuild and deletes the row (`services.bekleyenleri_dizinle`)."""

    class Tur(models.TextChoices):
        CHAT = "chat", "Sohbet"
        TICKET = "ticket", "Ticket"
        ZIYARETCI = "ziyaretci", "Ziyaretçi"  # ceviri: yok (never shown: the model is not in the admin)

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    tur = models.CharField(_("tür"), max_length=9, choices=Tur.choices)
    # The chat or ticket (`chat`, `ticket`); for `ziyaretci`, what customer-info said (a newer
    # profile of the same visitor comes later in id order and wins).
    belge_id = models.BigIntegerField(_("belge"), null=True, blank=True)
    ziyaretci_id = models.CharField(_("ziyaretçi"), max_length=128, blank=True, default="")
    ad = models.CharField(_("ad"), max_length=201, blank=True, default="")
    email = models.CharField(_("e-posta"), max_length=254, blank=True, default="")
    olusturma = models.DateTimeField(default=timezone.now, verbose_name=_("oluşturulma"))

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("bekleyen dizinleme")
        verbose_name_plural = _("bekleyen dizinlemeler")

    def __str__(self) -> str:
        return f"{self.tur} {self.belge_id or self.ziyaretci_id}"
