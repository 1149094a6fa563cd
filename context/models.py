import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.girdi import ZIYARETCI_ID_MAX
from supportdesk.core.kapsam import KapsamliQuerySet

URL_MAX = 2048
# Newest records of each kind kept per visitor (CONTRACT 6); older ones are pruned on insert.
SAKLANAN_KAYIT = 50


class Ziyaretci(models.Model):
    """A visitor of a tenant, `(musteri, ziyaretci_id)` (CONTRACT 2), and the profile its site sends.

    Every context call creates the row, so "the visitor exists in a tenant" has one meaning
    for the operator's lookup (CONTRACT 6) whatever the site sent first.
    """

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    ziyaretci_id = models.CharField(_("ziyaretçi kimliği"), max_length=ZIYARETCI_ID_MAX)
    email = models.CharField(_("e-posta"), max_length=254, blank=True, default="")
    ad = models.CharField(_("ad"), max_length=100, blank=True, default="")
    soyad = models.CharField(_("soyad"), max_length=100, blank=True, default="")
    paket = models.CharField(_("paket"), max_length=100, blank=True, default="")
    kontor = models.FloatField(_("kontör"), null=True, blank=True)
    ekstra = models.JSONField(_("ekstra"), default=dict, blank=True)
    identity_dogrulandi = models.BooleanField(_("kimlik doğrulandı"), default=False)
    dogrulama_zamani = models.DateTimeField(_("doğrulama zamanı"), null=True, blank=True)
    profil_zamani = models.DateTimeField(_("son müşteri bilgisi"), null=True, blank=True)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)
    guncellenme = models.DateTimeField(_("güncellenme"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("ziyaretçi")
        verbose_name_plural = _("ziyaretçiler")
        constraints = [models.UniqueConstraint(fields=["musteri", "ziyaretci_id"], name="context_ziyaretci_tekil")]

    def __str__(self):
        return f"{self.ziyaretci_id} @ {self.musteri_id}"


class KayitQuerySet(KapsamliQuerySet):
    """Pages, errors and screenshots: their `ziyaretci_id` column is the `Ziyaretci` row's key, so
    the visitor side goes through that row."""

    def ziyaretcinin(self, *, musteri, ziyaretci_id: str):
        return self.filter(musteri=musteri, ziyaretci__musteri=musteri, ziyaretci__ziyaretci_id=ziyaretci_id)


class _ZiyaretciKaydi(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    ziyaretci = models.ForeignKey(Ziyaretci, on_delete=models.CASCADE, related_name="+", verbose_name=_("ziyaretçi"))
    zaman = models.DateTimeField(_("zaman"), default=timezone.now)

    objects = KayitQuerySet.as_manager()

    class Meta:
        abstract = True
        # Newest-first reads and the prune both walk one visitor's rows by id.
        indexes = [models.Index(fields=["ziyaretci", "-id"], name="%(class)s_ziy_id")]


class SayfaGoruntuleme(_ZiyaretciKaydi):
    url = models.CharField(_("adres"), max_length=URL_MAX)
    baslik = models.CharField(_("başlık"), max_length=500, blank=True, default="")
    referrer = models.CharField(_("yönlendiren"), max_length=URL_MAX, blank=True, default="")

    class Meta(_ZiyaretciKaydi.Meta):
        verbose_name = _("sayfa görüntüleme")
        verbose_name_plural = _("sayfa görüntülemeleri")

    def __str__(self):
        return self.url


class HataKaydi(_ZiyaretciKaydi):
    mesaj = models.TextField(_("mesaj"))
    kaynak = models.CharField(_("kaynak"), max_length=URL_MAX, blank=True, default="")
    satir = models.PositiveIntegerField(_("satır"), null=True, blank=True)
    stack = models.TextField(_("yığın"), blank=True, default="")
    url = models.CharField(_("adres"), max_length=URL_MAX, blank=True, default="")
    tarayici = models.CharField(_("tarayıcı"), max_length=500, blank=True, default="")

    class Meta(_ZiyaretciKaydi.Meta):
        verbose_name = _("hata kaydı")
        verbose_name_plural = _("hata kayıtları")

    def __str__(self):
        return self.mesaj[:80]


def ekran_goruntusu_yolu(instance, filename: str) -> str:
    # Unguessable names: media is served without a session, so the name is the only key.
    uzanti = ".png" if instance.mime_tipi == "image/png" else ".jpg"
    return f"context/ekran/{secrets.token_urlsafe(24)}{uzanti}"


class EkranGoruntusu(_ZiyaretciKaydi):
    gorsel = models.FileField(_("görsel"), upload_to=ekran_goruntusu_yolu, max_length=255)
    mime_tipi = models.CharField(_("MIME tipi"), max_length=20)
    boyut = models.PositiveIntegerField(_("boyut (bayt)"))
    url = models.CharField(_("adres"), max_length=URL_MAX, blank=True, default="")

    class Meta(_ZiyaretciKaydi.Meta):
        verbose_name = _("ekran görüntüsü")
        verbose_name_plural = _("ekran görüntüleri")

    def __str__(self):
        return self.gorsel.name


class ImzaKullanimi(models.Model):
    """A signature of spec 5.3 that was accepted, with the call and body it was accepted for
    (CONTRACT 2a): the same signature on another endpoint or with another body is refused until the
    timestamp leaves its window.

    Kept in the database, not in the cache: the guarantee must not depend on a store that may
    evict, restart empty or be unreachable (see `imza.imza_kullan`)."""

    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="+", verbose_name=_("proje"))
    amac = models.CharField(_("amaç"), max_length=16)  # the call that used it (init or profil); part of the digest
    imza = models.CharField(_("imza"), max_length=64)
    govde_ozeti = models.CharField(_("gövde özeti"), max_length=64)
    bitis = models.DateTimeField(_("geçerlilik sonu"), db_index=True)

    class Meta:
        verbose_name = _("kullanılmış imza")
        verbose_name_plural = _("kullanılmış imzalar")
        constraints = [models.UniqueConstraint(fields=["musteri", "imza"], name="imza_kullanimi_tekil_imza")]

    def __str__(self):
        return f"{self.amac} {self.imza[:12]}… @ {self.musteri_id}"
