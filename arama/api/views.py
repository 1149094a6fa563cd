from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from supportdesk.core.pagination import sayfa_boyutu
from supportdesk.core.replika import replikadan
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView

from .. import metin, selectors
from ..models import AramaKaydi
from . import serializers as s


class OperatorAramaView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbet ve ticket geçmişinde arama (en iyi eşleşme önce, imleçli)"),
        parameters=[OpenApiParameter("q", str, required=True, description="2–200 karakter"),
                    OpenApiParameter("musteri_id", int), OpenApiParameter("tur", str, enum=["chat", "ticket"]),
                    OpenApiParameter("cursor", str), OpenApiParameter("limit", int)],
        responses={200: inline_serializer("OperatorAramaSonuclari", {"sonuclar": s.OperatorAramaSonucuSerializer(many=True),
                                                            "sonraki": serializers.CharField(allow_null=True)}),
                   400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                   404: OpenApiResponse(description="BULUNAMADI (musteri_id)")},
    )
    @replikadan
    def get(self, request):
        ser = s.OperatorAramaFiltreSerializer(data=request.query_params)
        ser.is_valid(raise_exception=True)
        filtre = ser.validated_data
        limit = sayfa_boyutu(request.query_params)
        kapsam = selectors.arama_kapsami(musteri_idleri=self.musteri_idleri, musteri_id=filtre.get("musteri_id"))
        rows, sonraki = selectors.arama_sayfasi(musteri_idleri=kapsam, q=filtre["q"], tur=filtre.get("tur"),
                                                cursor=filtre.get("cursor"), limit=limit)
        kokler = metin.sorgu_kokleri(filtre["q"])
        for row in rows:
            # A ticket's replies are Markdown; a chat's messages are plain text and stay as typed.
            govde = metin.markdown_duz(row.govde_metin) if row.tur == AramaKaydi.Tur.TICKET else row.govde_metin
            row.parca = metin.parca(row.ust_metin, govde, kokler)
        return basarili({"sonuclar": s.OperatorAramaSonucuSerializer(rows, many=True).data, "sonraki": sonraki})
