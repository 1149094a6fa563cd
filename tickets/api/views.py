from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from supportdesk.core.dil import widget_dili
from supportdesk.core.erteleme import ErteleSerializer, kadar_coz
from supportdesk.core.exceptions import GecersizIstek, Yetkisiz
from supportdesk.core.pagination import sayfala
from supportdesk.core.responses import basarili
from supportdesk.core.views import JSONAyristirici
from tenants.api.temel import OperatorAPIView, WidgetAPIView, istek_ip
from tenants.ekipler import ekip_coz, ekip_suzgeci_dogrula
from tenants.etiketler import etiket_get, etiket_idleri_dogrula
from tenants.selectors import uyelik_get

from .. import selectors, services, sla
from . import serializers as s

SIRA = ("olusturulma", "id")


def _hata(kod: str) -> OpenApiResponse:
    return OpenApiResponse(description=kod)


def _dogrula(serializer_cls, data):
    ser = serializer_cls(data=data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def _liste(name: str, item) -> serializers.Serializer:
    return inline_serializer(name, {"ticketlar": item(many=True), "sonraki": serializers.CharField(allow_null=True)})


def _tek(name: str, **fields) -> serializers.Serializer:
    return inline_serializer(name, fields)


ZIYARETCI_PARAM = OpenApiParameter("ziyaretci_id", str, required=True)
SAYFA_PARAMLARI = [OpenApiParameter("cursor", str), OpenApiParameter("limit", int)]


# --- widget --------------------------------------------------------------------------------------
class WidgetTicketCreateView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Ticket aç (`yeni_ticket` olayı)"),
        request=s.TicketOlusturSerializer,
        responses={201: _tek("TicketOlusturYanit", ticket=s.TicketDetaySerializer()), 400: _hata("GECERSIZ_ISTEK"),
                   404: _hata("BULUNAMADI (ek_idleri)")},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.TicketOlusturSerializer, request.data)
        veri.pop("ziyaretci_id")
        # CONTRACT 22: a team the widget offers (`widgetta_secilir`) of this tenant, else 400.
        ekip = ekip_coz(musteri_id=self.musteri.pk, ekip_id=veri.pop("ekip_id", None), widget=True)
        veri["ekip_id"] = ekip.pk if ekip is not None else None
        # CONTRACT 19: the ticket speaks the widget's language (its visitor mails are written in it).
        ticket = services.ticket_olustur(musteri=self.musteri, ziyaretci_id=ziyaretci_id,
                                         dil=widget_dili(self.musteri, request), **veri)
        ticket = selectors.ziyaretci_ticket_get(musteri=self.musteri, ziyaretci_id=ziyaretci_id, ticket_id=ticket.id)
        return basarili({"ticket": s.TicketDetaySerializer(ticket, context={"request": request}).data}, status=201)


class WidgetTicketListView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Ziyaretçinin ticketları (yeniden eskiye, imleçli)"),
        parameters=[ZIYARETCI_PARAM, *SAYFA_PARAMLARI],
        responses={200: _liste("WidgetTicketList", s.TicketSerializer), 400: _hata("GECERSIZ_ISTEK")},
    )
    def get(self, request):
        qs = selectors.ziyaretci_ticket_list(musteri=self.musteri, ziyaretci_id=self.ziyaretci_id())
        rows, sonraki = sayfala(qs, request.query_params, alanlar=SIRA, azalan=True)
        return basarili({"ticketlar": s.TicketSerializer(rows, many=True).data, "sonraki": sonraki})


class WidgetTicketDetailView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Ticket ayrıntısı ve yanıtları"),
        parameters=[ZIYARETCI_PARAM],
        responses={200: _tek("WidgetTicketDetay", ticket=s.TicketDetaySerializer()), 404: _hata("BULUNAMADI")},
    )
    def get(self, request, ticket_id: int):
        ticket = selectors.ziyaretci_ticket_get(musteri=self.musteri, ziyaretci_id=self.ziyaretci_id(), ticket_id=ticket_id)
        return basarili({"ticket": s.TicketDetaySerializer(ticket, context={"request": request}).data})


