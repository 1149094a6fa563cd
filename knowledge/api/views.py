from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer

from supportdesk.core.dil import widget_dili
from supportdesk.core.responses import basarili
from tenants.api.temel import WidgetAPIView

from .. import selectors, services
from . import serializers as s

# CONTRACT 2: every widget call names its visitor, GETs in the query string; the help center and
# campaigns need none of the visitor's data, but the rule is the same for every widget call.
ZIYARETCI_PARAM = OpenApiParameter("ziyaretci_id", str, required=True)


class _IcerikView(WidgetAPIView):
    def dil_baglami(self) -> dict:
        """The serializers' context: the widget's language (CONTRACT 19), in which the English
        version of an article, category or campaign is shown when it has one (issue 43)."""
        return {"request": self.request, "dil": widget_dili(self.musteri, self.request)}


class KbSearchView(_IcerikView):
    @extend_schema(
        summary=gettext_lazy("Bilgi bankasında ara (widget dilinde; alaka sırasına göre, vurgulu parça ile)"),
        description=gettext_lazy("`q` boşsa (isteğe bağlı `kategori` içindeki) yayındaki makaleler sırayla listelenir."),
        parameters=[ZIYARETCI_PARAM, OpenApiParameter("q", {"type": "string", "maxLength": 200}),
                    OpenApiParameter("kategori", {"type": "string", "maxLength": 150, "pattern": r"^[-a-zA-Z0-9_]*$"},
                                     description=gettext_lazy("kategori slug")),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 50},
                                     description=gettext_lazy("1–50, varsayılan 20"))],
        responses={200: inline_serializer("KbArama", {"makaleler": s.AramaSonucuSerializer(many=True)}),
                   400: OpenApiResponse(description="GECERSIZ_ISTEK")},
    )
    def get(self, request):
        self.ziyaretci_id()
        ser = s.AramaParametreSerializer(data=request.query_params)
        ser.is_valid(raise_exception=True)
        p, baglam = ser.validated_data, self.dil_baglami()
        makaleler = selectors.kb_makale_ara(musteri=self.musteri, q=p["q"], kategori_slug=p.get("kategori"),
                                            limit=p["limit"], dil=baglam["dil"])
        return basarili({"makaleler": s.AramaSonucuSerializer(makaleler, many=True, context=baglam).data})


class KbCategoriesView(_IcerikView):
    @extend_schema(summary=gettext_lazy("Bilgi bankası kategorileri (yayındaki makale sayılarıyla)"),
                   parameters=[ZIYARETCI_PARAM],
                   responses={200: inline_serializer("KbKategoriler", {"kategoriler": s.KategoriSerializer(many=True)})})
    def get(self, request):
        self.ziyaretci_id()
        kategoriler = selectors.kb_kategori_list(musteri=self.musteri)
        return basarili({"kategoriler": s.KategoriSerializer(kategoriler, many=True, context=self.dil_baglami()).data})


class KbArticleView(_IcerikView):
    @extend_schema(summary=gettext_lazy("Makale (görüntülenme sayılır)"), parameters=[ZIYARETCI_PARAM],
                   responses={200: inline_serializer("KbMakale", {"makale": s.MakaleDetaySerializer()}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, slug: str):
        self.ziyaretci_id()
        makale = selectors.kb_makale_get(musteri=self.musteri, slug=slug)
        services.kb_makale_goruntulendi(makale=makale)
        makale.goruntulenme += 1
        return basarili({"makale": s.MakaleDetaySerializer(makale, context=self.dil_baglami()).data})


class CampaignsView(_IcerikView):
    @extend_schema(summary=gettext_lazy("Şu an geçerli kampanyalar"), parameters=[ZIYARETCI_PARAM],
                   responses={200: inline_serializer("Kampanyalar", {"kampanyalar": s.KampanyaSerializer(many=True)})})
    def get(self, request):
        self.ziyaretci_id()
        kampanyalar = selectors.kampanya_aktif_list(musteri=self.musteri)
        return basarili({"kampanyalar": s.KampanyaSerializer(kampanyalar, many=True, context=self.dil_baglami()).data})
