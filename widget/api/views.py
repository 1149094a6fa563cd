"""`POST /widget/init`: the tenant's look (tenants) and the visitor's open chat (chat), composed
here, above both, so that neither imports the other."""
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers

from chat.api.serializers import WidgetOturumSerializer, widget_mesai_verisi, widget_oturum_verisi
from chat.selectors import (
    cevrimici_operator_var,
    sira_no,
    ticket_taslagi,
    ziyaretci_guncel_oturum,
    ziyaretci_oturum_get,
)
from supportdesk.core.dil import diller, etkinlestir, widget_dili
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.fields import StrictCharField, StrictIntegerField
from supportdesk.core.girdi import sorgu_tam_sayisi
from supportdesk.core.responses import basarili
from tenants.api import serializers as s
from tenants.api.temel import WidgetAPIView
from tenants.ayarlar import mesai_verisi
from tenants.gorunum import KONUMLAR, widget_gorunumu
from tenants.on_okuma import OnOkumaIhtiyaci
from tenants.selectors import musteri_widget_ekipleri
from tenants.ziyaretci import ziyaretci_erisimi_dogrula
from tickets.api.serializers import TicketDetaySerializer
from tickets.selectors import ziyaretci_ticket_get

from .. import services

# A chat closed this recently comes back after a reload (transcript and rating), issue 13.
SON_OTURUM_SURESI = timedelta(hours=24)


def _ziyaretci_durumu(*, musteri, ziyaretci_id: str) -> dict:
    # One query when the visitor has an open or a recently closed chat (queue place and operators
    # online come with it).
    oturum = ziyaretci_guncel_oturum(musteri=musteri, ziyaretci_id=ziyaretci_id,
                                     kapanis_siniri=timezone.now() - SON_OTURUM_SURESI)
    if oturum is None:
        return {"oturum": None, "son_oturum": None, "cevrimici_operator": cevrimici_operator_var(musteri_id=musteri.id)}
    cevrimici = cevrimici_operator_var(musteri_id=musteri.id, oturum=oturum)
    veri = widget_oturum_verisi(oturum, sira_no=sira_no(oturum=oturum), cevrimici_operator=cevrimici)
    if oturum.acik:
        return {"oturum": veri, "son_oturum": None, "cevrimici_operator": cevrimici}
    return {"oturum": None, "son_oturum": veri, "cevrimici_operator": cevrimici}


class WidgetInitView(WidgetAPIView):
    on_okuma = OnOkumaIhtiyaci(varlik=True)

    @extend_schema(
        summary=gettext_lazy("Widget başlangıcı: proje görünümü ve ziyaretçinin açık sohbeti"),
        request=s.WidgetInitSerializer,
        responses={200: inline_serializer("WidgetInit", {
            "musteri_id": serializers.IntegerField(), "firma_adi": serializers.CharField(),
            "logo_url": serializers.CharField(), "renk_primary": serializers.CharField(),
            "karsilama_metni": serializers.CharField(), "baslatici_konum": serializers.ChoiceField(choices=KONUMLAR),
            "ziyaretci_id": serializers.CharField(), "oturum": serializers.DictField(allow_null=True),
            "ziyaretci_token": serializers.CharField(
                required=False, help_text=gettext_lazy("Yalnızca token_iste ile (CONTRACT 2a).")),
            "son_oturum": serializers.DictField(
                allow_null=True, help_text=gettext_lazy("Açık sohbet yokken son 24 saatte kapanan son sohbet (okumak, "
                                                        "puanlamak).")),
            "mesai": s.MesaiSerializer(),
            "dil": serializers.ChoiceField(choices=diller(), help_text="Widget dili (CONTRACT 19)."),
            "ekipler": serializers.ListField(child=serializers.DictField(), help_text=gettext_lazy(
                "Ziyaretçinin seçebileceği ekipler `{\"id\", \"ad\"}` (CONTRACT 22); boşsa soru sorulmaz.")),
        })},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id(token_denetle=False)
        musteri = self.musteri
        # CONTRACT 19: init is the one request the widget sends with the browser's own language;
        # its answer (the closed text of `mesai`, any error) speaks the widget's, as every later
        # request does (the widget sends it as its Accept-Language once it knows it).
        etkinlestir(request, widget_dili(musteri, request))
        govde = request.data if hasattr(request.data, "get") else {}
        token_iste = govde.get("token_iste", False)
        if not isinstance(token_iste, bool):
            raise GecersizIstek(alanlar={"token_iste": _("true ya da false olmalı.")})
        veri = {}
        if token_iste or govde.get("signature") is not None:
            # CONTRACT 2a: the token is the proof here (or the site's signature is); refused
            # before anything of the visitor is read.
            token = services.ziyaretci_token_iste(
                musteri=musteri, ziyaretci_id=ziyaretci_id, token=self.ziyaretci_token, email=govde.get("email"),
                timestamp=govde.get("timestamp"), signature=govde.get("signature"), govde=dict(govde),
                simdi=getattr(request, "gelis_zamani", None),
            )
            if token_iste:
                veri["ziyaretci_token"] = token
        else:
            ziyaretci_erisimi_dogrula(musteri=musteri, ziyaretci_id=ziyaretci_id, token=self.ziyaretci_token)
        return basarili({
            "musteri_id": musteri.id,
            **widget_gorunumu(musteri, request),
            "ziyaretci_id": ziyaretci_id,
            **veri,
            **_ziyaretci_durumu(musteri=musteri, ziyaretci_id=ziyaretci_id),
            "mesai": mesai_verisi(musteri),
            "dil": widget_dili(musteri, request),
            # CONTRACT 22: the teams the visitor may choose ("which department?"), from the cache.
            "ekipler": musteri_widget_ekipleri(musteri),
        })


# --- a waiting chat becomes a ticket (issue 13) ----------------------------------------------
class SohbetTicketSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=128)
    oturum_id = StrictIntegerField(min_value=1)
    konu = StrictCharField(max_length=200, required=False, allow_blank=True, allow_null=True,
                           help_text=gettext_lazy("Boşsa sohbetin ilk mesajından."))
    mesaj = StrictCharField(max_length=20000, required=False, allow_blank=True, allow_null=True,
                            help_text=gettext_lazy("Boşsa sohbetin dökümü."))
    ad = StrictCharField(max_length=150, required=False, allow_blank=True, allow_null=True)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, allow_null=True,
                                   help_text=gettext_lazy("Verilmezse sohbette verilen e-posta."))


