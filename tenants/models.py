import secrets

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from supportdesk.core.kapsam import KapsamliQuerySet


def yeni_api_key() -> str:
    """Public widget key: safe to embed in a page, unguessable."""
    return "pk_" + secrets.token_urlsafe(24)


def yeni_api_secret() -> str:
    """Private signing secret: server-side only (spec 2.3, 5.3)."""
    return "sk_" + secrets.token_hex(32)


class KullaniciManager(BaseUserManager):
    use_in_migrations = True

    def _create(self, email, password, **extra):
        if not email:
            raise ValueError("E-posta gerekli")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.update(is_staff=True, is_superuser=True)
        return self._create(email, password, **extra)


class Kullanici(AbstractBaseUser, PermissionsMixin):
    """Operators and portal users are one model, identified by e-mail (CONTRACT 2)."""

    class Durum(models.TextChoices):
        CEVRIMICI = "cevrimici", _("Çevrimiçi")
        MESGUL = "mesgul", _("Meşgul")
        CEVRIMDISI = "cevrimdisi", _("Çevrimdışı")

    email = models.EmailField(_("e-posta"), unique=True)
    # Display name shown to visitors on an operator's messages (`operator_adi`) and in the
    # "X sohbete katıldı" line; empty means the neutral "Temsilci".
    ad = models.CharField(_("görünen ad"), max_length=150, blank=True)
    # A picture by address (http(s) only): no upload path of its own, so no second set of
    # upload rules beside the dosyalar app's.
    avatar = models.URLField(_("avatar adresi"), max_length=500, blank=True, default="")
    # Primary tenant, kept for v1.6 clients (spec 9.3) and in sync with the portal's active tenant.
    musteri = models.ForeignKey(
        "tenants.Musteri", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("birincil proje")
    )
    durum = models.CharField(_("durum"), max_length=12, choices=Durum.choices, default=Durum.CEVRIMDISI, db_index=True)
    # The member's language for the portal, the console and mails to it (CONTRACT 19); "" until
    # chosen: pages follow the browser (supportdesk.core.dil), mails the default.
    # The service's languages (settings.LANGUAGES, each named in itself).
    dil = models.CharField(_("dil"), max_length=8, blank=True, default="", db_default="", choices=settings.LANGUAGES)
    is_active = models.BooleanField(_("aktif"), default=True)
    is_staff = models.BooleanField(_("yönetici paneli"), default=False)
    date_joined = models.DateTimeField(_("katılma"), default=timezone.now)

    objects = KullaniciManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        verbose_name = _("kullanıcı")
        verbose_name_plural = _("kullanıcılar")

    def __str__(self):
        return self.email


renk_validator = RegexValidator(r"^#[0-9A-Fa-f]{6}$", _("Renk #RRGGBB biçiminde olmalı."))


