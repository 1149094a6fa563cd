from django.db import models
from django.utils.translation import gettext_lazy as _


class GorunumSayaciQuerySet(models.QuerySet):
    def kapsamda(self, musteri_idleri):
        """The counters of the caller's tenants (the one scoping rule, HOUSE-STYLE 21)."""
        return self.filter(musteri_id__in=musteri_idleri)


class GorunumSayaci(models.Model):
    """How many chats or tickets a view holds (CONTRACT 24, `GET /operator/gorunumler`), kept by
    PostgreSQL triggers on `chat_oturum` and `tickets_ticket` (panel/migrations/0001): every row
    that enters or leaves a view adds a row of +1 or -1 here, whoever writes it (an action, a bulk
    `update`, the admin, retention, an erasure, a cascade). Insert-only, so two chats of one tenant
    never wait for one counter row. A view's count is the sum of its key's rows; the runner folds
    them into one row per key (`panel.sayaclar.sikistir`) and recounts from the base tables now
    and then (`yeniden_say`). The key: tenant, kind, view, and the operator for `benim` (null for
    the shared views). No foreign keys: a tenant's deletion cascades to its chats, whose triggers
    then write here (their sum for a deleted tenant is 0, and folding drops it)."""

    class Tur(models.TextChoices):
        CHAT = "chat", _("Sohbet")
        TICKET = "ticket", _("Talep")

    musteri_id = models.BigIntegerField(_("proje"))
    tur = models.CharField(_("tür"), max_length=6, choices=Tur.choices)
    gorunum = models.CharField(_("görünüm"), max_length=10)
    operator_id = models.BigIntegerField(_("operatör"), null=True, blank=True)
    sayi = models.IntegerField(_("sayı"))

    objects = GorunumSayaciQuerySet.as_manager()

    class Meta:
        verbose_name = _("görünüm sayacı")
        verbose_name_plural = _("görünüm sayaçları")
        indexes = [models.Index(fields=["musteri_id", "tur", "gorunum", "operator_id"], name="gorunum_sayaci_anahtar_idx")]

    def __str__(self) -> str:
        return f"{self.musteri_id}/{self.tur}/{self.gorunum}/{self.operator_id or '-'}: {self.sayi:+d}"