class WidgetTicketReplyView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Ziyaretçi yanıtı (çözülmüş / beklemedeki ticketı yeniden açar)"),
        request=s.ZiyaretciYanitSerializer,
        responses={201: _tek("WidgetTicketYanit", yanit=s.YanitSerializer(), ticket=s.TicketSerializer()),
                   400: _hata("GECERSIZ_ISTEK"), 404: _hata("BULUNAMADI"), 409: _hata("DURUM_CAKISMASI")},
    )
    def post(self, request, ticket_id: int):
        ziyaretci_id = self.ziyaretci_id()
        ticket = selectors.ziyaretci_ticket_get(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, ticket_id=ticket_id, detay=False)
        veri = _dogrula(s.ZiyaretciYanitSerializer, request.data)
        yanit = services.ticket_ziyaretci_yanitla(ticket=ticket, icerik=veri["icerik"], ek_idleri=veri.get("ek_idleri"))
        return basarili({"yanit": s.YanitSerializer(yanit, context={"request": request}).data,
                         "ticket": s.TicketSerializer(ticket).data}, status=201)


# --- operator ------------------------------------------------------------------------------------
class OperatorTicketListView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Operatörün tüm projelerindeki ticketlar (süzgeçli, sıralı, imleçli)"),
        parameters=[OpenApiParameter("durum", str, enum=["acik", "beklemede", "cozuldu", "kapandi"]),
                    OpenApiParameter("oncelik", str, enum=["dusuk", "normal", "yuksek", "acil"]),
                    OpenApiParameter("musteri_id", int),
                    OpenApiParameter("operator_id", str,
                                     description=gettext_lazy("Sorumlu: bir operatör id'si, `ben` ya da `yok`.")),
                    OpenApiParameter("etiket_id", int,
                                     description=gettext_lazy("Bu etiketi taşıyanlar (projelerinizin değilse 404).")),
                    OpenApiParameter("q", str,
                                     description=gettext_lazy("Konu, yanıt ve not metninde (Türkçe harfler katlanarak).")),
                    OpenApiParameter("ekip_id", str, description=gettext_lazy("Bir ekip id'si (projelerinizin değilse "
                                                                              "404), `benim` ya da `yok`.")),
                    OpenApiParameter("sla", str, enum=["ihlal", "yaklasan"]),
                    OpenApiParameter("gorunum", str, enum=list(selectors.GORUNUMLER), description=gettext_lazy(
                        "Görünüm (CONTRACT 24): açık, atanmamış, benim, ertelenen (açık ve beklemedeki talepler). "
                        "Ertelenen bir talep yalnızca `ertelenen` görünümündedir.")),
                    OpenApiParameter("siralama", str, enum=list(s.SIRALAMALAR),
                                     description=gettext_lazy("Yeniden eskiye; varsayılan `guncellenme`; `sla`: en yakın "
                                                              "vade önce.")),
                    *SAYFA_PARAMLARI],
        responses={200: _liste("OperatorTicketList", s.OperatorTicketSerializer), 400: _hata("GECERSIZ_ISTEK"),
                   404: _hata("BULUNAMADI (musteri_id, etiket_id)")},
    )
    def get(self, request):
        filtre = _dogrula(s.OperatorTicketFiltreSerializer, request.query_params)
        if filtre.get("etiket_id") is not None:
            etiket_get(musteri_idleri=self.musteri_idleri, etiket_id=filtre["etiket_id"])
        sahip = filtre.get("operator_id")
        qs = selectors.operator_ticket_list(
            musteri_idleri=self.musteri_idleri, durum=filtre.get("durum"), oncelik=filtre.get("oncelik"),
            musteri_id=filtre.get("musteri_id"), sahipsiz=sahip == "yok",
            operator_id=request.user.pk if sahip == "ben" else (None if sahip == "yok" else sahip),
            etiket_id=filtre.get("etiket_id"), q=filtre.get("q", "").strip(),
            gorunum=filtre.get("gorunum"), kullanici_id=request.user.pk,
            ekip=ekip_suzgeci_dogrula(musteri_idleri=self.musteri_idleri, deger=filtre.get("ekip_id")),
        )
        # CONTRACT 17: `sla` (tickets.sla, in the same query) and `siralama=sla` (its own pager: the
        # tickets without a running clock follow those with one).
        qs = sla.listeye_uygula(qs, sla=filtre.get("sla"))
        if filtre["siralama"] == "sla":
            rows, sonraki = sla.sla_sayfala(qs, request.query_params)
        else:
            alanlar, azalan = s.SIRALAMALAR[filtre["siralama"]]
            rows, sonraki = sayfala(qs, request.query_params, alanlar=alanlar, azalan=azalan)
        selectors.operator_ticketlari_hazirla(rows)
        return basarili({"ticketlar": s.OperatorTicketSerializer(rows, many=True).data, "sonraki": sonraki})


