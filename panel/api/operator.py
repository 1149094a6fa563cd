"""The operator's calls whose change routing follows (issue 40): its status, its logout, muting a
tab, the tenant's settings. Each view calls one action of `chat` (`chat.operator_durumu`,
`chat.uyeler`, `chat.yonlendirme`), which makes the change through `tenants` and then routes, as
explicit steps; `tenants.api` cannot call up into `chat`, so these views live here, above both.
The paths and their answers are the contract's, unchanged (`tenants.api.urls` keeps the rest of
the operator's tenant calls)."""
from datetime import UTC, datetime

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from chat import operator_durumu, uyeler, yonlendirme
from supportdesk.core.responses import basarili
from supportdesk.core.throttling import istemci_ip
from tenants import services
from tenants.api import serializers as s
from tenants.api.temel import OperatorAPIView
from tenants.api.views import musteri_listesi
from tenants.ayarlar import ALANLAR, ayarlar_oku
from tenants.models import Kullanici
from tenants.selectors import uyelik_get, uyelik_list


class CikisView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Çıkış: sunulan token hemen geçersiz olur"), request=None, responses={200: dict})
    def post(self, request):
        token = request.auth
        # Revokes the token and makes the operator offline, emitting operator_cevrimdisi (CONTRACT
        # 7) once however many logouts with this token race; its chats go back to routing.
        operator_durumu.cikis_yap(kullanici=request.user, jti=token["jti"],
                                  bitis=datetime.fromtimestamp(token["exp"], tz=UTC))
        return basarili({})


class TenantSessizeView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Sekmeyi sessize al / aç"), request=s.SessizeSerializer,
                   responses={200: inline_serializer("TenantSessize", {
                       "musteri": s.UyelikSerializer(), "musteriler": s.UyelikSerializer(many=True)})})
    def put(self, request, musteri_id: int):
        ser = s.SessizeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        uyeler.sessize_al(kullanici=request.user, musteri_id=musteri_id, sessize=ser.validated_data["sessize"])
        musteriler = musteri_listesi(uyelik_list(kullanici=request.user))
        # The changed tab, and the whole list as `PUT .../sira` and `GET /operator/tenants` give it.
        return basarili({"musteri": next(m for m in musteriler if m["id"] == musteri_id), "musteriler": musteriler})


class TenantAyarlarView(OperatorAPIView):
    """Routing, working hours and timed rules (CONTRACT 15): read by every member, written by
    `sahip` and `yonetici`; another tenant's is 404."""

    @extend_schema(summary=gettext_lazy("Projenin yönlendirme ve mesai ayarları"),
                   responses={200: inline_serializer("TenantAyarlar", {"ayarlar": serializers.DictField()}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, musteri_id: int):
        uyelik = uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"ayarlar": ayarlar_oku(uyelik.musteri)})

    @extend_schema(summary=gettext_lazy("Ayarları değiştir (yalnız gönderilen alanlar; sahip ve yönetici)"),
                   request=inline_serializer("TenantAyarlarGirdi", {alan: serializers.JSONField(required=False)
                                                                    for alan in ALANLAR}),
                   responses={200: inline_serializer("TenantAyarlarYanit", {"ayarlar": serializers.DictField()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                              403: OpenApiResponse(description="YETKISIZ"), 404: OpenApiResponse(description="BULUNAMADI")})
    def put(self, request, musteri_id: int):
        uyelik = uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        services.ayar_yetkisi(uyelik)
        yonlendirme.ayarlari_guncelle(musteri=uyelik.musteri, kullanici=request.user, degisiklikler=request.data,
                                      ip=istemci_ip(request))
        uyelik.musteri.refresh_from_db()
        return basarili({"ayarlar": ayarlar_oku(uyelik.musteri)})


class OperatorDurumSerializer(serializers.Serializer):
    durum = serializers.ChoiceField(choices=Kullanici.Durum.choices)


class OperatorDurumView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Operatörün kendi durumu (cevrimici, mesgul, cevrimdisi)"),
        request=OperatorDurumSerializer,
        responses={200: inline_serializer("OperatorDurum", {
            "operator_id": serializers.IntegerField(), "durum": serializers.CharField(),
        }), 400: OpenApiResponse(description="GECERSIZ_ISTEK")},
    )
    def post(self, request):
        ser = OperatorDurumSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        kullanici = operator_durumu.durum_ayarla(kullanici=request.user, durum=ser.validated_data["durum"])
        return basarili({"operator_id": kullanici.pk, "durum": kullanici.durum})
