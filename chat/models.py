from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from supportdesk.core.kapsam import KapsamliQuerySet

MESAJ_MAX = 5000
ONIZLEME_MAX = 120


class Oturum(models.Model):
    """A chat session (CONTRACT 3): bekliyor -> aktif -> kapandi."""

    class Durum(models.TextChoices):
        BEKLIYOR = "bekliyor", pgettext_lazy("sohbet durumu", "Bekliyor")
        AKTIF = "aktif", _("Aktif")
        KAPANDI = "kapandi", _("Kapandı")

    class Kanal(models.TextChoices):
        WIDGET = "widget", _("Widget")
        API = "api", _("API")

    class Kapatan(models.TextChoices):
        ZIYARETCI = "ziyaretci", _("Ziyaretçi")
        OPERATOR = "operator", _("Operatör")
        SISTEM = "sistem", _("Sistem")

    ACIK_DURUMLAR = (Durum.BEKLIYOR, Durum.AKTIF)

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="oturumlar", db_index=True,
        verbose_name=_("proje"))
    ziyaretci_id = models.CharField(_("ziyaretçi"), max_length=128)
    ziyaretci_adi = models.CharField(_("ziyaretçi adı"), max_length=100, blank=True, default="")
    email = models.EmailField(_("e-posta"), max_length=254, blank=True, default="")
    kanal = models.CharField(_("kanal"), max_length=10, choices=Kanal.choices, default=Kanal.WIDGET)
    # The chat's language, fixed when it starts (the widget's: supportdesk.core.dil.widget_dili):
    # its `sistem` messages and the visitor's mails (transcript) are written in it (CONTRACT 19).
    dil = models.CharField(_("dil"), max_length=8, default="tr", db_default="tr")
    durum = models.CharField(_("durum"), max_length=10, choices=Durum.choices, default=Durum.BEKLIYOR)
    operator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="oturumlar",
        verbose_name=_("operatör")
    )
    baslangic = models.DateTimeField(_("başlangıç"), default=timezone.now)
    kabul_zamani = models.DateTimeField(_("kabul"), null=True, blank=True)
    # The first operator message that is not a note (CONTRACT 17: accepting is no response), for
    # the chat's first-response target (`chat_ilk_yanit_sn`, tickets.sla) and the reports.
    ilk_yanit_zamani = models.DateTimeField(_("ilk yanıt"), null=True, blank=True)
    # The first-response clock (CONTRACT 17, 24; chat/sla.py), stored as a ticket's clocks are, so
    # the operator shape's `sla` and the sweep read the row alone: `""` (no target), `bekliyor`
    # (running; `_vade` due, `_uyari` the warning not yet sent), `gecikti` (running, breach
    # announced), `karsilandi` / `ihlal` (ended in time / late), `duraklatildi` (snoozed).
    sla_ilk_durum = models.CharField(_("SLA ilk yanıt durumu"), max_length=12, blank=True, default="", db_default="")
    sla_ilk_vade = models.DateTimeField(_("SLA ilk yanıt vadesi"), null=True, blank=True)
    sla_ilk_uyari = models.DateTimeField(_("SLA ilk yanıt uyarısı"), null=True, blank=True)
    # While the chat is snoozed (CONTRACT 24) its clock is paused (`duraklatildi`): the seconds it
    # had left, counted again from its wake (CONTRACT 17, wave 4: a paused clock keeps its time).
    sla_ilk_kalan_sn = models.IntegerField(_("SLA ilk yanıta kalan süre (sn)"), null=True, blank=True)
    bitis_zamani = models.DateTimeField(_("bitiş"), null=True, blank=True)
    kapatan = models.CharField(_("kapatan"), max_length=10, choices=Kapatan.choices, null=True, blank=True)
    puan = models.PositiveSmallIntegerField(_("puan"), null=True, blank=True)
    puan_yorumu = models.TextField(_("puan yorumu"), blank=True, default="")
    puan_zamani = models.DateTimeField(_("puan zamanı"), null=True, blank=True)
    # Denormalised so that the queue list needs no per-row subquery.
    son_mesaj = models.CharField(_("son mesaj"), max_length=ONIZLEME_MAX, null=True, blank=True)
    okunmamis = models.PositiveIntegerField(_("okunmamış (operatör)"), default=0)
    # When the visitor was offered to leave a ticket instead of waiting on (issue 13: nobody
    # online for its tenant's bekleme_zaman_asimi_dk); set once, by the periodic `chat.zaman_asimlari`.
    ticket_onerildi = models.DateTimeField(_("ticket önerildi"), null=True, blank=True)
    # The last message the visitor has read (its widget socket's `okundu`, issue 24): kept so that
    # the console's read marks survive a reload. Only moves forward; a message id of this chat.
    ziyaretci_son_okunan = models.BigIntegerField(_("ziyaretçinin son okuduğu mesaj"), null=True, blank=True)
    # The other side's (issue 39): the last message an operator has read (its socket's `okundu`),
    # so the widget's read marks survive a reload too. Only moves forward.
    operator_son_okunan = models.BigIntegerField(_("operatörün son okuduğu mesaj"), null=True, blank=True)
    # The chat's newest message, notes included, and its newest message the visitor sees (no note):
    # the predecessors a new message's socket frames carry (`onceki_id`, docs/api.md). Written by
    # every message's write under the chat's row lock, so the visitor's one statement returns them
    # (chat.sorgular) with no read of the messages (issue 41). Only move forward; null: none yet.
    son_mesaj_no = models.BigIntegerField(_("son mesajın numarası"), null=True, blank=True)
    son_gorunur_mesaj_no = models.BigIntegerField(_("ziyaretçinin gördüğü son mesajın numarası"), null=True,
                                                  blank=True)
    # Labels of the chat's tenant (CONTRACT 16): operators' shapes only, never the widget's.
    etiketler = models.ManyToManyField("tenants.Etiket", blank=True, related_name="oturumlar", verbose_name=_("etiketler"))
    # The team the chat belongs to (CONTRACT 22): routing runs among its members; null = the
    # whole tenant. Deleting the team sets it back to null.
    ekip = models.ForeignKey("tenants.Ekip", null=True, blank=True, on_delete=models.SET_NULL, related_name="oturumlar",
        verbose_name=_("ekip"))
    # Snooze (CONTRACT 24): until `ertelendi_kadar`, or until the visitor writes when
    # `ertelendi_ziyaretci` is set (then `ertelendi_kadar` is null). Both empty: not snoozed.
    ertelendi_kadar = models.DateTimeField(_("şu zamana dek ertelendi"), null=True, blank=True)
    ertelendi_ziyaretci = models.BooleanField(_("ziyaretçi yazana dek ertelendi"), default=False, db_default=False)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("sohbet")
        verbose_name_plural = _("sohbetler")
        constraints = [
            # One open chat per visitor: a second chat/start (even a racing one) gets the first.
            models.UniqueConstraint(
                fields=["musteri", "ziyaretci_id"], condition=Q(durum__in=["bekliyor", "aktif"]), name="oturum_acik_tekil"
            ),
            models.CheckConstraint(condition=Q(puan__isnull=True) | Q(puan__gte=1, puan__lte=5), name="oturum_puan_1_5"),
        ]
        indexes = [
            # Queue order and `sira_no` (one indexed count of the chats waiting before this one).
            models.Index(fields=["musteri", "durum", "baslangic", "id"], name="oturum_kuyruk_idx"),
            models.Index(fields=["operator", "durum"], name="oturum_operator_idx"),
            models.Index(fields=["musteri", "bitis_zamani"], name="oturum_bitis_idx"),
            # A visitor's own chats, newest first (widget/init: the open chat or the last closed one).
            models.Index(fields=["musteri", "ziyaretci_id", "-id"], name="oturum_ziyaretci_idx"),
            # The SLA sweep's range scans: warnings and breaches due (running clocks only).
            models.Index(fields=["sla_ilk_uyari"], name="oturum_sla_uyari_idx", condition=Q(sla_ilk_durum="bekliyor")),
            models.Index(fields=["sla_ilk_vade"], name="oturum_sla_vade_idx", condition=Q(sla_ilk_durum="bekliyor")),
        ]

    def __str__(self):
        return f"Sohbet #{self.pk} ({self.durum})"

    @property
    def acik(self) -> bool:
        return self.durum in self.ACIK_DURUMLAR