class OperatorTicketDetailView(OperatorAPIView):
    parser_classes = [JSONAyristirici]

    @extend_schema(summary=gettext_lazy("Ticket ayrıntısı, yanıtları ve iç notları"),
                   responses={200: _tek("OperatorTicketDetayYaniti", ticket=s.OperatorTicketDetaySerializer()),
                              404: _hata("BULUNAMADI")})
    def get(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id)
        return basarili({"ticket": s.OperatorTicketDetaySerializer(ticket, context={"request": request}).data})

    @extend_schema(
        summary=gettext_lazy("Sorumlu operatör ve/veya öncelik (`operator_id`: projenin üyesi ya da null)"),
        request=s.TicketDuzenleSerializer,
        responses={200: _tek("OperatorTicketDuzenle", ticket=s.OperatorTicketSerializer()),
                   400: _hata("GECERSIZ_ISTEK"), 404: _hata("BULUNAMADI (ticket, operator_id)"),
                   409: _hata("DURUM_CAKISMASI (kapandi)")},
    )
    def patch(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id, detay=False)
        veri = _dogrula(s.TicketDuzenleSerializer, request.data)
        services.ticket_duzenle(ticket=ticket, kullanici=request.user, ip=istek_ip(request), **veri)
        return basarili({"ticket": _operator_ticketi(self, ticket.id)})


def _operator_ticketi(view, ticket_id: int) -> dict:
    # Read again as the list reads it (owner joined, labels prefetched).
    ticket = selectors.operator_ticket_get(musteri_idleri=view.musteri_idleri, ticket_id=ticket_id, detay=False)
    return s.OperatorTicketSerializer(ticket).data


class OperatorTicketReplyView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Operatör yanıtı (isteğe bağlı `durum` ile) ya da iç not (`ozel: true`, `bahsedilenler`)"),
        request=s.OperatorYanitSerializer,
        responses={201: _tek("OperatorTicketYanit", yanit=s.YanitSerializer(), ticket=s.OperatorTicketSerializer()),
                   400: _hata("GECERSIZ_ISTEK"), 404: _hata("BULUNAMADI"), 409: _hata("DURUM_CAKISMASI")},
    )
    def post(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id, detay=False)
        veri = _dogrula(s.OperatorYanitSerializer, request.data)
        if veri["ozel"]:
            yanit = services.ticket_not_yaz(ticket=ticket, kullanici=request.user, icerik=veri["icerik"],
                                            ek_idleri=veri.get("ek_idleri"), bahsedilenler=veri["bahsedilenler"])
        else:
            yanit = services.ticket_operator_yanitla(
                ticket=ticket, kullanici=request.user, icerik=veri["icerik"], durum=veri.get("durum"),
                ek_idleri=veri.get("ek_idleri"))
        return basarili({"yanit": s.YanitSerializer(yanit, context={"request": request}).data,
                         "ticket": _operator_ticketi(self, ticket.id)}, status=201)


class OperatorTicketStatusView(OperatorAPIView):
    parser_classes = [JSONAyristirici]

    @extend_schema(
        summary=gettext_lazy("Ticket durumu (kapandi'dan çıkılamaz: 409; cozuldu `ticket_cozuldu` olayı)"),
        request=s.DurumSerializer,
        responses={200: _tek("OperatorTicketDurum", ticket=s.OperatorTicketSerializer()), 400: _hata("GECERSIZ_ISTEK"),
                   404: _hata("BULUNAMADI"), 409: _hata("DURUM_CAKISMASI")},
    )
    def put(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id, detay=False)
        veri = _dogrula(s.DurumSerializer, request.data)
        services.ticket_durum_ayarla(ticket=ticket, durum=veri["durum"], kullanici=request.user)
        return basarili({"ticket": _operator_ticketi(self, ticket.id)})