class Musteri(models.Model):
    """A tenant ("project"): a customer organisation using the widget."""

    firma_adi = models.CharField(_("firma adı"), max_length=120)
    logo_url = models.CharField(_("logo yolu"), max_length=500, blank=True, default="")
    renk_primary = models.CharField(_("ana renk"), max_length=7, default="#2563EB", validators=[renk_validator])
    # The widget's look set in the portal (CONTRACT 13); `logo` (an uploaded, checked file) wins
    # over `logo_url` (a path set by commands or the admin).
    logo = models.FileField(_("logo"), upload_to="logolar/", blank=True, max_length=255)
    karsilama_metni = models.CharField(_("karşılama metni"), max_length=200, blank=True, default="")
    baslatici_konum = models.CharField(_("başlatıcı konumu"), max_length=3, default="sag",
                                       choices=[("sag", _("Sağ alt")), ("sol", _("Sol alt"))])
    api_key = models.CharField(_("widget anahtarı"), max_length=64, unique=True, default=yeni_api_key)
    api_secret = models.CharField(_("API gizli anahtarı"), max_length=80, default=yeni_api_secret)
    izinli_originler = models.JSONField(_("izinli originler"), default=list, blank=True)
    kimlik_dogrulama_zorunlu = models.BooleanField(_("imzalı kimlik zorunlu"), default=False)
    trial_bitis = models.DateTimeField(_("deneme bitişi"), null=True, blank=True)
    aktif = models.BooleanField(_("aktif"), default=True)
    # Set once the first visitor is bound (CONTRACT 2a): until then no widget call of the tenant
    # needs the per-visitor lookup, so sites that never ask for visitor tokens pay nothing for them.
    bagli_ziyaretci_var = models.BooleanField(_("bağlı ziyaretçisi var"), default=False, editable=False)
    olusturan = models.ForeignKey(
        Kullanici, null=True, blank=True, on_delete=models.SET_NULL, related_name="olusturdugu_musteriler",
        verbose_name=_("oluşturan")
    )
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now, db_index=True)

    # Routing, working hours and timed rules (CONTRACT 15); validated by the settings API
    # (`/operator/tenants/{id}/ayarlar`, `/portal/yonlendirme`), never trusted when read: a stored
    # value that no longer validates is read as the default.
    class AtamaModu(models.TextChoices):
        MANUEL = "manuel", _("Elle (operatör kabul eder)")
        SIRAYLA = "sirayla", _("Sırayla")
        EN_AZ_YUKLU = "en_az_yuklu", _("En az yüklü operatöre")

    class Dil(models.TextChoices):
        TR = "tr", "Türkçe"  # ceviri: yok (named in itself)
        EN = "en", "English"
        OTOMATIK = "otomatik", _("Ziyaretçinin tarayıcısına göre")

    saat_dilimi = models.CharField(_("saat dilimi"), max_length=64, default="Europe/Istanbul")
    atama_modu = models.CharField(_("atama modu"), max_length=12, choices=AtamaModu.choices, default=AtamaModu.MANUEL)
    # Whether the tenant has an active automation rule (CONTRACT 23), kept by otomasyon.services on
    # every rule write: a chat's start, a visitor's message and a ticket's creation skip the rules
    # (and their cache read) without it.
    kurallar_var = models.BooleanField(_("etkin kuralı var"), default=False, db_default=False, editable=False)
    calisma_saatleri = models.JSONField(_("çalışma saatleri"), null=True, blank=True, default=None)
    # The weekly days kept while `calisma_saatleri` is null ("always open", issue 39.3): the portal
    # shows them again when the switch is turned off. The calendar itself never reads them.
    kayitli_calisma_saatleri = models.JSONField(_("kayıtlı çalışma saatleri"), null=True, blank=True, default=None)
    tatiller = models.JSONField(_("tatiller"), default=list, blank=True)
    mesai_disi_mesaji = models.CharField(_("mesai dışı mesajı"), max_length=500, blank=True, default="")
    bekleme_zaman_asimi_dk = models.PositiveIntegerField(_("bekleme zaman aşımı (dk)"), default=10)
    sessiz_kapatma_dk = models.PositiveIntegerField(_("sessiz kapatma (dk)"), null=True, blank=True, default=30)
    yeniden_atama_dk = models.PositiveIntegerField(_("yeniden atama (dk)"), null=True, blank=True, default=None)
    saklama_gun = models.PositiveIntegerField(_("saklama süresi (gün)"), null=True, blank=True, default=None)
    dil = models.CharField(_("widget dili"), max_length=8, choices=Dil.choices, default=Dil.TR)

    class Meta:
        verbose_name = _("proje (müşteri)")
        verbose_name_plural = _("projeler (müşteriler)")
        indexes = [models.Index(fields=["olusturan", "olusturulma"])]

    def __str__(self):
        return f"{self.firma_adi} (#{self.pk})"


