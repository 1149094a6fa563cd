from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from supportdesk.core.fields import StrictCharField, StrictIntegerField, ZamanField

from ..models import URL_MAX
from ..validators import http_adresi_mi, sayi_mi

ZIYARETCI_ID = serializers.CharField(max_length=128, help_text="Ziyaretçi kimliği (sitenin seçtiği).")


@extend_schema_field(OpenApiTypes.NUMBER)
class SayiField(serializers.Field):
    """A JSON number: "12", true and NaN are refused rather than guessed at."""

    default_error_messages = {"invalid": gettext_lazy("Sayı olmalı.")}

    def to_internal_value(self, data):
        if not sayi_mi(data):
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return sayi_goster(value)


def sayi_goster(value):
    """Numbers are stored as floats; 120.0 goes out as 120."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@extend_schema_field({"type": "object", "additionalProperties": {}})
class EkstraField(serializers.JSONField):
    """`ekstra` is a JSON object (its checks are `validators.ekstra_hatalari`); the schema says so."""


class KirpilanMetinField(serializers.CharField):
    """Browser telemetry: an over-long message or stack is cut, not refused, so the error is not lost."""

    def __init__(self, *, kirp: int, **kwargs):
        self.kirp = kirp
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return data[: self.kirp]


class HttpAdresiField(serializers.CharField):
    """An http(s) URL. Its schema carries the scheme as a pattern, unless another scheme is let
    through as blank (a referrer)."""

    default_error_messages = {"scheme": gettext_lazy("http:// ya da https:// ile başlayan bir adres olmalı.")}

    def __init__(self, *, baska_semada_bos: bool = False, **kwargs):
        self.baska_semada_bos = baska_semada_bos
        kwargs.setdefault("max_length", URL_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if self.max_length is not None and len(value) > self.max_length:
            # Checked here, not only by the validators: a value of another scheme becomes blank below.
            self.fail("max_length", max_length=self.max_length)
        if value and not http_adresi_mi(value):
            if self.baska_semada_bos:
                return ""
            self.fail("scheme")
        return value


class HttpAdresiFieldSema(OpenApiSerializerFieldExtension):
    target_class = HttpAdresiField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if direction == "request" and not self.target.baska_semada_bos:
            # http(s) only (`http_adresi_mi`), in any letter case, after trimming; or blank where allowed.
            sema = r"[Hh][Tt][Tt][Pp][Ss]?://"
            schema["pattern"] = rf"^\s*(?:{sema}[\s\S]*)?$" if self.target.allow_blank else rf"^\s*{sema}"
        return schema


def _metin(max_length: int, **kwargs):
    # A JSON string only: 5 or 1.5 is refused, not stored as "5" (CONTRACT 1: wrong types are a 400).
    return StrictCharField(max_length=max_length, required=False, allow_blank=True, allow_null=True, **kwargs)


# --- customer-info --------------------------------------------------------------------------

class ProfilGirdiSerializer(serializers.Serializer):
    """Profile fields of `POST /context/customer-info` (spec 2.4); absent ones are left as stored."""

    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, allow_null=True)
    ad = _metin(100)
    soyad = _metin(100)
    paket = _metin(100)
    kontor = SayiField(required=False, allow_null=True)
    ekstra = EkstraField(required=False, allow_null=True, help_text="Nesne; bkz. spec 2.6 ve docs/context.md.")


class MusteriBilgisiSerializer(ProfilGirdiSerializer):
    """The whole request, for the schema: the signature inputs are checked by the signature rules
    (a bad one is 401 GECERSIZ_IMZA, not 400)."""

    ziyaretci_id = ZIYARETCI_ID
    timestamp = serializers.IntegerField(required=False, allow_null=True, help_text="Unix saniyesi (imzayla).")
    signature = serializers.CharField(required=False, allow_null=True, help_text="HMAC-SHA256 onaltılık özeti.")


class ProfilSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField()
    musteri_id = serializers.IntegerField()
    email = serializers.CharField()
    ad = serializers.CharField()
    soyad = serializers.CharField()
    paket = serializers.CharField()
    kontor = SayiField(allow_null=True)
    ekstra = serializers.JSONField()
    identity_dogrulandi = serializers.BooleanField()
    dogrulama_zamani = ZamanField(allow_null=True)
    guncellenme = ZamanField()


class MusteriBilgisiVerisiSerializer(ProfilSerializer):
    """`data` of customer-info: the stored profile under `profil` (CONTRACT 1a), its fields also
    flat in `data` for clients that read spec 4.5's `data` as the profile itself."""

    profil = ProfilSerializer(source="*")


