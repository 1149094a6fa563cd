from rest_framework import serializers

from supportdesk.core.fields import StrictBooleanField, StrictCharField, StrictEmailField, StrictIntegerField
from supportdesk.core.girdi import ZIYARETCI_ID_MAX


class GirisSerializer(serializers.Serializer):
    email = StrictEmailField(max_length=254)
    sifre = StrictCharField(max_length=256, trim_whitespace=False)


class UyelikSerializer(serializers.Serializer):
    """Tenant membership item of spec 2.2."""

    id = serializers.IntegerField(source="musteri_id")
    firma_adi = serializers.CharField(source="musteri.firma_adi")
    logo_url = serializers.CharField(source="musteri.logo_url")
    renk_primary = serializers.CharField(source="musteri.renk_primary")
    sira = serializers.IntegerField()
    sessize_alindi = serializers.BooleanField()
    rol = serializers.CharField()
    max_chat_per_tenant = serializers.IntegerField(allow_null=True)


class OperatorSerializer(serializers.Serializer):
    """Operator of spec 2.1: exactly these four fields."""

    id = serializers.IntegerField()
    email = serializers.EmailField()
    musteri_id = serializers.IntegerField(allow_null=True)
    musteriler = UyelikSerializer(many=True)


class UyeSerializer(serializers.Serializer):
    """A member of a tenant as a colleague sees it (the console's transfer list)."""

    id = serializers.IntegerField(source="kullanici_id")
    email = serializers.EmailField(source="kullanici.email")
    ad = serializers.CharField(source="kullanici.ad")
    durum = serializers.CharField(source="kullanici.durum", help_text="cevrimici | mesgul | cevrimdisi")
    rol = serializers.CharField()


class GirisYanitiSerializer(serializers.Serializer):
    token = serializers.CharField()
    token_tipi = serializers.CharField(default="Bearer")
    operator = OperatorSerializer()


class SiraSerializer(serializers.Serializer):
    order = serializers.ListField(child=StrictIntegerField(), allow_empty=True, max_length=1000)


class SessizeSerializer(serializers.Serializer):
    sessize = StrictBooleanField()


class WidgetInitSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=ZIYARETCI_ID_MAX)
    token_iste = StrictBooleanField(required=False, help_text="Ziyaretçi token'ı iste (CONTRACT 2a).")
    email = serializers.CharField(required=False, allow_blank=True, help_text="İmzalı kimlikte imzalanan e-posta.")
    timestamp = serializers.IntegerField(required=False, help_text="Unix saniyesi (spec 5.3).")
    signature = serializers.CharField(required=False, help_text="HMAC-SHA256(api_secret, ziyaretci_id|email|timestamp).")


class EtiketKisaSerializer(serializers.Serializer):
    """A label as chats and tickets carry it to operators (CONTRACT 16)."""

    id = serializers.IntegerField()
    ad = serializers.CharField()
    renk = serializers.CharField(help_text="#RRGGBB")
