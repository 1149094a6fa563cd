"""Thin views: the transcript request of the widget and the inbound mail hook."""
from django.conf import settings
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import BaseParser

from supportdesk.core.exceptions import DosyaCokBuyuk, KimlikGerekli
from supportdesk.core.responses import basarili
from supportdesk.core.views import AcikAPIView
from tenants.api.temel import WidgetAPIView

from .. import services


class DokumIstekSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField()
    oturum_id = serializers.IntegerField()
    email = serializers.CharField(required=False, allow_blank=True, allow_null=True)


def _hatalar(*kodlar: str) -> dict:
    durumlar = {"GECERSIZ_ISTEK": 400, "KIMLIK_GEREKLI": 401, "BULUNAMADI": 404, "DURUM_CAKISMASI": 409,
                "DOSYA_COK_BUYUK": 413, "DESTEKLENMEYEN_DOSYA": 415, "LIMIT_ASILDI": 429}
    return {durumlar[k]: OpenApiResponse(description=k) for k in kodlar}


class WidgetSohbetDokumuView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy(
            "Kapanmış sohbetin dökümünü ziyaretçiye e-postayla gönder (sohbet başına en çok 3)"),
        request=DokumIstekSerializer,
        responses={201: inline_serializer("SohbetDokumu", {"eposta": inline_serializer("SohbetDokumuEposta", {
            "oturum_id": serializers.IntegerField(), "alici": serializers.EmailField(),
            "durum": serializers.CharField()})}),
            **_hatalar("GECERSIZ_ISTEK", "BULUNAMADI", "DURUM_CAKISMASI", "LIMIT_ASILDI")},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = request.data if isinstance(request.data, dict) else {}
        eposta = services.oturum_dokumu_gonder(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, oturum_id=veri.get("oturum_id"), email=veri.get("email"),
        )
        return basarili({"eposta": {"oturum_id": eposta.oturum_id, "alici": eposta.alici, "durum": eposta.durum}},
                        status=201)


class HamEpostaParser(BaseParser):
    """The raw RFC 822 message as bytes, whatever the Content-Type (`message/rfc822`,
    `text/plain`, `application/octet-stream`: what mail providers and an MTA pipe send), read up
    to INBOUND_EMAIL_MAX_BYTES + 1 so an oversized body is refused without being held whole."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return b""
        ham = stream.read(settings.INBOUND_EMAIL_MAX_BYTES + 1)
        if len(ham) > settings.INBOUND_EMAIL_MAX_BYTES:
            raise DosyaCokBuyuk(_("E-posta boyut sınırını aşıyor."))
        return ham


_GELEN_YANITI = inline_serializer("GelenEposta", {"gelen": inline_serializer("GelenEpostaKayit", {
    "id": serializers.IntegerField(allow_null=True), "sonuc": serializers.CharField(),
    "ticket_id": serializers.IntegerField(allow_null=True), "yinelenen": serializers.BooleanField()})})
_YOK_SAYILDI = {"id": None, "sonuc": "yok_sayildi", "ticket_id": None, "yinelenen": False}


class GelenEpostaView(AcikAPIView):
    """`POST /inbound/email`: authenticated by the shared secret in `X-Inbound-Secret`."""

    parser_classes = [HamEpostaParser]

    @extend_schema(
        summary=gettext_lazy("Gelen e-posta (ham RFC 822 ileti; X-Inbound-Secret başlığı)"),
        description="201: saklandı. 200: aynı Message-ID bu proje için daha önce alınmış "  # ceviri: yok
                    "(`yinelenen: true`), ya da "
                    "otomatik bir e-posta (Auto-Submitted, Precedence: bulk…; `sonuc: yok_sayildi`): hiçbir şey eklenmedi.",
        request={"message/rfc822": {"type": "string", "format": "binary"}},
        responses={
            201: _GELEN_YANITI,
            200: _GELEN_YANITI,
            **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI", "DURUM_CAKISMASI", "DOSYA_COK_BUYUK",
                       "DESTEKLENMEYEN_DOSYA"),
        },
    )
    def post(self, request):
        # The secret is checked before the body is read or parsed.
        gizli = request.headers.get("X-Inbound-Secret", "")
        if not gizli or not constant_time_compare(gizli, settings.INBOUND_EMAIL_SECRET):
            raise KimlikGerekli(_("Gelen e-posta anahtarı (X-Inbound-Secret) eksik ya da yanlış."))
        ham = request.data if isinstance(request.data, bytes) else b""
        kayit, yeni = services.gelen_eposta_isle(ham=ham)
        if kayit is None:
            return basarili({"gelen": _YOK_SAYILDI})  # an automatic message: a success, so no retry
        veri = {"id": kayit.id, "sonuc": kayit.sonuc, "ticket_id": kayit.ticket_id, "yinelenen": not yeni}
        return basarili({"gelen": veri}, status=201 if yeni else 200)
