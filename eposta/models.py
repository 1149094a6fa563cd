"""Outgoing mails (one row per mail, written before any sending: the outbox of CONTRACT 14),
inbound messages (one row per `Message-ID`), and the visitors' "stop these mails" choices."""
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class GidenEposta(models.Model):
    class Tur(models.TextChoices):
        TICKET_ALINDI = "ticket_alindi", "Ticket alındı"  # ceviri: yok (admin label)
        TICKET_YANITI = "ticket_yaniti", "Ticket yanıtı"  # ceviri: yok (admin label)
        TICKET_COZULDU = "ticket_cozuldu", "Ticket çözüldü"  # ceviri: yok (admin label)
        SOHBET_DOKUMU = "sohbet_dokumu", "Sohbet dökümü"  # ceviri: yok (admin label)
        CEVRIMDISI_YANIT = "cevrimdisi_yanit", "Çevrimdışı mesaja yanıt"  # ceviri: yok (admin label)
        YENI_TICKET = "yeni_ticket", "Yeni ticket (ekibe)"
        SLA_IHLAL = "sla_ihlal", "SLA ihlali (ekibe)"
        DAVET = "davet", "Davet"
        SIFRE_SIFIRLAMA = "sifre_sifirlama", "Şifre sıfırlama"  # ceviri: yok (admin label)
        KAYIT_ONAY = "kayit_onay", "Kayıt onayı"  # ceviri: yok (admin label)
        KAYIT_MEVCUT = "kayit_mevcut", "Kayıt denemesi (hesap var)"  # ceviri: yok (admin label)
        BAHSEDILME = "bahsedilme", "İç notta anılma (ekibe)"  # ceviri: yok (admin label)

    class Durum(models.TextChoices):
        BEKLIYOR = "bekliyor", "Bekliyor"
        GONDERILDI = "gonderildi", "Gönderildi"  # ceviri: yok (admin label)
        BASARISIZ = "basarisiz", "Başarısız"  # ceviri: yok (admin label)
        DURDURULDU = "durduruldu", "Alıcı durdurdu"  # ceviri: yok (admin label)

    musteri = models.ForeignKey("tenants.Musteri", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="+", db_index=True, verbose_name=_("proje"))
    tur = models.CharField(_("tür"), max_length=20, choices=Tur.choices)
    alici = models.EmailField(_("alıcı"), max_length=254)
    konu = models.CharField(_("konu"), max_length=255)
    metin = models.TextField(_("metin"))
    html = models.TextField(_("HTML"))
    # Message-ID, In-Reply-To, References, Reply-To, List-Unsubscribe...: exactly what is sent.
    basliklar = models.JSONField(_("başlıklar"), default=dict)
    message_id = models.CharField(_("Message-ID"), max_length=255, unique=True)
    ticket_id = models.BigIntegerField(_("ticket"), null=True, blank=True, db_index=True)
    oturum_id = models.BigIntegerField(_("sohbet"), null=True, blank=True, db_index=True)
    # A visitor mail: what its stop link stops ("ticket:12", "oturum:7"); empty for team mails.
    durdurma_kapsami = models.CharField(_("durdurma kapsamı"), max_length=40, blank=True, default="")
    durum = models.CharField(_("durum"), max_length=12, choices=Durum.choices, default=Durum.BEKLIYOR)
    deneme = models.PositiveSmallIntegerField(_("deneme"), default=0)
    hata = models.TextField(_("son hata"), blank=True, default="")
    sonraki_deneme = models.DateTimeField(_("sonraki deneme"), default=timezone.now)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now, db_index=True)
    gonderilme = models.DateTimeField(_("gönderilme"), null=True, blank=True)

    class Meta:
        verbose_name = _("giden e-posta")
        verbose_name_plural = _("giden e-postalar")
        ordering = ["-olusturulma", "-id"]
        indexes = [models.Index(fields=["durum", "sonraki_deneme"], name="eposta_vade_idx")]

    def __str__(self):
        return f"{self.alici}: {self.konu}"


class GelenEposta(models.Model):
    class Sonuc(models.TextChoices):
        YANIT = "yanit", "Ticket yanıtı"  # ceviri: yok (admin label)
        YENI_TICKET = "yeni_ticket", "Yeni ticket"

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", db_index=True,
        verbose_name=_("proje"))
    # The sender's Message-ID (or a digest of the raw message when it has none): stored once per
    # tenant, since one message To: one tenant and Cc: another is a message for each.
    message_id = models.CharField(_("Message-ID"), max_length=255)
    gonderen = models.EmailField(_("gönderen"), max_length=254)
    konu = models.CharField(_("konu"), max_length=255, blank=True, default="")
    sonuc = models.CharField(_("sonuç"), max_length=12, choices=Sonuc.choices)
    ticket_id = models.BigIntegerField(_("ticket"), db_index=True)
    yanit_id = models.BigIntegerField(_("ticket yanıtı"), null=True, blank=True)
    metin = models.TextField(_("saklanan metin"))
    boyut = models.PositiveIntegerField(_("boyut (bayt)"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("gelen e-posta")
        verbose_name_plural = _("gelen e-postalar")
        ordering = ["-zaman", "-id"]
        constraints = [models.UniqueConstraint(fields=["musteri", "message_id"], name="gelen_eposta_tekil")]

    def __str__(self):
        return f"{self.gonderen}: {self.konu}"


class EpostaDurdurma(models.Model):
    """A visitor stopped the mails of one ticket or one chat (the one-click link)."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", db_index=True,
        verbose_name=_("proje"))
    kapsam = models.CharField(_("kapsam"), max_length=40)  # "ticket:12" or "oturum:7"
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)

    class Meta:
        verbose_name = _("durdurulan e-posta")
        verbose_name_plural = _("durdurulan e-postalar")
        constraints = [models.UniqueConstraint(fields=["musteri", "kapsam"], name="eposta_durdurma_tekil")]

    def __str__(self):
        return f"{self.musteri_id} {self.kapsam}"
