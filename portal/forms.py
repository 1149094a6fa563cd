"""Portal forms. They check input and turn it into arguments for the services; nothing more."""
from datetime import date

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.hashers import check_password
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from chat.services import HAZIR_YANIT_DEGISKENLERI
from supportdesk.core.olaylar import OLAYLAR
from tenants import gorunum
from tenants.models import Kullanici, Uyelik
from tenants.origin import origin_girdisini_normalle

FIRMA_ADI_MAX = 120
# Names a script may use for our fields: `password` is what most clients call `sifre`.
TAKMA_ADLAR = {"password": "sifre"}


def takma_adlari_coz(data, **eksikse):
    """The posted data with alias names mapped to ours and absent fields given a default.

    Only a field that was not posted at all gets its default: a field the user blanked in our
    form stays blank and is refused like any other invalid input.
    """
    data = data.copy()
    for takma, alan in TAKMA_ADLAR.items():
        if alan not in data and takma in data:
            data[alan] = data[takma]
    for alan, deger in eksikse.items():
        if alan not in data:
            data[alan] = deger
    return data


def varsayilan_proje_adi(mevcut_proje_sayisi: int) -> str:
    return gettext("Proje %(sayi)s") % {"sayi": mevcut_proje_sayisi + 1}


def _firma_adi_alani():
    return forms.CharField(
        label=_("Proje (firma) adı"), max_length=FIRMA_ADI_MAX,
        widget=forms.TextInput(attrs={"placeholder": _("ör. Anadolu Yazılım"), "autocomplete": "organization"}),
    )