class MusteriBilgisiYanitiSerializer(serializers.Serializer):
    """The whole customer-info answer, from the saved `Ziyaretci`. Spec 4.5 puts
    `identity_dogrulandi` beside `data`, so this one answer extends the envelope. The stored flag
    is this call's result: every call sets it (`services.ziyaretci_profil_kaydet`)."""

    basarili = serializers.SerializerMethodField()
    identity_dogrulandi = serializers.BooleanField()
    data = MusteriBilgisiVerisiSerializer(source="*")

    def get_basarili(self, obj) -> bool:
        return True


# --- page-info, error-log, screenshot --------------------------------------------------------

class SayfaGirdiSerializer(serializers.Serializer):
    ziyaretci_id = ZIYARETCI_ID
    url = HttpAdresiField()
    baslik = _metin(500)
    # Browsers report app referrers such as android-app://...: kept out, but the page view is not lost.
    referrer = HttpAdresiField(required=False, allow_blank=True, allow_null=True, baska_semada_bos=True)


class HataGirdiSerializer(serializers.Serializer):
    ziyaretci_id = ZIYARETCI_ID
    mesaj = KirpilanMetinField(kirp=5000, required=True, allow_blank=False, allow_null=False)
    kaynak = KirpilanMetinField(kirp=URL_MAX)
    satir = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=2_000_000_000)
    stack = KirpilanMetinField(kirp=20000)
    url = HttpAdresiField(required=False, allow_blank=True, allow_null=True)
    tarayici = KirpilanMetinField(kirp=500)


class EkranGoruntusuGirdiSerializer(serializers.Serializer):
    ziyaretci_id = ZIYARETCI_ID
    url = HttpAdresiField(required=False, allow_blank=True, allow_null=True)


class EkranGoruntusuIstekSerializer(EkranGoruntusuGirdiSerializer):
    """For the schema: `gorsel` is a multipart file or, in JSON, a data URL; read by the view."""

    gorsel = serializers.CharField(help_text="Çok parçalı dosya ya da JSON'da data URL (data:image/png;base64,...).")


class SayfaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    baslik = serializers.CharField()
    referrer = serializers.CharField()
    zaman = ZamanField()


class HataKaydiSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    mesaj = serializers.CharField()
    kaynak = serializers.CharField()
    satir = serializers.IntegerField(allow_null=True)
    stack = serializers.CharField()
    url = serializers.CharField()
    tarayici = serializers.CharField()
    zaman = ZamanField()


class EkranGoruntusuSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gorsel_url = serializers.SerializerMethodField()
    mime_tipi = serializers.CharField()
    boyut = serializers.IntegerField()
    url = serializers.CharField()
    zaman = ZamanField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_gorsel_url(self, obj) -> str:
        url = obj.gorsel.url
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request is not None else url


class SayfaYanitSerializer(serializers.Serializer):
    """`data` of page-info."""

    sayfa = SayfaSerializer(source="*")


class HataKaydiYanitSerializer(serializers.Serializer):
    """`data` of error-log."""

    hata_kaydi = HataKaydiSerializer(source="*")


class EkranGoruntusuYanitSerializer(serializers.Serializer):
    """`data` of screenshot (`context["request"]` makes `gorsel_url` absolute)."""

    ekran_goruntusu = EkranGoruntusuSerializer(source="*")


# --- operator context ------------------------------------------------------------------------

class BannerOgesiSerializer(serializers.Serializer):
    tip = serializers.ChoiceField(choices=["paket", "kontor", "trial", "depolama"])
    icon = serializers.CharField()
    label = serializers.CharField()
    deger = serializers.CharField()
    kritik = serializers.BooleanField()


class BaglamMusteriSerializer(serializers.Serializer):
    ad = serializers.CharField()
    soyad = serializers.CharField()
    email = serializers.CharField()
    paket = serializers.CharField()
    kontor = SayiField(allow_null=True)


class BaglamSerializer(serializers.Serializer):
    """`data` of `GET /operator/context/{ziyaretci_id}` (spec 2.5, CONTRACT 6), from a
    `selectors.Baglam`."""

    ziyaretci_id = serializers.CharField(source="ziyaretci.ziyaretci_id")
    musteri_id = serializers.IntegerField(source="ziyaretci.musteri_id")
    musteri = BaglamMusteriSerializer(source="ziyaretci")
    banner = BannerOgesiSerializer(many=True)
    identity_dogrulandi = serializers.BooleanField(source="ziyaretci.identity_dogrulandi")
    ekstra = serializers.JSONField(source="ziyaretci.ekstra")
    sayfalar = SayfaSerializer(many=True)
    hatalar = HataKaydiSerializer(many=True)
    ekran_goruntuleri = EkranGoruntusuSerializer(many=True)
    guncellenme = ZamanField(source="ziyaretci.guncellenme")