class Uyelik(models.Model):
    """A user's membership of a tenant, with the per-operator tab settings of spec 2.2."""

    class Rol(models.TextChoices):
        SAHIP = "sahip", _("Sahip")
        YONETICI = "yonetici", _("Yönetici")
        OPERATOR = "operator", _("Operatör")

    kullanici = models.ForeignKey(Kullanici, on_delete=models.CASCADE, related_name="uyelikler", verbose_name=_("kullanıcı"))
    musteri = models.ForeignKey(Musteri, on_delete=models.CASCADE, related_name="uyelikler", verbose_name=_("proje"))
    rol = models.CharField(_("rol"), max_length=10, choices=Rol.choices, default=Rol.OPERATOR)
    sira = models.PositiveIntegerField(_("sıra"), default=0)
    sessize_alindi = models.BooleanField(_("sessize alındı"), default=False)
    max_chat_per_tenant = models.PositiveIntegerField(_("en çok eşzamanlı sohbet"), null=True, blank=True)
    # "New ticket" mails (CONTRACT 14). None: the role's default (on for `sahip`, off otherwise),
    # so a member who never chose follows its role when the role changes.
    eposta_bildirimi_secimi = models.BooleanField(_("yeni ticket e-postası"), null=True, blank=True)
    olusturulma = models.DateTimeField(default=timezone.now, verbose_name=_("oluşturulma"))
    # Automatic assignment (CONTRACT 15, `sirayla`): when this member last got a chat of the tenant
    # (accept, transfer, automatic, a claiming answer) and a ticket (automatic); null = never, first
    # in line. Written by a conditional UPDATE under the membership's row lock (no signal).
    son_atama = models.DateTimeField(_("son sohbet ataması"), null=True, blank=True, editable=False)
    son_ticket_atama = models.DateTimeField(_("son ticket ataması"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("üyelik")
        verbose_name_plural = _("üyelikler")
        constraints = [models.UniqueConstraint(fields=["kullanici", "musteri"], name="uyelik_tekil")]
        ordering = ["sira", "musteri_id"]

    def __str__(self):
        return f"{self.kullanici} @ {self.musteri_id} ({self.rol})"

    @property
    def yonetebilir(self) -> bool:
        return self.rol in (self.Rol.SAHIP, self.Rol.YONETICI)

    @property
    def eposta_bildirimi(self) -> bool:
        if self.eposta_bildirimi_secimi is None:
            return self.rol == self.Rol.SAHIP
        return self.eposta_bildirimi_secimi

    @classmethod
    def eposta_bildirimi_acik(cls) -> Q:
        """The members who get "new ticket" mails, as a filter (the same rule as the property)."""
        return Q(eposta_bildirimi_secimi=True) | Q(eposta_bildirimi_secimi__isnull=True, rol=cls.Rol.SAHIP)


class IptalEdilenToken(models.Model):
    """Access tokens revoked by logout, by JWT id, until they would have expired anyway."""

    jti = models.CharField(max_length=64, unique=True, verbose_name=_("token kimliği (jti)"))
    bitis = models.DateTimeField(db_index=True, verbose_name=_("bitiş"))

    class Meta:
        verbose_name = _("iptal edilen token")
        verbose_name_plural = _("iptal edilen tokenlar")

    def __str__(self):
        return self.jti


class ZiyaretciKimligi(models.Model):
    """A visitor that holds tokens (CONTRACT 2a): while its row is not `serbest` the visitor is
    *bound*, and every call for it must carry a token of the current `nesil`. Revoking all of its
    tokens is one increment of `nesil` (tokens name the generation they were issued in).

    `baglanti` records how it was bound, because that decides what a signed init does: tokens
    issued to an unsigned init (`imzasiz`) may belong to whoever knew the id first, so the site's
    first signature ends them. A released row is kept rather than deleted, so that its generation
    never goes back and a token issued before the release can never come alive again."""

    IMZASIZ, IMZALI, SERBEST = "imzasiz", "imzali", "serbest"
    BAGLANTILAR = [
        (IMZASIZ, _("İmzasız init ile (widget'ın kendi kimliği)")),
        (IMZALI, _("Sitenin imzasıyla (ya da anahtarları portalda iptal edildi)")),
        (SERBEST, _("Serbest bırakıldı (bağlı değil)")),
    ]

    musteri = models.ForeignKey(Musteri, on_delete=models.CASCADE, related_name="ziyaretci_kimlikleri", verbose_name=_("proje"))
    ziyaretci_id = models.CharField(_("ziyaretçi kimliği"), max_length=128)
    nesil = models.PositiveIntegerField(_("token nesli"), default=1)
    baglanti = models.CharField(_("bağlanma"), max_length=8, choices=BAGLANTILAR, default=IMZALI)
    olusturulma = models.DateTimeField(_("bağlanma"), default=timezone.now)
    guncellenme = models.DateTimeField(_("son değişiklik"), auto_now=True)

    class Meta:
        verbose_name = _("bağlı ziyaretçi")
        verbose_name_plural = _("bağlı ziyaretçiler")
        constraints = [models.UniqueConstraint(fields=["musteri", "ziyaretci_id"], name="ziyaretci_kimligi_tekil")]

    def __str__(self):
        return f"{self.ziyaretci_id} @ {self.musteri_id} (nesil {self.nesil})"


class Davet(models.Model):
    """An invitation to join a tenant (CONTRACT 13): a one-time link, valid 7 days.

    Only the SHA-256 of the token is stored: the link itself is shown (or mailed) once, when the
    invitation is made, and a leaked database cannot be used to join a project.
    """

    musteri = models.ForeignKey(Musteri, on_delete=models.CASCADE, related_name="davetler", db_index=True,
        verbose_name=_("proje"))
    email = models.EmailField(_("e-posta"))
    rol = models.CharField(_("rol"), max_length=10, choices=Uyelik.Rol.choices, default=Uyelik.Rol.OPERATOR)
    max_chat_per_tenant = models.PositiveIntegerField(_("en çok eşzamanlı sohbet"), null=True, blank=True)
    token_ozeti = models.CharField(max_length=64, unique=True, editable=False, verbose_name=_("token özeti"))
    davet_eden = models.ForeignKey(Kullanici, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("davet eden"))
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)
    son_gecerlilik = models.DateTimeField(_("son geçerlilik"))
    kabul_zamani = models.DateTimeField(_("kabul"), null=True, blank=True)
    kabul_eden = models.ForeignKey(Kullanici, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("kabul eden"))

    class Meta:
        verbose_name = _("davet")
        verbose_name_plural = _("davetler")
        indexes = [models.Index(fields=["musteri", "kabul_zamani"], name="davet_bekleyen_idx")]

    def __str__(self):
        return f"{self.email} → {self.musteri_id} ({self.rol})"

    @property
    def gecerli(self) -> bool:
        return self.kabul_zamani is None and self.son_gecerlilik > timezone.now()


VARSAYILAN_ETIKET_RENGI = "#64748B"


class Etiket(models.Model):
    """A label of a tenant (CONTRACT 16), put on chats and tickets (their `etiketler`).

    `ad` is unique per tenant ignoring case the Turkish way ("İade" and "iade" are one name):
    `anahtar` is the name folded (supportdesk.core.katlama.katla), and the constraint is on it,
    so two racing creates of one name cannot both pass."""

    musteri = models.ForeignKey(Musteri, on_delete=models.CASCADE, related_name="etiketler", db_index=True,
        verbose_name=_("proje"))
    ad = models.CharField(_("ad"), max_length=40)
    anahtar = models.CharField(_("katlanmış ad"), max_length=80, editable=False)
    renk = models.CharField(_("renk"), max_length=7, default=VARSAYILAN_ETIKET_RENGI, validators=[renk_validator])
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("etiket")
        verbose_name_plural = _("etiketler")
        constraints = [models.UniqueConstraint(fields=["musteri", "anahtar"], name="etiket_ad_tekil")]
        ordering = ["anahtar", "id"]

    def __str__(self):
        return self.ad


class Ekip(models.Model):
    """A team of a tenant (CONTRACT 22): some of its members, with routing of its own.

    A member may be in several teams; the members are memberships, so leaving the tenant leaves
    its teams too. `ad` is unique per tenant ignoring Turkish casing (`anahtar`, as for labels).
    `atama_modu` null: the tenant's mode. Chats and tickets point at a team (`ekip`, null = the
    whole tenant); deleting a team sets theirs to null."""

    musteri = models.ForeignKey(Musteri, on_delete=models.CASCADE, related_name="ekipler", db_index=True,
        verbose_name=_("proje"))
    ad = models.CharField(_("ad"), max_length=60)
    anahtar = models.CharField(_("katlanmış ad"), max_length=120, editable=False)
    uyelikler = models.ManyToManyField(Uyelik, blank=True, related_name="ekipler", verbose_name=_("üyeler"))
    atama_modu = models.CharField(_("atama modu"), max_length=12, choices=Musteri.AtamaModu.choices, null=True,
        blank=True, default=None)
    widgetta_secilir = models.BooleanField(_("widget'ta seçilir"), default=False)
    olusturulma = models.DateTimeField(_("oluşturulma"), default=timezone.now)

    objects = KapsamliQuerySet.as_manager()

    class Meta:
        verbose_name = _("ekip")
        verbose_name_plural = _("ekipler")
        constraints = [models.UniqueConstraint(fields=["musteri", "anahtar"], name="ekip_ad_tekil")]
        ordering = ["anahtar", "id"]

    def __str__(self):
        return self.ad
