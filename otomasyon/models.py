"""Automation rules, their runs, and macros (CONTRACT 23)."""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet

OLAYLAR = ("chat_baslatildi", "ticket_olusturuldu", "ziyaretci_mesaji", "etiket_eklendi", "sla_uyari")


class Kural(models.Model):
    """A rule: when `olay` happens to a chat or ticket of the tenant and every one of `kosullar`
    holds, `eylemler` run in order (in the triggering change's transaction)."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kurallar", db_index=True,
                                verbose_name=_("proje"))
    ad = models.CharField(_("ad"), max_length=100)
    aktif = models.BooleanField(_("aktif"), default=True)
    olay = models.CharField(_("olay"), max_length=24, choices=[(o, o) for o in OLAYLAR])
    kosullar = models.JSONField(_("koşullar"), default=list, blank=True)
    eylemler = models.JSONField(_("eylemler"), default=list)
    sira = models.IntegerField(_("sıra"), default=0)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("otomasyon kuralı")
        verbose_name_plural = _("otomasyon kuralları")
        ordering = ["sira", "id"]

    def __str__(self) -> str:
        return self.ad


class KuralCalismasi(models.Model):
    """One run of a rule on one chat or ticket: what happened (`sonuc`) and, for each action, how."""

    class Sonuc(models.TextChoices):
        UYGULANDI = "uygulandi", _("uygulandı")
        KOSUL_TUTMADI = "kosul_tutmadi", _("koşul tutmadı")
        HATA = "hata", _("hata")

    # No index of its own: `kural_calismasi_son_idx` (kural, -id) leads with it (one index less to
    # write per run: a visitor's message may record one run per active rule).
    kural = models.ForeignKey(Kural, on_delete=models.CASCADE, related_name="calismalar", verbose_name=_("kural"),
                              db_index=False)
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)
    hedef = models.CharField(_("hedef"), max_length=40)  # "chat:12", "ticket:7"
    sonuc = models.CharField(_("sonuç"), max_length=16, choices=Sonuc.choices)
    ayrinti = models.JSONField(_("ayrıntı"), default=list, blank=True)

    class Meta:
        verbose_name = _("kural çalışması")
        verbose_name_plural = _("kural çalışmaları")
        indexes = [models.Index(fields=["kural", "-id"], name="kural_calismasi_son_idx")]

    def __str__(self) -> str:
        return f"{self.hedef}: {self.sonuc}"


class IdListesiField(models.TextField):
    """A list of ids kept as text between commas (",12,7,"), the same on PostgreSQL and SQLite (the
    embedded default): `__contains=",7,"` finds the rows naming 7. Python sees a list of ints."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else [int(p) for p in value.strip(",").split(",") if p]

    def to_python(self, value):
        if value is None or isinstance(value, list):
            return value
        return [int(p) for p in str(value).strip(",").split(",") if p]

    def get_prep_value(self, value):
        if value is None or isinstance(value, str):  # a lookup's pattern (",7,") passes as it is
            return value
        return "," + ",".join(str(int(i)) for i in value) + ","


class TutmayanCalismalar(models.Model):
    """The runs of one event whose conditions did not hold (issue 42): one row per event naming its
    rules (`kural_idleri`, in `sira` order), not one `KuralCalismasi` per rule. A visitor's message
    against 50 rules that hold for none thus writes one row, not 50 rows, 50 index entries and 50
    foreign-key checks. `GET /operator/kurallar/{id}/calismalar` lists them among the rule's other
    runs as `kosul_tutmadi` with empty `ayrinti` (`selectors.calisma_list`), exactly as before.

    No foreign key to the rules (an id list cannot have one): a deleted rule's id stays in the rows
    until the daily prune (`services.calismalari_buda`), but no listing reads it (rule ids are never
    reused). The tenant's key makes its deletion and its retention (CONTRACT 18) reach the rows."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", db_index=False,
                                verbose_name=_("proje"))
    kural_idleri = IdListesiField(_("kurallar"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)
    hedef = models.CharField(_("hedef"), max_length=40)  # "chat:12", "ticket:7"

    class Meta:
        verbose_name = _("koşulu tutmayan çalışmalar")
        verbose_name_plural = _("koşulu tutmayan çalışmalar")
        indexes = [models.Index(fields=["musteri", "zaman"], name="tutmayan_musteri_zaman_idx")]

    def __str__(self) -> str:
        return f"{self.hedef}: {len(self.kural_idleri)} kosul_tutmadi"


class MakroQuerySet(KapsamliQuerySet):
    def gorunur(self, *, kullanici_id: int) -> "MakroQuerySet":
        """CONTRACT 23: a personal macro is visible to its owner only; shared ones to every member."""
        return self.filter(models.Q(paylasimli=True) | models.Q(sahip_id=kullanici_id))


class Makro(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="makrolar", db_index=True,
                                verbose_name=_("proje"))
    ad = models.CharField(_("ad"), max_length=100)
    paylasimli = models.BooleanField(_("paylaşımlı"), default=False)
    sahip = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                              verbose_name=_("sahibi"))
    eylemler = models.JSONField(_("eylemler"), default=list)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = MakroQuerySet.as_manager()

    class Meta:
        verbose_name = _("makro")
        verbose_name_plural = _("makrolar")
        ordering = ["ad", "id"]

    def __str__(self) -> str:
        return self.ad
