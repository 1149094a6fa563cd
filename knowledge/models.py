from django.contrib.postgres.search import SearchVectorField
from django.core.validators import URLValidator
from django.db import models
from django.utils import timezone

from supportdesk.core.kapsam import KapsamliQuerySet

# Campaign images and buttons are rendered on tenants' sites: http(s) only, never javascript:.
HTTP_URL = URLValidator(schemes=["http", "https"])


class KbKategori(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kb_kategorileri", db_index=True)
    ad = models.CharField("ad", max_length=150)
    slug = models.SlugField("slug", max_length=150, allow_unicode=False)
    aciklama = models.TextField("açıklama", blank=True)
    sira = models.PositiveIntegerField("sıra", default=0)
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = "bilgi bankası kategorisi"
        verbose_name_plural = "bilgi bankası kategorileri"
        ordering = ["sira", "id"]
        constraints = [models.UniqueConstraint(fields=["musteri", "slug"], name="kb_kategori_slug_tekil")]

    def __str__(self) -> str:
        return self.ad


class KbMakale(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kb_makaleleri", db_index=True)
    kategori = models.ForeignKey(
        KbKategori, null=True, blank=True, on_delete=models.SET_NULL, related_name="makaleler", verbose_name="kategori"
    )
    baslik = models.CharField("başlık", max_length=200)
    slug = models.SlugField("slug", max_length=200)
    ozet = models.CharField("özet", max_length=500, blank=True)
    # Sanitized HTML (nh3) on every save through the service.
    icerik = models.TextField("içerik (HTML)", blank=True)
    # The Markdown the portal's editor wrote `icerik` from (empty for HTML written elsewhere).
    icerik_markdown = models.TextField("içerik (Markdown)", blank=True)
    yayinda = models.BooleanField("yayında", default=False)
    sira = models.PositiveIntegerField("sıra", default=0)
    goruntulenme = models.PositiveIntegerField("görüntülenme", default=0)
    # Search columns, derived by the service: visible text for snippets, Turkish-folded text
    # (the SQLite fallback and the source of the vector), and the PostgreSQL tsvector (GIN).
    duz_metin = models.TextField(blank=True, editable=False)
    arama_baslik = models.TextField(blank=True, editable=False)
    arama_govde = models.TextField(blank=True, editable=False)
    arama_vektoru = SearchVectorField(null=True, editable=False)
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)
    guncellenme = models.DateTimeField("güncellenme", default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = "bilgi bankası makalesi"
        verbose_name_plural = "bilgi bankası makaleleri"
        constraints = [models.UniqueConstraint(fields=["musteri", "slug"], name="kb_makale_slug_tekil")]
        indexes = [models.Index(fields=["musteri", "yayinda", "kategori"], name="kb_makale_yayin_idx")]

    def __str__(self) -> str:
        return self.baslik


class Kampanya(models.Model):
    musteri = models.ForeignKey("tenants.Musteri", on_delete=models.CASCADE, related_name="kampanyalar", db_index=True)
    baslik = models.CharField("başlık", max_length=200)
    icerik = models.TextField("içerik", blank=True)
    gorsel_url = models.CharField("görsel URL", max_length=500, blank=True, validators=[HTTP_URL])
    # An image uploaded in the portal (stored under the upload rules of `dosyalar`); when set it
    # is what `gorsel_url` answers, as an absolute URL.
    gorsel = models.ForeignKey("dosyalar.Dosya", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name="görsel")
    buton_metni = models.CharField("buton metni", max_length=60, blank=True)
    buton_url = models.CharField("buton URL", max_length=500, blank=True, validators=[HTTP_URL])
    baslangic = models.DateTimeField("başlangıç")
    bitis = models.DateTimeField("bitiş")
    aktif = models.BooleanField("aktif", default=True)
    olusturulma = models.DateTimeField("oluşturulma", default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = "kampanya"
        verbose_name_plural = "kampanyalar"
        indexes = [models.Index(fields=["musteri", "aktif", "baslangic"], name="kampanya_pencere_idx")]
        constraints = [models.CheckConstraint(condition=models.Q(bitis__gt=models.F("baslangic")), name="kampanya_pencere")]

    def __str__(self) -> str:
        return self.baslik
