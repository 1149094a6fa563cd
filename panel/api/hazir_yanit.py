"""`GET /operator/canned-responses/{id}/doldur`: a canned response filled in for one chat or
ticket (CONTRACT 16's variables), composed here above chats and tickets. The console may fill
the same variables itself from what it holds; this answer is the server's reference."""
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from chat.api.serializers import HazirYanitSerializer, hazir_yanit_verisi
from chat.selectors import hazir_yanit_get, oturum_get
from chat.services import hazir_yanit_doldur, operator_gorunen_adi
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.girdi import sorgu_tam_sayisi
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView
from tenants.models import Musteri
from tickets.selectors import operator_ticket_get

NEREDE_MESAJI = gettext_lazy("Tam olarak biri verilmeli: oturum_id ya da ticket_id (pozitif tam sayı).")


def _nesne(view, params):
    oturum_id, ticket_id = params.get("oturum_id"), params.get("ticket_id")
    if (oturum_id is None) == (ticket_id is None):
        raise GecersizIstek(alanlar={"oturum_id": NEREDE_MESAJI})
    ham, alan = (oturum_id, "oturum_id") if oturum_id is not None else (ticket_id, "ticket_id")
    deger = sorgu_tam_sayisi(ham)
    if not isinstance(deger, int) or deger < 1:
        raise GecersizIstek(alanlar={alan: NEREDE_MESAJI})
    if alan == "oturum_id":
        oturum = oturum_get(musteri_idleri=view.musteri_idleri, oturum_id=deger)
        return oturum.musteri_id, oturum.ziyaretci_adi, oturum.email
    ticket = operator_ticket_get(musteri_idleri=view.musteri_idleri, ticket_id=deger, detay=False)
    return ticket.musteri_id, ticket.ad, ticket.email


class HazirYanitDoldurView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Hazır yanıtı bir sohbet ya da ticket için doldur ({ziyaretci_adi}, {ziyaretci_email}, "
                "{operator_adi}, {firma_adi}; bilinmeyen {ad} olduğu gibi kalır)"),
        parameters=[OpenApiParameter("oturum_id", int), OpenApiParameter("ticket_id", int)],
        responses={200: inline_serializer("HazirYanitDolu", {
            "hazir_yanit": HazirYanitSerializer(), "icerik": serializers.CharField()}),
            400: OpenApiResponse(description="GECERSIZ_ISTEK"),
            404: OpenApiResponse(description="BULUNAMADI (hazır yanıt, sohbet, ticket; ya da farklı projeler)")},  # ceviri: yok
    )
    def get(self, request, hazir_yanit_id: int):
        musteri_id, ad, email = _nesne(self, request.query_params)
        # The canned response must be of the chat's or ticket's own tenant (404 otherwise).
        yanit = hazir_yanit_get(musteri_id=musteri_id, hazir_yanit_id=hazir_yanit_id)
        firma_adi = Musteri.objects.filter(pk=musteri_id).values_list("firma_adi", flat=True).first() or ""
        icerik = hazir_yanit_doldur(yanit.icerik, {
            "ziyaretci_adi": ad, "ziyaretci_email": email, "operator_adi": operator_gorunen_adi(request.user),
            "firma_adi": firma_adi,
        })
        return basarili({"hazir_yanit": hazir_yanit_verisi(yanit), "icerik": icerik})
