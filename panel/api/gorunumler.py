"""Views and bulk changes (CONTRACT 24): `GET /operator/gorunumler` (how many chats and tickets
each view holds for the caller) and `POST /operator/toplu`, composed here above chat and tickets."""
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from chat import selectors as chat_selectors
from supportdesk.core.responses import basarili
from supportdesk.core.views import JSONAyristirici
from tenants.api.temel import OperatorAPIView, istek_ip

from .. import sayaclar, toplu

_SAYILAR = {ad: serializers.IntegerField() for ad in chat_selectors.GORUNUMLER}


class GorunumlerView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Görünümlerin sayıları: açık, atanmamış, benim, ertelenen (sohbetler ve talepler; "
                             "tüm projeleriniz)"),
        responses={200: inline_serializer("Gorunumler", {"gorunumler": inline_serializer("GorunumSayilari", {
            "chat": inline_serializer("ChatGorunumSayilari", _SAYILAR),
            "ticket": inline_serializer("TicketGorunumSayilari", _SAYILAR),
        })}), 401: OpenApiResponse(description="KIMLIK_GEREKLI, GECERSIZ_TOKEN")},
    )
    def get(self, request):
        # One query per kind, over the views' counters (panel.sayaclar), not the open items.
        return basarili({"gorunumler": sayaclar.gorunum_sayilari(kullanici=request.user,
                                                                  musteri_idleri=self.musteri_idleri)})


class TopluView(OperatorAPIView):
    parser_classes = [JSONAyristirici]

    @extend_schema(
        summary=gettext_lazy("Toplu değişiklik: en çok 200 sohbete ya da talebe tek eylem; her biri tek başına "
                             "yapılmış gibi, sonuçlar verilen sırada"),
        request=inline_serializer("TopluIstek", {
            "tur": serializers.ChoiceField(choices=list(toplu.TURLER)),
            "idler": serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=toplu.TOPLU_EN_COK),
            "eylem": serializers.DictField(help_text=gettext_lazy(
                "`{\"tur\": ...}`: ata {operator_id}, ekibe_ata {ekip_id}, etiket_ekle {etiket_id}, etiket_kaldir "
                "{etiket_id}, oncelik {oncelik} (talepler), durum {durum} (talepler), kapat (sohbetler), "
                "ertele {kadar}.")),
        }),
        responses={200: inline_serializer("TopluYanit", {"sonuclar": inline_serializer("TopluSonuc", {
            "id": serializers.IntegerField(), "basarili": serializers.BooleanField(),
            "hata": serializers.DictField(allow_null=True, help_text="{kod, mesaj} ya da null"),
        }, many=True)}), 400: OpenApiResponse(description="GECERSIZ_ISTEK"),
            401: OpenApiResponse(description="KIMLIK_GEREKLI, GECERSIZ_TOKEN")},
    )
    def post(self, request):
        tur, idler, eylem = toplu.istek_dogrula(request.data)
        sonuclar = toplu.toplu_uygula(kullanici=request.user, musteri_idleri=self.musteri_idleri, tur=tur, idler=idler,
                                      eylem=eylem, ip=istek_ip(request))
        return basarili({"sonuclar": sonuclar})
