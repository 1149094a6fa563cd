from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet


class TicketYanitQuerySet(KapsamliQuerySet):
    # A reply belongs to its ticket's tenant and visitor.
    musteri_alani = "ticket__musteri"
    ziyaretci_alani = "ticket__ziyaretci_id"

    def gorunur(self) -> "TicketYanitQuerySet":
        """What the visitor may see (CONTRACT 16): every reply but the operators' internal notes
        (`ozel`); every visitor-facing read of replies starts here (`Mesaj.objects.gorunur()`'s twin)."""
        return self.filter(ozel=False)


class Ticket(models.Model):
    class Durum(models.TextChoices):
        ACIK = "acik", _("Açık")
        BEKLEMEDE = "beklemede", _("Beklemede")
        COZULDU = "cozuldu", _("Çözüldü")
        KAPANDI = "kapandi", _("Kapandı")

    class Oncelik(models.TextChoices):
        DUSUK = "dusuk", _("Düşük")
        NORMAL = "normal", _("Normal")
        YUKSEK = "yuksek", _("Yüksek")
        ACIL = "acil", _("Acil")

    class Kanal(models.TextChoices):
        WIDGET = "widget", _("Widget")
        API = "api", _("API")
        EPOSTA = "eposta", _("E-posta")

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="ticketlar", db_index=True,
        verbose_name=_("proje"))
    ziyaretci_id = models.CharField(_("ziyaretçi"), max_length=128)
    konu = models.CharField(_("konu"), max_length=200)
    durum = models.CharField(_("durum"), max_length=12, choices=Durum.choices, default=Durum.ACIK)
    oncelik = models.CharField(_("öncelik"), max_length=8, choices=Oncelik.choices, default=Oncelik.NORMAL)
    ad = models.CharField(_("ad"), max_length=150, blank=True)
    email = models.EmailField(_("e-posta"), blank=True)
    # Where the ticket came from; `eposta`: a mail to the tenant's own address (CONTRACT 14).
    kanal = models.CharField(_("kanal"), max_length=10, choices=Kanal.choices, default=Kanal.WIDGET)
    # The visitor's language, fixed when the ticket is made (the widget's, or the chat's it came
    # from): its mails to the visitor (receipt, replies) are written in it (CONTRACT 19).
    dil = models.CharField(_("dil"), max_length=8, default="tr", db_default="tr")
    # The ticket's owner (CONTRACT 16): a member of the tenant, or nobody.
    operator = models.ForeignKey(
        "tenants.Kullanici", null=True, blank=True, on_delete=models.SET_NULL, related_name="sahip_oldugu_ticketlar",
        verbose_name=_("sorumlu operatör"),
    )
    # Labels of the ticket's tenant (CONTRACT 16): operators' shapes only, never the widget's.
    etiketler = models.ManyToManyField("tenants.Etiket", blank=True, related_name="ticketlar", verbose_name=_("etiketler"))
    # The team the ticket belongs to (CONTRACT 22); null = the whole tenant.
    ekip = models.ForeignKey("tenants.Ekip", null=True, blank=True, on_delete=models.SET_NULL, related_name="ticketlar",
        verbose_name=_("ekip"))
    # Snooze (CONTRACT 24), as on chats.
    ertelendi_kadar = models.DateTimeField(_("şu zamana dek ertelendi"), null=True, blank=True)
    ertelendi_ziyaretci = models.BooleanField(_("ziyaretçi yazana dek ertelendi"), default=False, db_default=False)
    # The chat an operator turned into this ticket (CONTRACT 24: `ticket.oturum_id`, and the chat's
    # `ticket_id` is this relation read backwards). One ticket per chat.
    oturum = models.OneToOneField("chat.Oturum", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="ticket", verbose_name=_("kaynak sohbet"))
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)
    guncellenme = models.DateTimeField(_("güncellenme"), default=timezone.now)

    # Service levels (CONTRACT 17, tickets/sla.py): each clock's state as stored, so the `sla`
    # object, the filters and the sweep read the ticket row alone. Per clock (`ilk`, `sonraki`,
    # `cozum`): `_durum` (SlaDurum; "" = no target / no cycle), `_vade` (the due instant while it
    # runs, kept after it ends), `_uyari` (when the warning is due; null once sent or not due).
    sla_oncelik = models.CharField(_("SLA önceliği"), max_length=8, blank=True, default="")
    ilk_operator_yaniti = models.DateTimeField(_("ilk operatör yanıtı"), null=True, blank=True)
    sla_ilk_durum = models.CharField(max_length=12, blank=True, default="", verbose_name=_("SLA ilk yanıt durumu"))
    sla_ilk_vade = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA ilk yanıt vadesi"))
    sla_ilk_uyari = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA ilk yanıt uyarısı"))
    sla_sonraki_durum = models.CharField(max_length=12, blank=True, default="", verbose_name=_("SLA sonraki yanıt durumu"))
    sla_sonraki_vade = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA sonraki yanıt vadesi"))
    sla_sonraki_uyari = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA sonraki yanıt uyarısı"))
    sla_sonraki_baslangic = models.DateTimeField(null=True, blank=True,
        verbose_name=_("SLA sonraki yanıt başlangıcı"))  # the running cycle's start
    sla_cozum_durum = models.CharField(max_length=12, blank=True, default="", verbose_name=_("SLA çözüm durumu"))
    sla_cozum_vade = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA çözüm vadesi"))
    sla_cozum_uyari = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA çözüm uyarısı"))
    sla_cozum_baslangic = models.DateTimeField(null=True, blank=True,
        verbose_name=_("SLA çözüm başlangıcı"))  # the running stretch's start
    sla_cozum_gecen_sn = models.IntegerField(default=0,
        verbose_name=_("SLA çözümde geçen süre (sn)"))  # counted seconds before that stretch
    # While `cozum` is paused (`beklemede`): the seconds it had left by its target (CONTRACT 17).
    sla_cozum_kalan_sn = models.IntegerField(null=True, blank=True, verbose_name=_("SLA çözüme kalan süre (sn)"))
    # Over the clocks: the nearest due time of a running one (`siralama=sla`, `sla=yaklasan`), that
    # minus the tenant's `uyari_dk`, and whether any target is breached (`sla=ihlal`).
    sla_vade = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA vadesi"))
    sla_uyari = models.DateTimeField(null=True, blank=True, verbose_name=_("SLA uyarısı"))
    sla_ihlal = models.BooleanField(default=False, verbose_name=_("SLA ihlali"))

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("ticket")
        verbose_name_plural = _("ticketlar")
        indexes = [
            models.Index(fields=["musteri", "ziyaretci_id", "olusturulma"], name="ticket_ziyaretci_idx"),
            models.Index(fields=["musteri", "durum"], name="ticket_durum_idx"),
            models.Index(fields=["olusturulma", "id"], name="ticket_sira_idx"),
            # SLA: the list's sort and filters, and the sweep's three kinds of due rows per clock.
            models.Index(fields=["musteri", "sla_vade", "id"], name="ticket_sla_vade_idx",
                         condition=models.Q(sla_vade__isnull=False)),
            models.Index(fields=["musteri", "id"], name="ticket_sla_ihlal_idx", condition=models.Q(sla_ihlal=True)),
            models.Index(fields=["sla_ilk_uyari"], name="ticket_sla_ilk_uyari_idx",
                         condition=models.Q(sla_ilk_uyari__isnull=False)),
            models.Index(fields=["sla_ilk_vade"], name="ticket_sla_ilk_vade_idx",
                         condition=models.Q(sla_ilk_durum="bekliyor")),
            models.Index(fields=["sla_sonraki_uyari"], name="ticket_sla_sonraki_uyari_idx",
                         condition=models.Q(sla_sonraki_uyari__isnull=False)),
            models.Index(fields=["sla_sonraki_vade"], name="ticket_sla_sonraki_vade_idx",
                         condition=models.Q(sla_sonraki_durum="bekliyor")),
            models.Index(fields=["sla_cozum_uyari"], name="ticket_sla_cozum_uyari_idx",
                         condition=models.Q(sla_cozum_uyari__isnull=False)),
            models.Index(fields=["sla_cozum_vade"], name="ticket_sla_cozum_vade_idx",
                         condition=models.Q(sla_cozum_durum="bekliyor")),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.konu}"


