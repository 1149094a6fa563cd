from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework.parsers import FormParser, MultiPartParser

from supportdesk.core.exceptions import DosyaCokBuyuk, GecersizIstek
from supportdesk.core.girdi import govde_siniri, id_coz
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView, WidgetAPIView
from tenants.selectors import uyelik_get

from .. import services
from ..yukleme import EN_BUYUK_BOYUT, MULTIPART_PAYI, BoyutSiniri
from . import serializers as s


class WidgetUploadView(WidgetAPIView):
    # A plain form post is parsed too, so that a body without the file is a 400 naming `dosya`
    # rather than a 415; JSON stays refused (a file cannot travel in it).
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        summary=gettext_lazy("Dosya yükle (en çok 10 MB; PNG, JPEG, GIF, WebP, PDF, düz metin)"),
        request={"multipart/form-data": s.YuklemeSerializer},
        responses={201: inline_serializer("DosyaYanit", {"dosya": s.DosyaSerializer()}),
                   400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                   413: OpenApiResponse(description="DOSYA_COK_BUYUK"),
                   415: OpenApiResponse(description="DESTEKLENMEYEN_DOSYA")},
    )
    def post(self, request):
        dosya, ziyaretci_id = _multipart_dosya(request, lambda: self.ziyaretci_id())
        kayit = services.dosya_yukle(musteri=self.musteri, ziyaretci_id=ziyaretci_id, dosya=dosya)
        return basarili({"dosya": s.DosyaSerializer(kayit, context={"request": request}).data}, status=201)


def _multipart_dosya(request, alan_oku):
    """The `dosya` part of a multipart body under the upload limits, and `alan_oku()` (read
    while the body is parsed): the same checks for a visitor's and an operator's upload."""
    # Refused from the header alone, before a byte of the body is read.
    govde_siniri(request, EN_BUYUK_BOYUT + MULTIPART_PAYI)
    sinir = BoyutSiniri(request._request)
    request._request.upload_handlers.insert(0, sinir)
    try:
        alan = alan_oku()
        dosya = request.FILES.get("dosya")
    except (TooManyFieldsSent, TooManyFilesSent):
        raise GecersizIstek(_("Çok fazla alan ya da dosya gönderildi.")) from None
    if sinir.asildi:
        raise DosyaCokBuyuk()
    if dosya is None:
        raise GecersizIstek(alanlar={"dosya": _("Zorunlu alan; multipart dosya olmalı.")})
    return dosya, alan


class OperatorUploadView(OperatorAPIView):
    """The console's upload (an image or PDF in a chat, attachments of a ticket reply): the
    widget's limits and content sniffing, owned by the operator within one of its tenants."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        summary=gettext_lazy("Operatör dosya yükle (en çok 10 MB; PNG, JPEG, GIF, WebP, PDF, düz metin); `musteri_id` projeniz"),
        request={"multipart/form-data": s.OperatorYuklemeSerializer},
        responses={201: inline_serializer("OperatorDosyaYanit", {"dosya": s.DosyaSerializer()}),
                   400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                   404: OpenApiResponse(description="BULUNAMADI"),
                   413: OpenApiResponse(description="DOSYA_COK_BUYUK"),
                   415: OpenApiResponse(description="DESTEKLENMEYEN_DOSYA")},
    )
    def post(self, request):
        dosya, musteri_id = _multipart_dosya(request, lambda: request.data.get("musteri_id"))
        if musteri_id in (None, ""):
            raise GecersizIstek(alanlar={"musteri_id": _("Zorunlu alan.")})
        uyelik = uyelik_get(kullanici=request.user, musteri_id=id_coz(musteri_id))
        kayit = services.dosya_yukle(musteri=uyelik.musteri, ziyaretci_id="", dosya=dosya, yukleyen=request.user)
        return basarili({"dosya": s.DosyaSerializer(kayit, context={"request": request}).data}, status=201)