class GirisForm(forms.Form):
    email = forms.EmailField(label=_("E-posta"), widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}))
    sifre = forms.CharField(label=_("Şifre"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()


class KayitForm(forms.Form):
    ad = forms.CharField(label=_("Adınız"), max_length=150, required=False,
                         widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(label=_("E-posta"), widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    sifre = forms.CharField(label=_("Şifre"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                            help_text=_("En az 8 karakter; yalnızca rakam ya da çok bilinen bir şifre olmasın."))
    firma_adi = _firma_adi_alani()

    def clean_email(self):
        # No "this address has an account" here: the page must not tell (the holder gets a mail).
        return self.cleaned_data["email"].strip().lower()

    def clean(self):
        data = super().clean()
        sifre, email = data.get("sifre"), data.get("email")
        if sifre:
            try:
                password_validation.validate_password(sifre, Kullanici(email=email or "", ad=data.get("ad") or ""))
            except forms.ValidationError as exc:
                self.add_error("sifre", exc)
        return data


class ProjeForm(forms.Form):
    firma_adi = _firma_adi_alani()

    def clean_firma_adi(self):
        value = self.cleaned_data["firma_adi"].strip()
        if not value:
            raise forms.ValidationError(_("Proje adı boş olamaz."))
        return value


class OriginForm(forms.Form):
    """CONTRACT 8: exactly scheme + host (+ port); the same rule the widget whitelist applies."""

    origin = forms.CharField(
        label=_("İzinli adres"), max_length=300, strip=False,
        widget=forms.TextInput(attrs={"placeholder": "https://shop.example.com", "inputmode": "url", "autocomplete": "off"}),
    )

    def clean_origin(self):
        try:
            return origin_girdisini_normalle(self.cleaned_data["origin"])
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class ZiyaretciTokenIptalForm(forms.Form):
    ziyaretci_id = forms.CharField(
        label=_("Ziyaretçi kimliği"), max_length=128,
        widget=forms.TextInput(attrs={"placeholder": _("ör. u-1842"), "autocomplete": "off"}),
    )

    def clean_ziyaretci_id(self):
        deger = self.cleaned_data["ziyaretci_id"]
        if not deger.isprintable():
            raise forms.ValidationError(_("Yalnızca yazdırılabilir karakterler girin."))
        return deger


class KimlikDogrulamaForm(forms.Form):
    kimlik_dogrulama_zorunlu = forms.BooleanField(required=False)


class SifreDegistirForm(PasswordChangeForm):
    pass


class ProfilForm(forms.Form):
    """Shape only; the rules (length, http(s) address) are tenants.services.kullanici_profil_guncelle's."""

    ad = forms.CharField(label=_("Görünen ad"), max_length=150, required=False,
                         help_text=_("Ziyaretçiler sohbette mesajlarınızın yanında bu adı görür; boşsa “Temsilci”."))
    avatar = forms.CharField(label=_("Avatar adresi (URL)"), max_length=500, required=False,
                             widget=forms.URLInput(attrs={"placeholder": _("https://ornek.com/ben.png")}))
    # CONTRACT 19: the member's language; "" follows the browser (supportdesk.core.dil).
    dil = forms.ChoiceField(label=_("Dil"), required=False,
                            choices=[("", _("Tarayıcıya göre")), *settings.LANGUAGES],
                            help_text=_("Portal, operatör paneli ve size gelen e-postalar bu dilde olur."))


OLAY_ETIKETLERI = {
    "yeni_chat": _("Yeni sohbet"),
    "yeni_ticket": _("Yeni destek talebi"),
    "chat_kapandi": _("Sohbet kapandı"),
    "ticket_cozuldu": _("Talep çözüldü"),
    "memnuniyet_puan": _("Memnuniyet puanı"),
    "operator_cevrimdisi": _("Operatör çevrimdışı"),
    "chat_atandi": _("Sohbet atandı"),
    "sla_uyari": _("Talep SLA uyarısı"),
    "sla_ihlal": _("Talep SLA ihlali"),
    "chat_sla_uyari": _("Sohbet SLA uyarısı"),
    "chat_sla_ihlal": _("Sohbet SLA ihlali"),
}


def olay_secenekleri() -> list[tuple[str, str]]:
    return [(o, f"{OLAY_ETIKETLERI.get(o, o)} ({o})") for o in OLAYLAR]


class WebhookForm(forms.Form):
    """Shape only; the target rules (http(s), no private addresses) belong to webhooks.endpointler."""

    url = forms.CharField(
        label=_("Adres (URL)"), max_length=500,
        widget=forms.TextInput(attrs={"placeholder": _("https://ornek.com/webhooks/supportdesk"), "inputmode": "url",
                                      "autocomplete": "off"}),
    )
    olaylar = forms.MultipleChoiceField(
        label=_("Olaylar"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("Hiçbirini seçmezseniz tüm olaylar gönderilir."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["olaylar"].choices = olay_secenekleri()


ROL_SECENEKLERI = Uyelik.Rol.choices


def _max_chat_alani():
    return forms.IntegerField(label=_("En çok eşzamanlı sohbet"), required=False, min_value=1, max_value=1000,
                              help_text=_("Boş bırakılırsa sınır yok."))


class DavetForm(forms.Form):
    email = forms.EmailField(label=_("E-posta"), max_length=254,
                             widget=forms.EmailInput(attrs={"autocomplete": "off", "placeholder": _("ekip@ornek.com")}))
    rol = forms.ChoiceField(label=_("Rol"), choices=ROL_SECENEKLERI, initial=Uyelik.Rol.OPERATOR)
    max_chat_per_tenant = _max_chat_alani()

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()


class UyeForm(forms.Form):
    rol = forms.ChoiceField(label=_("Rol"), choices=ROL_SECENEKLERI)
    max_chat_per_tenant = _max_chat_alani()


class KayitOnayForm(forms.Form):
    """The password given at sign-up, asked when the mailed link is opened in another browser."""

    sifre = forms.CharField(label=_("Kayıtta seçtiğiniz şifre"), strip=False,
                            widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, *args, sifre_ozeti: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.sifre_ozeti = sifre_ozeti

    def clean_sifre(self):
        sifre = self.cleaned_data["sifre"]
        if not check_password(sifre, self.sifre_ozeti):
            raise forms.ValidationError(_("Şifre, kayıtta seçtiğiniz şifre değil."))
        return sifre


class DavetKabulForm(forms.Form):
    ad = forms.CharField(label=_("Adınız"), max_length=150, required=False,
                         widget=forms.TextInput(attrs={"autocomplete": "name"}))
    sifre = forms.CharField(label=_("Şifre"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                            help_text=_("En az 8 karakter; yalnızca rakam ya da çok bilinen bir şifre olmasın."))

    def __init__(self, *args, email: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.email = email

    def clean(self):
        data = super().clean()
        sifre = data.get("sifre")
        if sifre:
            try:
                password_validation.validate_password(sifre, Kullanici(email=self.email, ad=data.get("ad") or ""))
            except forms.ValidationError as exc:
                self.add_error("sifre", exc)
        return data


class KbKategoriForm(forms.Form):
    ad = forms.CharField(label=_("Kategori adı"), max_length=150)
    slug = forms.CharField(label=_("Slug"), max_length=150, required=False,
                           help_text=_("Boş bırakılırsa addan üretilir (ç→c, ğ→g, ı→i, ö→o, ş→s, ü→u)."))
    aciklama = forms.CharField(label=_("Açıklama"), max_length=2000, required=False,
                               widget=forms.Textarea(attrs={"rows": 2}))
    sira = forms.IntegerField(label=_("Sıra"), min_value=0, max_value=1_000_000, initial=0, required=False)
    # The English version (issue 43): shown by an English widget; empty falls back to the above.
    ad_en = forms.CharField(label=_("Kategori adı (İngilizce)"), max_length=150, required=False)
    aciklama_en = forms.CharField(label=_("Açıklama (İngilizce)"), max_length=2000, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))


class KbMakaleForm(forms.Form):
    baslik = forms.CharField(label=_("Başlık"), max_length=200)
    slug = forms.CharField(label=_("Slug"), max_length=200, required=False,
                           help_text=_("Boş bırakılırsa başlıktan üretilir."))
    kategori = forms.TypedChoiceField(label=_("Kategori"), required=False, coerce=int, empty_value=None)
    ozet = forms.CharField(label=_("Özet"), max_length=500, required=False)
    icerik_markdown = forms.CharField(
        label=_("İçerik (Markdown)"), required=False, max_length=200_000, strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "data-onizleme": "kb-onizleme", "spellcheck": "true"}),
        help_text=_("**kalın**, *italik*, # başlık, - liste, [bağlantı](https://…). "
                    "Betikler ve tehlikeli HTML kaydedilirken temizlenir."),
    )
    yayinda = forms.BooleanField(label=_("Yayında (widget'ta görünsün)"), required=False)
    sira = forms.IntegerField(label=_("Sıra"), min_value=0, max_value=1_000_000, initial=0, required=False)
    # The English version (issue 43): an English widget shows it; an empty field shows the Turkish one.
    baslik_en = forms.CharField(label=_("Başlık (İngilizce)"), max_length=200, required=False)
    ozet_en = forms.CharField(label=_("Özet (İngilizce)"), max_length=500, required=False)
    icerik_markdown_en = forms.CharField(label=_("İçerik (Markdown, İngilizce)"), required=False, max_length=200_000,
                                         strip=False, widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "true",
                                                                                   "lang": "en"}))

    def __init__(self, *args, kategoriler=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kategori"].choices = [("", _("— Kategorisiz —")), *((k.id, k.ad) for k in kategoriler)]


class HazirYanitForm(forms.Form):
    kisayol = forms.CharField(label=_("Kısayol"), max_length=50,
                              help_text=_("Boşluksuz, ör. /selam (başına / yazmasanız da eklenir). Projede tekil."),
                              widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("/selam")}))
    baslik = forms.CharField(label=_("Başlık"), max_length=120)
    icerik = forms.CharField(label=_("Metin"), max_length=5000, widget=forms.Textarea(attrs={"rows": 4}))


# What each canned-response variable becomes (CONTRACT 16, `chat.services.hazir_yanit_doldur`),
# shown under the form (issue 39.5).
HAZIR_DEGISKEN_ACIKLAMALARI = {
    "ziyaretci_adi": _("ziyaretçinin adı"),
    "ziyaretci_email": _("ziyaretçinin e-posta adresi"),
    "operator_adi": _("yanıtlayan operatörün görünen adı"),
    "firma_adi": _("projenin adı"),
}


def hazir_yanit_degiskenleri() -> list[tuple[str, str]]:
    """(`{name}`, what it becomes) for every variable the service fills in, in its order."""
    return [(f"{{{ad}}}", HAZIR_DEGISKEN_ACIKLAMALARI.get(ad, "")) for ad in HAZIR_YANIT_DEGISKENLERI]


class EtiketForm(forms.Form):
    ad = forms.CharField(label=_("Ad"), max_length=40,
                         help_text=_("Projede tekil; büyük/küçük harf farkı sayılmaz (\"İade\" ile \"iade\" aynıdır)."))
    renk = forms.CharField(label=_("Renk"), required=False, max_length=7, initial="#64748B",
                           widget=forms.TextInput(attrs={"type": "color"}))


class _YerelTarihSaat(forms.DateTimeField):
    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]


class KampanyaForm(forms.Form):
    baslik = forms.CharField(label=_("Başlık"), max_length=200)
    icerik = forms.CharField(label=_("Metin"), max_length=5000, required=False, widget=forms.Textarea(attrs={"rows": 3}))
    baslangic = _YerelTarihSaat(label=_("Başlangıç"))
    bitis = _YerelTarihSaat(label=_("Bitiş"))
    gorsel = forms.FileField(label=_("Görsel"), required=False, help_text=_("PNG, JPEG, GIF ya da WebP; en çok 10 MB."),
                             widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/gif,image/webp"}))
    gorsel_kaldir = forms.BooleanField(label=_("Yüklenen görseli kaldır"), required=False)
    gorsel_url = forms.CharField(label=_("Görsel adresi (yükleme yerine)"), max_length=500, required=False)
    buton_metni = forms.CharField(label=_("Buton metni"), max_length=60, required=False)
    buton_url = forms.CharField(label=_("Buton adresi"), max_length=500, required=False)
    aktif = forms.BooleanField(label=_("Etkin"), required=False, initial=True)
    # The English version (issue 43): an English widget shows it; an empty field shows the Turkish one.
    baslik_en = forms.CharField(label=_("Başlık (İngilizce)"), max_length=200, required=False)
    icerik_en = forms.CharField(label=_("Metin (İngilizce)"), max_length=5000, required=False,
                                widget=forms.Textarea(attrs={"rows": 3, "lang": "en"}))
    buton_metni_en = forms.CharField(label=_("Buton metni (İngilizce)"), max_length=60, required=False)

    def clean(self):
        data = super().clean()
        if data.get("baslangic") and data.get("bitis") and data["bitis"] <= data["baslangic"]:
            self.add_error("bitis", _("Bitiş başlangıçtan sonra olmalı."))
        return data


class GorunumForm(forms.Form):
    renk_primary = forms.CharField(
        label=_("Ana renk"), max_length=7, help_text=_("#RRGGBB; üzerinde beyaz yazı okunabilmeli (kontrast en az 4.5:1)."),
        widget=forms.TextInput(attrs={"type": "color", "data-gorunum": "renk"}))
    karsilama_metni = forms.CharField(
        label=_("Karşılama metni"), max_length=200, required=False,
        widget=forms.TextInput(attrs={"data-gorunum": "karsilama",
                                     "placeholder": gorunum.KARSILAMA_VARSAYILANI}))
    baslatici_konum = forms.ChoiceField(label=_("Başlatıcı konumu"), choices=[("sag", _("Sağ alt")), ("sol", _("Sol alt"))],
                                        widget=forms.RadioSelect(attrs={"data-gorunum": "konum"}))
    logo = forms.FileField(label=_("Logo"), required=False, help_text=_("PNG, JPEG, WebP ya da SVG; en çok 1 MB."),
                           widget=forms.ClearableFileInput(attrs={
                               "accept": "image/png,image/jpeg,image/webp,image/svg+xml", "data-gorunum": "logo"}))
    logo_kaldir = forms.BooleanField(label=_("Logoyu kaldır"), required=False)


class TarihField(forms.DateField):
    """A day of the reports and history filters: 2000-01-01 to 2999-12-31. Outside that range no
    record can be, and the day after 9999-12-31 cannot even be computed (it was a 500)."""

    EN_ERKEN, EN_GEC = date(2000, 1, 1), date(2999, 12, 31)

    def validate(self, value):
        super().validate(value)
        if value is not None and not self.EN_ERKEN <= value <= self.EN_GEC:
            bicim = gettext("d.m.Y")
            raise forms.ValidationError(gettext("%(bas)s ile %(son)s arasında bir gün olmalı.") % {
                "bas": date_format(self.EN_ERKEN, bicim), "son": date_format(self.EN_GEC, bicim)})


class RaporForm(forms.Form):
    bas = TarihField(label=_("Başlangıç"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    son = TarihField(label=_("Bitiş"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    EN_UZUN_GUN = 366

    def clean(self):
        data = super().clean()
        bas, son = data.get("bas"), data.get("son")
        if bas and son:
            if son < bas:
                self.add_error("son", _("Bitiş başlangıçtan önce olamaz."))
            elif (son - bas).days >= self.EN_UZUN_GUN:
                self.add_error("son", ngettext("Aralık en çok %(gun)s gün olabilir.", "Aralık en çok %(gun)s gün olabilir.",
                                               self.EN_UZUN_GUN) % {"gun": self.EN_UZUN_GUN})
        return data


class GecmisForm(forms.Form):
    tur = forms.ChoiceField(label=_("Tür"), required=False,
                            choices=[("sohbet", _("Sohbetler")), ("ticket", _("Destek talepleri"))])
    q = forms.CharField(label=_("Ara"), required=False, max_length=200,
                        widget=forms.TextInput(attrs={"placeholder": _("Ziyaretçi, e-posta ya da metin"), "type": "search"}))
    bas = TarihField(label=_("Başlangıç"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    son = TarihField(label=_("Bitiş"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
