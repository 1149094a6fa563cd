"""Teams' REST API (CONTRACT 22): `GET`/`POST /operator/tenants/{musteriId}/ekipler` (list: any
member; create: `sahip`, `yonetici`) and `PUT`/`DELETE /operator/ekipler/{id}` (`sahip`,
`yonetici`). Built as the labels' API (tenants.api.views): the service (tenants.ekipler) checks the
body, the view checks who may. The writes go through `chat.yonlendirme` (issue 40), which drains the
tenant's queue when a team's mode or members change or it goes; `tenants.api` cannot call up into
`chat`, so these views live here, above both."""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from chat import yonlendirme
from supportdesk.core import mesajlar
from supportdesk.core.exceptions import GecersizIstek, Yetkisiz
from supportdesk.core.responses import basarili
from tenants import ekipler
from tenants.api.temel import OperatorAPIView, istek_ip
from tenants.selectors import uyelik_get

ALANLAR = ("ad", "uyeler", "atama_modu", "widgetta_secilir")
YONETICI_GEREKLI = gettext_lazy("Ekipleri yalnızca proje sahibi ve yöneticiler düzenleyebilir.")


class EkipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    musteri_id = serializers.IntegerField()
    ad = serializers.CharField()
    uyeler = serializers.ListField(child=serializers.IntegerField(), help_text=gettext_lazy("Üye operatörlerin id'leri."))
    atama_modu = serializers.CharField(allow_null=True, help_text="null (projeninki) | manuel | sirayla | en_az_yuklu")
    widgetta_secilir = serializers.BooleanField()


class EkipIstekSerializer(serializers.Serializer):
    # Checked by the service (tenants.ekipler): the schema only describes the body.
    ad = serializers.CharField(help_text=gettext_lazy("1-60 karakter; projede tekil (Türkçe büyük/küçük harf farkı "
                                                      "sayılmaz)."))
    uyeler = serializers.ListField(child=serializers.IntegerField(), required=False,
                                   help_text=gettext_lazy("Projenin üyesi operatörlerin id'leri (tüm liste)."))
    atama_modu = serializers.CharField(required=False, allow_null=True,
                                       help_text="null (projeninki) | manuel | sirayla | en_az_yuklu")
    widgetta_secilir = serializers.BooleanField(required=False)


def _govde(request) -> dict:
    if not isinstance(request.data, dict):
        raise GecersizIstek(alanlar={"genel": mesajlar.GOVDE_NESNE_OLMALI})
    bilinmeyen = sorted(set(request.data) - set(ALANLAR))
    if bilinmeyen:
        raise GecersizIstek(alanlar={a: _("Bilinmeyen alan.") for a in bilinmeyen})
    return request.data


def _yonetici_mi(request, musteri_id: int) -> None:
    if not uyelik_get(kullanici=request.user, musteri_id=musteri_id).yonetebilir:
        raise Yetkisiz(str(YONETICI_GEREKLI))


class TenantEkipleriView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Projenin ekipleri (her üye)"),
                   responses={200: inline_serializer("EkipListesi", {"ekipler": EkipSerializer(many=True)}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"ekipler": [ekipler.ekip_verisi(e) for e in ekipler.ekip_list(musteri_id=musteri_id)]})

    @extend_schema(summary=gettext_lazy("Ekip oluştur (sahip, yönetici; `ekip_degisti` denetim kaydı)"),
                   request=EkipIstekSerializer,
                   responses={201: inline_serializer("EkipYaniti", {"ekip": EkipSerializer()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                              403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def post(self, request, musteri_id: int):
        _yonetici_mi(request, musteri_id)
        govde = _govde(request)
        ekip = yonlendirme.ekip_olustur(musteri_id=musteri_id, aktor_id=request.user.pk, ip=istek_ip(request),
                                    ad=govde.get("ad"), **{a: govde[a] for a in ALANLAR[1:] if a in govde})
        return basarili({"ekip": ekipler.ekip_verisi(ekip)}, status=201)


class EkipView(OperatorAPIView):
    def _yonetilen(self, request, ekip_id: int):
        # Another tenant's team is a 404 before the role is looked at (existence is not leaked).
        ekip = ekipler.ekip_get(musteri_idleri=self.musteri_idleri, ekip_id=ekip_id)
        _yonetici_mi(request, ekip.musteri_id)
        return ekip

    @extend_schema(summary=gettext_lazy("Ekibi değiştir (sahip, yönetici): yalnızca verilen alanlar"),
                   request=EkipIstekSerializer,
                   responses={200: inline_serializer("EkipGuncelleYaniti", {"ekip": EkipSerializer()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                              403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def put(self, request, ekip_id: int):
        ekip = self._yonetilen(request, ekip_id)
        govde = _govde(request)
        if not govde:
            raise GecersizIstek(alanlar={"genel": _("En az bir alan verilmeli: %(alanlar)s.")
                                         % {"alanlar": ", ".join(ALANLAR)}})
        ekip = yonlendirme.ekip_guncelle(ekip=ekip, aktor_id=request.user.pk, ip=istek_ip(request), **govde)
        return basarili({"ekip": ekipler.ekip_verisi(ekip)})

    @extend_schema(summary=gettext_lazy("Ekibi sil (sahip, yönetici): sohbet ve talepleri ekipsiz kalır"), request=None,
                   responses={200: dict, 403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def delete(self, request, ekip_id: int):
        ekip = self._yonetilen(request, ekip_id)
        yonlendirme.ekip_sil(ekip=ekip, aktor_id=request.user.pk, ip=istek_ip(request))
        return basarili({})
