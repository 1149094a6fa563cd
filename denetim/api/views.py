from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from supportdesk.core.exceptions import Yetkisiz
from supportdesk.core.pagination import sayfala
from supportdesk.core.replika import replikadan
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView
from tenants.selectors import uyelik_get

from ..metin import kayit_metni
from ..selectors import kayit_list


class DenetimKaydiSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    zaman = serializers.DateTimeField()
    kullanici_id = serializers.IntegerField(allow_null=True)
    email = serializers.CharField()
    ip = serializers.CharField(allow_null=True)
    eylem = serializers.CharField()
    hedef = serializers.CharField()
    ayrinti = serializers.JSONField()
    metin = serializers.SerializerMethodField(help_text=gettext_lazy("Kaydın okunur cümlesi, isteğin dilinde (issue 39.7)."))

    def get_metin(self, kayit) -> str:
        return kayit_metni(kayit)


class DenetimView(OperatorAPIView):
    """Read only: the API has no way to write, edit or delete an entry (CONTRACT 18)."""

    @extend_schema(
        summary=gettext_lazy("Projenin denetim kaydı, en yeni önce (sahip, yönetici)"),
        parameters=[OpenApiParameter("cursor", str), OpenApiParameter("limit", int)],
        responses={200: inline_serializer("DenetimListesi", {"kayitlar": DenetimKaydiSerializer(many=True),
                                                             "sonraki": serializers.CharField(allow_null=True)}),
                   403: OpenApiResponse(description="YETKISIZ"), 404: OpenApiResponse(description="BULUNAMADI")},
    )
    @replikadan
    def get(self, request, musteri_id: int):
        uyelik = uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        if not uyelik.yonetebilir:
            raise Yetkisiz()
        rows, sonraki = sayfala(kayit_list(musteri_id=musteri_id), request.query_params, azalan=True)
        return basarili({"kayitlar": DenetimKaydiSerializer(rows, many=True).data, "sonraki": sonraki})
