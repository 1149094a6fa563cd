"""Rules and macros over REST (CONTRACT 23). Views check who may act and hand the body to the
services, which validate every part before saving."""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema

from chat import selectors as chat_selectors
from chat.api.serializers import oturum_verisi
from supportdesk.core.exceptions import GecersizIstek, Yetkisiz
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView, istek_ip
from tenants.selectors import uyelik_get
from tickets import selectors as ticket_selectors
from tickets.api.serializers import OperatorTicketSerializer

from .. import selectors, services

_HATALAR = {400: OpenApiResponse(description="GECERSIZ_ISTEK"), 403: OpenApiResponse(description="YETKISIZ"),
            404: OpenApiResponse(description="BULUNAMADI")}


def _yonetici_olmali(request, musteri_id: int) -> None:
    if not uyelik_get(kullanici=request.user, musteri_id=musteri_id).yonetebilir:
        raise Yetkisiz(_("Kuralları yalnızca proje sahibi ve yöneticiler düzenleyebilir."))


class TenantKurallariView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Projenin otomasyon kuralları (her üye)"), responses={200: dict, **_HATALAR})
    def get(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"kurallar": [selectors.kural_verisi(k) for k in selectors.kural_list(musteri_id=musteri_id)]})

    @extend_schema(summary=gettext_lazy("Kural oluştur (sahip, yönetici; `kural_degisti` denetim kaydı)"),
                   request=dict, responses={201: dict, **_HATALAR})
    def post(self, request, musteri_id: int):
        _yonetici_olmali(request, musteri_id)
        kural = services.kural_olustur(musteri_id=musteri_id, veri=request.data, aktor_id=request.user.pk,
                                       ip=istek_ip(request))
        return basarili({"kural": selectors.kural_verisi(kural)}, status=201)


class KuralView(OperatorAPIView):
    def _yonetilen(self, request, kural_id: int):
        # Another tenant's rule is a 404 before the role is looked at (existence is not leaked).
        kural = selectors.kural_get(musteri_idleri=self.musteri_idleri, kural_id=kural_id)
        _yonetici_olmali(request, kural.musteri_id)
        return kural

    @extend_schema(summary=gettext_lazy("Kuralı değiştir (yalnız verilen alanlar; sahip, yönetici)"), request=dict,
                   responses={200: dict, **_HATALAR})
    def put(self, request, kural_id: int):
        kural = services.kural_guncelle(kural=self._yonetilen(request, kural_id), veri=request.data,
                                        aktor_id=request.user.pk, ip=istek_ip(request))
        return basarili({"kural": selectors.kural_verisi(kural)})

    @extend_schema(summary=gettext_lazy("Kuralı sil (sahip, yönetici)"), request=None, responses={200: dict, **_HATALAR})
    def delete(self, request, kural_id: int):
        services.kural_sil(kural=self._yonetilen(request, kural_id), aktor_id=request.user.pk, ip=istek_ip(request))
        return basarili({})


class KuralCalismalariView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Kuralın son 100 çalışması (her üye)"), responses={200: dict, **_HATALAR})
    def get(self, request, kural_id: int):
        kural = selectors.kural_get(musteri_idleri=self.musteri_idleri, kural_id=kural_id)
        return basarili({"calismalar": [selectors.calisma_verisi(c) for c in selectors.calisma_list(kural=kural)]})


# --- macros ------------------------------------------------------------------------------------
class TenantMakrolariView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Görebildiğiniz makrolar: paylaşımlılar ve kendinizinkiler"),
                   responses={200: dict, **_HATALAR})
    def get(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        makrolar = selectors.makro_list(musteri_id=musteri_id, kullanici_id=request.user.pk)
        return basarili({"makrolar": [selectors.makro_verisi(m) for m in makrolar]})

    @extend_schema(summary=gettext_lazy("Makro oluştur (her üye; paylaşımlı: sahip, yönetici)"), request=dict,
                   responses={201: dict, **_HATALAR})
    def post(self, request, musteri_id: int):
        uyelik = uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        makro = services.makro_olustur(musteri_id=musteri_id, kullanici=request.user, yonetebilir=uyelik.yonetebilir,
                                       veri=request.data)
        return basarili({"makro": selectors.makro_verisi(makro)}, status=201)


class MakroView(OperatorAPIView):
    def _duzenlenen(self, request, makro_id: int):
        makro = selectors.makro_get(musteri_idleri=self.musteri_idleri, kullanici_id=request.user.pk, makro_id=makro_id)
        yonetebilir = uyelik_get(kullanici=request.user, musteri_id=makro.musteri_id).yonetebilir
        if makro.sahip_id != request.user.pk and not yonetebilir:
            raise Yetkisiz(_("Paylaşımlı makroları yalnızca sahibi, proje sahibi ve yöneticiler düzenleyebilir."))
        return makro, yonetebilir

    @extend_schema(summary=gettext_lazy("Makroyu değiştir (sahibi; paylaşımlıysa sahip, yönetici de)"), request=dict,
                   responses={200: dict, **_HATALAR})
    def put(self, request, makro_id: int):
        makro, yonetebilir = self._duzenlenen(request, makro_id)
        makro = services.makro_guncelle(makro=makro, yonetebilir=yonetebilir, veri=request.data)
        return basarili({"makro": selectors.makro_verisi(makro)})

    @extend_schema(summary=gettext_lazy("Makroyu sil"), request=None, responses={200: dict, **_HATALAR})
    def delete(self, request, makro_id: int):
        makro, _yonetebilir = self._duzenlenen(request, makro_id)
        makro.delete()
        return basarili({})


class MakroUygulaView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Makroyu bir sohbete ya da talebe uygula (hep ya da hiç)"), request=dict,
                   responses={200: dict, 409: OpenApiResponse(description="DURUM_CAKISMASI"), **_HATALAR})
    def post(self, request, makro_id: int):
        if not isinstance(request.data, dict):
            raise GecersizIstek(alanlar={"genel": _("İstek gövdesi bir JSON nesnesi olmalı.")})
        makro = selectors.makro_get(musteri_idleri=self.musteri_idleri, kullanici_id=request.user.pk, makro_id=makro_id)
        tur = request.data.get("tur")
        nesne_id = services.makro_uygula(makro=makro, kullanici=request.user, musteri_idleri=self.musteri_idleri,
                                         tur=tur, hedef_id=request.data.get("id"))
        if tur == "chat":
            return basarili({"oturum": oturum_verisi(chat_selectors.oturum_get(musteri_idleri=self.musteri_idleri,
                                                                                oturum_id=nesne_id))})
        ticket = ticket_selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=nesne_id, detay=False)
        return basarili({"ticket": OperatorTicketSerializer(ticket).data})
