"""Portal forms. They check input and turn it into arguments for the services; nothing more."""
from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import PasswordChangeForm

from supportdesk.core.olaylar import OLAYLAR
from tenants.models import Kullanici
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
    return f"Proje {mevcut_proje_sayisi + 1}"


def _firma_adi_alani():
    return forms.CharField(
        label="Proje (firma) adı", max_length=FIRMA_ADI_MAX,
        widget=forms.TextInput(attrs={"placeholder": "ör. Anadolu Yazılım", "autocomplete": "organization"}),
    )


class GirisForm(forms.Form):
    email = forms.EmailField(label="E-posta", widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}))
    sifre = forms.CharField(label="Şifre", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()


class KayitForm(forms.Form):
    ad = forms.CharField(label="Adınız", max_length=150, required=False,
                         widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(label="E-posta", widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    sifre = forms.CharField(label="Şifre", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                            help_text="En az 8 karakter; yalnızca rakam ya da çok bilinen bir şifre olmasın.")
    firma_adi = _firma_adi_alani()

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if Kullanici.objects.filter(email=email).exists():
            raise forms.ValidationError("Bu e-posta adresiyle zaten bir hesap var. Giriş yapmayı deneyin.")
        return email

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
            raise forms.ValidationError("Proje adı boş olamaz.")
        return value


class OriginForm(forms.Form):
    """CONTRACT 8: exactly scheme + host (+ port); the same rule the widget whitelist applies."""

    origin = forms.CharField(
        label="İzinli adres", max_length=300, strip=False,
        widget=forms.TextInput(attrs={"placeholder": "https://shop.example.com", "inputmode": "url", "autocomplete": "off"}),
    )

    def clean_origin(self):
        try:
            return origin_girdisini_normalle(self.cleaned_data["origin"])
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class ZiyaretciTokenIptalForm(forms.Form):
    ziyaretci_id = forms.CharField(
        label="Ziyaretçi kimliği", max_length=128,
        widget=forms.TextInput(attrs={"placeholder": "ör. u-1842", "autocomplete": "off"}),
    )

    def clean_ziyaretci_id(self):
        deger = self.cleaned_data["ziyaretci_id"]
        if not deger.isprintable():
            raise forms.ValidationError("Yalnızca yazdırılabilir karakterler girin.")
        return deger


class KimlikDogrulamaForm(forms.Form):
    kimlik_dogrulama_zorunlu = forms.BooleanField(required=False)


class SifreDegistirForm(PasswordChangeForm):
    pass


OLAY_ETIKETLERI = {
    "yeni_chat": "Yeni sohbet",
    "yeni_ticket": "Yeni destek talebi",
    "chat_kapandi": "Sohbet kapandı",
    "ticket_cozuldu": "Talep çözüldü",
    "memnuniyet_puan": "Memnuniyet puanı",
    "operator_cevrimdisi": "Operatör çevrimdışı",
}


def olay_secenekleri() -> list[tuple[str, str]]:
    return [(o, f"{OLAY_ETIKETLERI.get(o, o)} ({o})") for o in OLAYLAR]


class WebhookForm(forms.Form):
    """Shape only; the target rules (http(s), no private addresses) belong to webhooks.endpointler."""

    url = forms.CharField(
        label="Adres (URL)", max_length=500,
        widget=forms.TextInput(attrs={"placeholder": "https://ornek.com/webhooks/supportdesk", "inputmode": "url",
                                      "autocomplete": "off"}),
    )
    olaylar = forms.MultipleChoiceField(
        label="Olaylar", required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Hiçbirini seçmezseniz tüm olaylar gönderilir.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["olaylar"].choices = olay_secenekleri()
