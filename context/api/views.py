import base64
import binascii
import re

from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from chat.api.serializers import OturumSerializer, oturum_verisi
from supportdesk.core.exceptions import Bulunamadi, DosyaCokBuyuk, GecersizIstek
from supportdesk.core.fields import ZamanField
from supportdesk.core.girdi import ZIYARETCI_ID_MAX, gecerli_id_mi, govde_siniri
from supportdesk.core.replika import replikadan
from supportdesk.core.responses import basarili
from supportdesk.core.views import JSONAyristirici
from tenants.api.temel import OperatorAPIView, WidgetAPIView
from tickets.api.serializers import OperatorTicketSerializer

from .. import selectors, services
from ..profil import ziyaretci_profili_get
from . import serializers as s
from .kisi_serializers import KisiSerializer

_HATALAR = {
    400: OpenApiResponse(description="GECERSIZ_ISTEK"),
    401: OpenApiResponse(description="KIMLIK_GEREKLI, GECERSIZ_API_ANAHTARI"),
    403: OpenApiResponse(description="ORIGIN_IZINSIZ"),
    429: OpenApiResponse(description="LIMIT_ASILDI"),
}


def _dogrula(serializer_class, data, **kwargs) -> dict:
    ser = serializer_class(data=data, **kwargs)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


class MusteriBilgisiView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Ziyaretçi profili; isteğe bağlı imzalı kimlik (spec 2.4, 4.5, 5.3)"),
        request=s.MusteriBilgisiSerializer,
        responses={200: s.MusteriBilgisiYanitiSerializer, **_HATALAR,
                   401: OpenApiResponse(description="GECERSIZ_IMZA, IMZA_GEREKLI, KIMLIK_GEREKLI, GECERSIZ_API_ANAHTARI")},
    )
    def post(self, request):
        # A signed call needs no visitor token: the tenant's server, which signs, holds none; an
        # unsigned one on a tenant that requires signatures is refused by the service (IMZA_GEREKLI).
        imzali = hasattr(request.data, "get") and request.data.get("signature") is not None
        ziyaretci_id = self.ziyaretci_id(token_denetle=not imzali and not self.musteri.kimlik_dogrulama_zorunlu)
        alanlar = _dogrula(s.ProfilGirdiSerializer, request.data)
        ziyaretci, _ = services.ziyaretci_profil_kaydet(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, profil=dict(alanlar),
            signature=request.data.get("signature"), timestamp=request.data.get("timestamp"),
            simdi=getattr(request, "gelis_zamani", None),
        )
        return Response(s.MusteriBilgisiYanitiSerializer(ziyaretci).data)


class SayfaBilgisiView(WidgetAPIView):
    @extend_schema(summary=gettext_lazy("Ziyaretçinin açtığı sayfa"), request=s.SayfaGirdiSerializer,
                   responses={201: s.SayfaYanitSerializer, **_HATALAR})
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.SayfaGirdiSerializer, request.data)
        sayfa = services.sayfa_ekle(musteri=self.musteri, ziyaretci_id=ziyaretci_id, url=veri["url"],
                                    baslik=veri.get("baslik") or "", referrer=veri.get("referrer") or "")
        return basarili(s.SayfaYanitSerializer(sayfa).data, status=201)


class HataLoguView(WidgetAPIView):
    @extend_schema(summary=gettext_lazy("Ziyaretçinin tarayıcısındaki JavaScript hatası"), request=s.HataGirdiSerializer,
                   responses={201: s.HataKaydiYanitSerializer, **_HATALAR})
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.HataGirdiSerializer, request.data)
        kayit = services.hata_kaydi_ekle(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, mesaj=veri["mesaj"], kaynak=veri.get("kaynak") or "",
            satir=veri.get("satir"), stack=veri.get("stack") or "", url=veri.get("url") or "",
            # The calling browser's own User-Agent when the site does not say.
            tarayici=veri.get("tarayici") or request.META.get("HTTP_USER_AGENT", "")[:500],
        )
        return basarili(s.HataKaydiYanitSerializer(kayit).data, status=201)


_DATA_URL = re.compile(r"data:[\w.+/-]*(?:;[\w.+=-]+)*;base64,(?P<b64>.*)", re.DOTALL | re.IGNORECASE)
# Base64 of the largest allowed image, plus room for the rest of a JSON or multipart body.
_GOVDE_MAX_BAYT = (services.EKRAN_GORUNTUSU_MAX_BAYT * 4) // 3 + 64 * 1024


def _data_url_coz(value: str) -> bytes:
    match = _DATA_URL.fullmatch(value.strip())
    if not match:
        raise GecersizIstek(alanlar={"gorsel": gettext("data:image/...;base64,... biçiminde bir data URL olmalı.")})
    b64 = re.sub(r"\s+", "", match.group("b64"))
    if len(b64) * 3 // 4 > services.EKRAN_GORUNTUSU_MAX_BAYT + 2:
        raise DosyaCokBuyuk()
    try:
        return base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise GecersizIstek(alanlar={"gorsel": gettext("Geçerli base64 değil.")}) from None