class TicketYanit(models.Model):
    class Gonderen(models.TextChoices):
        ZIYARETCI = "ziyaretci", _("Ziyaretçi")
        OPERATOR = "operator", _("Operatör")

    ticket = models.ForeignKey(Ticket, on_delete=models.CASCADE, related_name="yanitlar", verbose_name=_("ticket"))
    gonderen = models.CharField(_("gönderen"), max_length=12, choices=Gonderen.choices)
    operator = models.ForeignKey(
        "tenants.Kullanici", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("operatör")
    )
    icerik = models.TextField(_("içerik"))
    ekler = models.ManyToManyField("dosyalar.Dosya", blank=True, related_name="ticket_yanitlari", verbose_name=_("ekler"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)
    # An internal note (CONTRACT 16): in the operators' timeline only, never by any path to the visitor.
    ozel = models.BooleanField(_("iç not"), default=False)

    objects = TicketYanitQuerySet.as_manager()

    class Meta:
        verbose_name = _("ticket yanıtı")
        verbose_name_plural = _("ticket yanıtları")
        ordering = ["zaman", "id"]

    def __str__(self) -> str:
        return f"{self.get_gonderen_display()}: {self.icerik[:40]}"


class SlaPolitikasi(models.Model):
    """A tenant's service levels (CONTRACT 17). No row: the defaults (off)."""

    musteri = models.OneToOneField("tenants.Musteri", on_delete=models.CASCADE, primary_key=True,
                                   related_name="sla_politikasi", verbose_name=_("proje"))
    aktif = models.BooleanField(_("etkin"), default=False)
    mesai_icinde = models.BooleanField(_("yalnız mesai içinde say"), default=True)
    uyari_dk = models.PositiveIntegerField(_("uyarı (dk önce)"), default=15)
    chat_ilk_yanit_sn = models.PositiveIntegerField(_("sohbette ilk yanıt (sn)"), null=True, blank=True)
    # {"acil": {"ilk_yanit_dk", "sonraki_yanit_dk", "cozum_dk"}, "yuksek": ..., ...}; null = no target.
    hedefler = models.JSONField(_("hedefler"), default=dict, blank=True)
    guncellenme = models.DateTimeField(_("güncellenme"), default=timezone.now)

    class Meta:
        verbose_name = _("SLA politikası")
        verbose_name_plural = _("SLA politikaları")

    def __str__(self) -> str:
        return f"SLA {self.musteri_id}"
