from django.contrib.postgres.search import SearchVectorField
from django.core.validators import URLValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet

# Campaign images and buttons are rendered on tenants' sites: http(s) only, never javascript:.
HTTP_URL = URLValidator(schemes=["http", "https"])


class KbKategori(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kb_kategorileri", db_index=True,
        verbose_name=_("proje"))
    ad = models.CharField(_("ad"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=150, allow_unicode=False)
    aciklama = models.TextField(_("açıklama"), blank=True)
    # The English version (CONTRACT 19, issue 43): the widget shows it in English, each field
    # falling back to the project's own when empty.
    ad_en = models.CharField(_("ad (İngilizce)"), max_length=150, blank=True, default="", db_default="")
    aciklama_en = models.TextField(_("açıklama (İngilizce)"), blank=True, default="", db_default="")
    sira = models.PositiveIntegerField(_("sıra"), default=0)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("bilgi bankası kategorisi")
        verbose_name_plural = _("bilgi bankası kategorileri")
        ordering = ["sira", "id"]
        constraints = [models.UniqueConstraint(fields=["musteri", "slug"], name="kb_kategori_slug_tekil")]

    def __str__(self) -> str:
        return self.ad


class KbMakale(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kb_makaleleri", db_index=True,
        verbose_name=_("proje"))
    kategori = models.ForeignKey(
        KbKategori, null=True, blank=True, on_delete=models.SET_NULL, related_name="makaleler", verbose_name=_("kategori")
    )
    baslik = models.CharField(_("başlık"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200)
    ozet = models.CharField(_("özet"), max_length=500, blank=True)
    # Sanitized HTML (nh3) on every save through the service.
    icerik = models.TextField(_("içerik (HTML)"), blank=True)
    # The Markdown the portal's editor wrote `icerik` from (empty for HTML written elsewhere).
    icerik_markdown = models.TextField(_("içerik (Markdown)"), blank=True)
    # The English version (CONTRACT 19, issue 43), as the Turkish one: sanitized HTML from Markdown.
    baslik_en = models.CharField(_("başlık (İngilizce)"), max_length=200, blank=True, default="", db_default="")
    ozet_en = models.CharField(_("özet (İngilizce)"), max_length=500, blank=True, default="", db_default="")
    icerik_en = models.TextField(_("içerik (HTML, İngilizce)"), blank=True, default="", db_default="")
    icerik_markdown_en = models.TextField(_("içerik (Markdown, İngilizce)"), blank=True, default="", db_default="")
    yayinda = models.BooleanField(_("yayında"), default=False)
    sira = models.PositiveIntegerField(_("sıra"), default=0)
    goruntulenme = models.PositiveIntegerField(_("görüntülenme"), default=0)
    # Search columns, derived by the service: visible text for snippets, Turkish-folded text
    # (the SQLite fallback and the source of the vector), and the PostgreSQL tsvector (GIN).
    duz_metin = models.TextField(blank=True, editable=False, verbose_name=_("düz metin"))
    arama_baslik = models.TextField(blank=True, editable=False, verbose_name=_("arama başlığı"))
    arama_govde = models.TextField(blank=True, editable=False, verbose_name=_("arama gövdesi"))
    arama_vektoru = SearchVectorField(null=True, editable=False, verbose_name=_("arama vektörü"))
    # The same for an English widget (CONTRACT 19, issue 43): each field its English version, else
    # the project's own (the shape's fallback), so English search finds what the English widget shows.
    duz_metin_en = models.TextField(blank=True, default="", db_default="", editable=False,
                                    verbose_name=_("düz metin (İngilizce)"))
    arama_baslik_en = models.TextField(blank=True, default="", db_default="", editable=False,
                                       verbose_name=_("arama başlığı (İngilizce)"))
    arama_govde_en = models.TextField(blank=True, default="", db_default="", editable=False,
                                      verbose_name=_("arama gövdesi (İngilizce)"))
    arama_vektoru_en = SearchVectorField(null=True, editable=False, verbose_name=_("arama vektörü (İngilizce)"))
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)
    guncellenme = models.DateTimeField(_("güncellenme"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("bilgi bankası makalesi")
        verbose_name_plural = _("bilgi bankası makaleleri")
        constraints = [models.UniqueConstraint(fields=["musteri", "slug"], name="kb_makale_slug_tekil")]
        indexes = [models.Index(fields=["musteri", "yayinda", "kategori"], name="kb_makale_yayin_idx")]

    def __str__(self) -> str:
        return self.baslik


class Kampanya(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kampanyalar", db_index=True,
        verbose_name=_("proje"))
    baslik = models.CharField(_("başlık"), max_length=200)
    icerik = models.TextField(_("içerik"), blank=True)
    gorsel_url = models.CharField(_("görsel URL"), max_length=500, blank=True, validators=[HTTP_URL])
    # An image uploaded in the portal (stored under the upload rules of `dosyalar`); when set it
    # is what `gorsel_url` answers, as an absolute URL.
    gorsel = models.ForeignKey("dosyalar.Dosya", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("görsel"))
    buton_metni = models.CharField(_("buton metni"), max_length=60, blank=True)
    # The English version (CONTRACT 19, issue 43); an empty field falls back to the Turkish one.
    baslik_en = models.CharField(_("başlık (İngilizce)"), max_length=200, blank=True, default="", db_default="")
    icerik_en = models.TextField(_("içerik (İngilizce)"), blank=True, default="", db_default="")
    buton_metni_en = models.CharField(_("buton metni (İngilizce)"), max_length=60, blank=True, default="", db_default="")
    buton_url = models.CharField(_("buton URL"), max_length=500, blank=True, validators=[HTTP_URL])
    baslangic = models.DateTimeField(_("başlangıç"))
    bitis = models.DateTimeField(_("bitiş"))
    aktif = models.BooleanField(_("aktif"), default=True)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("kampanya")
        verbose_name_plural = _("kampanyalar")
        indexes = [models.Index(fields=["musteri", "aktif", "baslangic"], name="kampanya_pencere_idx")]
        constraints = [models.CheckConstraint(condition=models.Q(bitis__gt=models.F("baslangic")), name="kampanya_pencere")]

    def __str__(self) -> str:
        return self.baslik