TASLAK = inline_serializer("SohbetTicketTaslagi", {
    "taslak": inline_serializer("Taslak", {"konu": serializers.CharField(), "mesaj": serializers.CharField(),
                                           "ad": serializers.CharField(), "email": serializers.CharField()}),
})


class WidgetSohbetTicketView(WidgetAPIView):
    """`GET`: the ticket a chat would become (to show for editing); `POST`: make it, closing the chat."""

    @extend_schema(summary=gettext_lazy("Sohbetten destek talebi taslağı (konu, döküm, ad, e-posta)"),
                   parameters=[OpenApiParameter("ziyaretci_id", str, required=True),
                               OpenApiParameter("oturum_id", int, required=True)],
                   responses={200: TASLAK})
    def get(self, request):
        ziyaretci_id = self.ziyaretci_id()
        ser = SohbetTicketSerializer(data={"ziyaretci_id": ziyaretci_id,
                                           "oturum_id": sorgu_tam_sayisi(request.query_params.get("oturum_id"))})
        ser.is_valid(raise_exception=True)
        oturum = ziyaretci_oturum_get(musteri=self.musteri, ziyaretci_id=ziyaretci_id,
                                      oturum_id=ser.validated_data["oturum_id"])
        return basarili({"taslak": ticket_taslagi(oturum=oturum)})

    @extend_schema(summary=gettext_lazy("Bekleyen sohbeti destek talebine dönüştür (sohbet `sistem` tarafından kapanır)"),
                   request=SohbetTicketSerializer,
                   responses={201: inline_serializer("SohbetTicketYaniti", {
                       "ticket": TicketDetaySerializer(), "oturum": WidgetOturumSerializer(),
                       "mesai": s.MesaiSerializer()})})
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        ser = SohbetTicketSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        veri = ser.validated_data
        ticket, oturum = services.oturumu_ticketa_donustur(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, oturum_id=veri["oturum_id"],
            konu=(veri.get("konu") or "").strip() or None, mesaj=(veri.get("mesaj") or "").strip() or None,
            ad=veri.get("ad"), email=veri.get("email"),
        )
        ticket = ziyaretci_ticket_get(musteri=self.musteri, ziyaretci_id=ziyaretci_id, ticket_id=ticket.id)
        return basarili({
            "ticket": TicketDetaySerializer(ticket, context={"request": request}).data,
            "oturum": widget_oturum_verisi(oturum, sira_no=None, cevrimici_operator=cevrimici_operator_var(
                musteri_id=oturum.musteri_id)),
            "mesai": widget_mesai_verisi(self.musteri, request),
        }, status=201)