class EkranGoruntusuView(WidgetAPIView):
    # A form post without a file (or with the data URL as a field) is read too, so it gets the
    # field's 400 rather than a 415 about the body.
    parser_classes = [JSONAyristirici, MultiPartParser, FormParser]

    @extend_schema(
        summary=gettext_lazy("Ekran görüntüsü (PNG ya da JPEG, en çok 5 MB; çok parçalı ya da data URL)"),
        request={"multipart/form-data": s.EkranGoruntusuIstekSerializer, "application/json": s.EkranGoruntusuIstekSerializer},
        responses={201: s.EkranGoruntusuYanitSerializer,
                   413: OpenApiResponse(description="DOSYA_COK_BUYUK"), 415: OpenApiResponse(description="DESTEKLENMEYEN_DOSYA"),
                   **_HATALAR},
    )
    def post(self, request):
        # Refused before the body is read: a huge upload costs neither memory nor disk.
        govde_siniri(request, _GOVDE_MAX_BAYT)
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.EkranGoruntusuGirdiSerializer, request.data)
        kayit = services.ekran_goruntusu_ekle(musteri=self.musteri, ziyaretci_id=ziyaretci_id,
                                              icerik=self._gorsel(request), url=veri.get("url") or "")
        return basarili(s.EkranGoruntusuYanitSerializer(kayit, context={"request": request}).data, status=201)

    @staticmethod
    def _gorsel(request) -> bytes:
        gorsel = request.FILES.get("gorsel") if hasattr(request, "FILES") else None
        if gorsel is None:
            gorsel = request.data.get("gorsel")
        if isinstance(gorsel, UploadedFile):
            if gorsel.size > services.EKRAN_GORUNTUSU_MAX_BAYT:
                raise DosyaCokBuyuk()
            return gorsel.read()
        if isinstance(gorsel, str) and gorsel:
            return _data_url_coz(gorsel)
        raise GecersizIstek(alanlar={"gorsel": gettext("Zorunlu alan: dosya ya da data URL.")})


class OperatorBaglamView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Ziyaretçi bağlamı: profil, banner, son sayfalar, hatalar ve ekran görüntüleri (spec 2.5)"),
        parameters=[OpenApiParameter("musteri_id", int, description="Ziyaretçi birden çok projenizde varsa zorunlu.")],
        responses={200: s.BaglamSerializer,
                   400: OpenApiResponse(description="GECERSIZ_ISTEK (birden çok proje: musteri_id gerekli)"),
                   401: OpenApiResponse(description="KIMLIK_GEREKLI, GECERSIZ_TOKEN"),
                   404: OpenApiResponse(description="BULUNAMADI")},
    )
    @replikadan
    def get(self, request, ziyaretci_id: str):
        # A visitor id is printable text of at most 128 characters (ziyaretci_id_dogrula): any other
        # path names nobody, and a NUL must not reach PostgreSQL, which refuses it.
        if len(ziyaretci_id) > ZIYARETCI_ID_MAX or not ziyaretci_id.isprintable():
            raise Bulunamadi()
        baglam = selectors.baglam_get(musteri_idleri=self.musteri_idleri, ziyaretci_id=ziyaretci_id,
                                      musteri_id=musteri_id_parametresi(request.query_params))
        return basarili(s.BaglamSerializer(baglam, context={"request": request}).data)


def musteri_id_parametresi(params) -> int | None:
    """`?musteri_id=` of the visitor endpoints (CONTRACT 6): absent, or a valid id (else 400)."""
    raw = params.get("musteri_id")
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except ValueError:
        raise GecersizIstek(alanlar={"musteri_id": gettext("Tamsayı olmalı.")}) from None
    if not gecerli_id_mi(value):
        raise GecersizIstek(alanlar={"musteri_id": gettext("Geçerli bir proje kimliği olmalı.")})
    return value


class ZiyaretciOzetSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField()
    musteri_id = serializers.IntegerField()
    ad = serializers.CharField()
    email = serializers.CharField()
    identity_dogrulandi = serializers.BooleanField()
    ilk_gorulme = ZamanField(allow_null=True)
    son_gorulme = ZamanField(allow_null=True)
    oturum_sayisi = serializers.IntegerField()
    ticket_sayisi = serializers.IntegerField()
    ortalama_puan = serializers.FloatField(allow_null=True)


class OperatorZiyaretciProfilView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Ziyaretçi profili: özet, en yeni 20 sohbet ve 20 ticket (operatör biçimleri; CONTRACT 16)"),
        parameters=[OpenApiParameter("musteri_id", int, description="Ziyaretçi birden çok projenizde varsa zorunlu.")],
        responses={200: inline_serializer("ZiyaretciProfili", {
            "ziyaretci": ZiyaretciOzetSerializer(), "kisi": KisiSerializer(allow_null=True),
            "oturumlar": OturumSerializer(many=True),
            "ticketlar": OperatorTicketSerializer(many=True)}),
            400: OpenApiResponse(description="GECERSIZ_ISTEK (birden çok proje: musteri_id gerekli)"),
            404: OpenApiResponse(description="BULUNAMADI")},
    )
    @replikadan
    def get(self, request, ziyaretci_id: str):
        if len(ziyaretci_id) > ZIYARETCI_ID_MAX or not ziyaretci_id.isprintable():
            raise Bulunamadi()
        profil = ziyaretci_profili_get(musteri_idleri=self.musteri_idleri, ziyaretci_id=ziyaretci_id,
                                       musteri_id=musteri_id_parametresi(request.query_params))
        z, kisi = profil.ziyaretci, profil.kisi
        ozet = {"ziyaretci_id": z.ziyaretci_id, "musteri_id": z.musteri_id,
                "ad": (kisi and kisi["ad"]) or " ".join(p for p in (z.ad, z.soyad) if p).strip(),
                "email": (kisi and kisi["email"]) or z.email,
                "identity_dogrulandi": z.identity_dogrulandi, **profil.ozet}
        return basarili({
            "ziyaretci": ZiyaretciOzetSerializer(ozet).data,
            "kisi": KisiSerializer(kisi).data if kisi else None,
            "oturumlar": [oturum_verisi(o) for o in profil.oturumlar],
            "ticketlar": OperatorTicketSerializer(profil.ticketlar, many=True).data,
        })