# The name a rule's canned response is sent from (CONTRACT 23), on chats as on tickets.
OTOMATIK_YANIT = _("Otomatik yanıt")


class MesajQuerySet(KapsamliQuerySet):
    def gorunur(self) -> "MesajQuerySet":
        """What the visitor may see (CONTRACT 16): every message but the operators' internal notes
        (`ozel`). Every read made for a visitor, or of what was said to one (transcripts, mail,
        exports, the first response, re-routing), starts here: the rule is written once."""
        return self.filter(ozel=False)


class Mesaj(models.Model):
    """A chat message; `icerik` is plain text and is never rendered as HTML."""

    class Gonderen(models.TextChoices):
        ZIYARETCI = "ziyaretci", _("Ziyaretçi")
        OPERATOR = "operator", _("Operatör")
        SISTEM = "sistem", _("Sistem")

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", db_index=True,
        verbose_name=_("proje"))
    oturum = models.ForeignKey(Oturum, on_delete=models.CASCADE, related_name="mesajlar", verbose_name=_("sohbet"))
    gonderen = models.CharField(_("gönderen"), max_length=10, choices=Gonderen.choices)
    operator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("operatör")
    )
    icerik = models.TextField(_("içerik"), max_length=MESAJ_MAX)
    # The visitor's own upload (the dosyalar app owns uploads); a deleted file leaves the message.
    ek = models.ForeignKey("dosyalar.Dosya", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("ek"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)
    # An internal note (CONTRACT 16): in the operators' timeline only, never by any path to the visitor.
    ozel = models.BooleanField(_("iç not"), default=False)
    # A rule's canned response (CONTRACT 23): a `sistem` message from the name "Otomatik yanıt"
    # (`OTOMATIK_YANIT`), told apart from the other `sistem` lines (joined, transferred, closed).
    # `db_default`: rows written by raw SQL (benchmarks) need not name it.
    otomatik = models.BooleanField(_("otomatik yanıt"), default=False, db_default=False)

    objects = MesajQuerySet.as_manager()

    class Meta:
        verbose_name = _("mesaj")
        verbose_name_plural = _("mesajlar")
        # Polling with `sonra` reads (oturum, id > n) in id order: one index range scan.
        indexes = [models.Index(fields=["oturum", "id"], name="mesaj_oturum_idx")]

    def __str__(self):
        return f"{self.gonderen}: {self.icerik[:40]}"


class HazirYanit(models.Model):
    """A canned response of a tenant, picked by its `kisayol` (e.g. `/selam`)."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="hazir_yanitlar", db_index=True,
        verbose_name=_("proje"))
    kisayol = models.CharField(_("kısayol"), max_length=50)
    baslik = models.CharField(_("başlık"), max_length=120)
    icerik = models.TextField(_("içerik"), max_length=MESAJ_MAX)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("hazır yanıt")
        verbose_name_plural = _("hazır yanıtlar")
        constraints = [models.UniqueConstraint(fields=["musteri", "kisayol"], name="hazir_yanit_kisayol_tekil")]

    def __str__(self):
        return f"{self.kisayol} — {self.baslik}"