# --- service levels (CONTRACT 17) ------------------------------------------------------------------
_SLA_YANIT = inline_serializer("SlaPolitikasiYanit", {"sla": inline_serializer("SlaPolitikasi", {
    "aktif": serializers.BooleanField(), "mesai_icinde": serializers.BooleanField(),
    "uyari_dk": serializers.IntegerField(), "chat_ilk_yanit_sn": serializers.IntegerField(allow_null=True),
    "hedefler": serializers.DictField(help_text="acil / yuksek / normal / dusuk → {ilk_yanit_dk, sonraki_yanit_dk, cozum_dk}"),
})})


class TenantSlaView(OperatorAPIView):
    parser_classes = [JSONAyristirici]

    @extend_schema(summary=gettext_lazy("Projenin SLA politikası (her üye okur)"),
                   responses={200: _SLA_YANIT, 404: _hata("BULUNAMADI")})
    def get(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"sla": sla.politika_verisi(sla.politika(musteri_id))})

    @extend_schema(summary=gettext_lazy("SLA politikasını değiştir (sahip, yönetici); yalnız verilen alanlar"),
                   request=_SLA_YANIT,
                   responses={200: _SLA_YANIT, 400: _hata("GECERSIZ_ISTEK"), 403: _hata("YETKISIZ"),
                              404: _hata("BULUNAMADI")})
    def put(self, request, musteri_id: int):
        uyelik = uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        if not uyelik.yonetebilir:
            raise Yetkisiz()
        degisen, hatalar = sla.politika_dogrula(request.data)
        if hatalar:
            raise GecersizIstek(alanlar=hatalar)
        p = sla.politika_kaydet(musteri_id=musteri_id, degisen=degisen, kullanici_id=request.user.id,
                                ip=istek_ip(request))
        return basarili({"sla": sla.politika_verisi(p)})


class OperatorTicketEtiketlerView(OperatorAPIView):
    parser_classes = [JSONAyristirici]

    @extend_schema(
        summary=gettext_lazy("Ticketın etiketlerini ayarla (tüm liste; her üye, her durumda)"),
        request=s.TicketEtiketlerAyarlaSerializer,
        responses={200: _tek("OperatorTicketEtiketler", ticket=s.OperatorTicketSerializer()),
                   400: _hata("GECERSIZ_ISTEK"), 404: _hata("BULUNAMADI (ticket, etiket)")},
    )
    def put(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id, detay=False)
        veri = _dogrula(s.TicketEtiketlerAyarlaSerializer, request.data)
        services.ticket_etiketleri_ayarla(ticket=ticket, kullanici=request.user, ip=istek_ip(request),
                                          etiket_idleri=etiket_idleri_dogrula(veri["etiket_idleri"]))
        return basarili({"ticket": _operator_ticketi(self, ticket.id)})


class OperatorTicketErteleView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Talebi ertele (`kadar`: bir zaman, ya da null: ziyaretçi yazana dek)"),
        request=ErteleSerializer,
        responses={200: _tek("OperatorTicketErtele", ticket=s.OperatorTicketSerializer()), 400: _hata("GECERSIZ_ISTEK"),
                   404: _hata("BULUNAMADI"), 409: _hata("DURUM_CAKISMASI (cozuldu, kapandi)")},
    )
    def post(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id, detay=False)
        services.ticket_ertele(ticket=ticket, kullanici=request.user, kadar=kadar_coz(request.data))
        return basarili({"ticket": _operator_ticketi(self, ticket.id)})

    @extend_schema(
        summary=gettext_lazy("Ertelemeyi kaldır: talep hemen görünümlerine döner"),
        request=None,
        responses={200: _tek("OperatorTicketUyandir", ticket=s.OperatorTicketSerializer()), 404: _hata("BULUNAMADI")},
    )
    def delete(self, request, ticket_id: int):
        ticket = selectors.operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket_id, detay=False)
        services.ticket_uyandir(ticket=ticket, kullanici=request.user)
        return basarili({"ticket": _operator_ticketi(self, ticket.id)})
