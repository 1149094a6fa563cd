"""Chat endpoints (CONTRACT 3): thin views turning input into service calls."""
from collections.abc import Mapping

from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from supportdesk.core import mesajlar, varlik
from supportdesk.core.dil import widget_dili
from supportdesk.core.erteleme import ErteleSerializer, kadar_coz
from supportdesk.core.exceptions import DurumCakismasi, GecersizIstek
from supportdesk.core.girdi import gecerli_id_mi, govde_uzunlugu, sorgu_tam_sayisi
from supportdesk.core.pagination import imlec_coz, imlec_yap, sayfa_boyutu, sayfala
from supportdesk.core.responses import basarili
from supportdesk.core.views import ZarfJSONRenderer
from tenants.api.serializers import MesaiSerializer
from tenants.api.temel import OperatorAPIView, WidgetAPIView, istek_ip, json_nesnesi, ziyaretci_dogrula
from tenants.ekipler import ekip_coz, ekip_suzgeci_dogrula
from tenants.etiketler import etiket_get, etiket_idleri_dogrula
from tenants.on_okuma import OnOkumaIhtiyaci
from tickets.api.serializers import OperatorTicketDetaySerializer
from tickets.models import Ticket
from tickets.selectors import operator_ticket_get

from .. import selectors, services, yoklama
from ..models import Mesaj, Oturum
from ..son_gorulme import ziyaretci_goruldu
from . import serializers as s


def _hatalar(*kodlar: str) -> dict:
    durumlar = {"GECERSIZ_ISTEK": 400, "KIMLIK_GEREKLI": 401, "ORIGIN_IZINSIZ": 403, "BULUNAMADI": 404,
                "DURUM_CAKISMASI": 409, "CHAT_LIMITI_DOLU": 409, "ZATEN_TICKETA_DONUSTU": 409, "LIMIT_ASILDI": 429}
    sonuc: dict = {}
    for kod in kodlar:
        status = durumlar[kod]
        onceki = sonuc.get(status)
        sonuc[status] = OpenApiResponse(description=f"{onceki.description}, {kod}" if onceki else kod)
    return sonuc


def _dogrula(serializer_class, data) -> dict:
    if not isinstance(data, Mapping):
        # The base view refuses such JSON bodies already; a form body is the other way in.
        raise GecersizIstek(alanlar={"genel": mesajlar.GOVDE_NESNE_OLMALI})
    ser = serializer_class(data=data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def _mesajlar_sayfasi(oturum: Oturum, request, *, notlar: bool = False) -> tuple[list[dict], str | None]:
    # The keyset page of `sayfala` (same `limit`, `cursor` and `sonraki`) over one hand-written
    # query: this is the path every open widget polls.
    params = request.query_params
    sorgu = _dogrula(s.MesajlarSorguSerializer, params)
    limit = sayfa_boyutu(params)
    esik = sorgu.get("sonra") or 0
    cursor = params.get("cursor") or params.get("sonraki")
    if cursor:
        (imlec,) = imlec_coz(cursor, Mesaj, ["id"])
        esik = max(esik, imlec)
    rows = selectors.mesaj_sayfasi(oturum=oturum, sonra=esik, adet=limit + 1, notlar=notlar)
    sonraki = imlec_yap([rows[limit - 1].id]) if len(rows) > limit else None
    return [s.mesaj_verisi(m, request=request) for m in rows[:limit]], sonraki


def _widget_oturum(oturum: Oturum) -> dict:
    return s.widget_oturum_verisi(
        oturum,
        sira_no=selectors.sira_no(oturum=oturum),
        cevrimici_operator=selectors.cevrimici_operator_var(musteri_id=oturum.musteri_id, oturum=oturum),
    )


def _widget_oturum_yaniti(oturum: Oturum, musteri, request, *, mesai: dict | None = None, **ek) -> dict:
    veri = _widget_oturum(oturum)
    # `sira_no` and `cevrimici_operator` are repeated next to `oturum` for clients that read
    # them at the top level. `mesai` (CONTRACT 15) comes last: the idle poll's snapshot is stored
    # without it and gets it appended when served (`_mesai_ekle`), as it depends on the time.
    # `mesai`: the request's one "open now" decision when its service acted on it (the start), so
    # the answer says what routing did; else read now.
    return {"oturum": veri, "sira_no": veri["sira_no"], "cevrimici_operator": veri["cevrimici_operator"], **ek,
            "mesai": mesai if mesai is not None else s.widget_mesai_verisi(musteri, request)}


def _mesai_ekle(govde: bytes, musteri, request) -> bytes:
    """A rendered `{"basarili":true,"data":{...}}` with `data.mesai` of now appended, byte for byte
    as the ordinary path renders it (`mesai` is the last key of `data`)."""
    return govde[:-2] + b',"mesai":' + ZarfJSONRenderer().render(s.widget_mesai_verisi(musteri, request)) + b"}}"


WIDGET_OTURUM_YANITI = inline_serializer("WidgetOturumYaniti", {
    "oturum": s.WidgetOturumSerializer(), "sira_no": serializers.IntegerField(allow_null=True),
    "cevrimici_operator": serializers.BooleanField(), "mesai": MesaiSerializer(),
})
OTURUM_YANITI = inline_serializer("OturumYaniti", {"oturum": s.OturumSerializer()})
MESAJ_YANITI = inline_serializer("MesajYaniti", {"mesaj": s.MesajSerializer()})
SAYFA_PARAMETRELERI = [
    OpenApiParameter("limit", int, description=gettext_lazy("Sayfa boyutu (varsayılan 50, en çok 200).")),
    OpenApiParameter("cursor", str, description=gettext_lazy("Önceki yanıtın `sonraki` değeri.")),
]


# --- widget --------------------------------------------------------------------------------
class WidgetChatBaslatView(WidgetAPIView):
    on_okuma = OnOkumaIhtiyaci(varlik=True)

    @extend_schema(
        summary=gettext_lazy("Sohbet başlat (ziyaretçinin açık sohbeti varsa o döner, 200)"),
        request=s.ChatBaslatSerializer,
        responses={201: WIDGET_OTURUM_YANITI, 200: WIDGET_OTURUM_YANITI, **_hatalar("GECERSIZ_ISTEK", "LIMIT_ASILDI")},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.ChatBaslatSerializer, request.data)
        # CONTRACT 15 (wave 4): "open now" is decided once, at one instant, for routing, the ticket
        # offer and the answer's `data.mesai`.
        # CONTRACT 22: a team the widget offers (`widgetta_secilir`) of this tenant, else 400.
        ekip = ekip_coz(musteri_id=self.musteri.pk, ekip_id=veri.get("ekip_id"), widget=True)
        simdi = timezone.now()
        mesai = s.widget_mesai_verisi(self.musteri, request, simdi=simdi)
        oturum, yeni = services.chat_baslat(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, ad=veri.get("ad"), email=veri.get("email"),
            mesaj=veri.get("mesaj"), kanal=veri["kanal"],
            # CONTRACT 19: a visitor's chat speaks the widget's language; a start by the tenant's
            # own server (`kanal: api`) the tenant's (`oturum_dili`).
            dil=widget_dili(self.musteri, request) if veri["kanal"] == Oturum.Kanal.WIDGET else None, simdi=simdi,
            acik=mesai["acik"], ekip_id=ekip.pk if ekip is not None else None,
        )
        return basarili(_widget_oturum_yaniti(oturum, self.musteri, request, mesai=mesai), status=201 if yeni else 200)


def _yenilenecek(request, musteri) -> tuple[str, int, int] | None:
    """The chat's poll generation for the message's pre-read to renew (chat.yoklama, issue 41):
    the body's `oturum_id`, read before DRF parses it (a small JSON body only; anything else is
    renewed after the commit as before)."""
    govde = json_nesnesi(request) if govde_uzunlugu(request) <= 65536 else None
    if govde is None:
        return None
    return yoklama.nesil_yenilenecek(oturum_id=govde.get("oturum_id"), musteri_id=musteri.pk)


class WidgetChatMesajView(WidgetAPIView):
    on_okuma = OnOkumaIhtiyaci(yenilenecek=_yenilenecek)
    hizli_yontem = "POST"

    def hizli_yanit(self, request) -> Response | None:
        # The visitor's message before DRF's request cycle (WidgetAPIView.hizli_yanit, issue 41):
        # a JSON body, the same checks in the same order as `post`; a body the fast validator does
        # not take, or any refusal before the service, is `post`'s to answer. Once the service
        # runs, its errors are the ordinary path's (`hizli_calistir`): it never runs twice.
        musteri = self.hizli_musteri(request)
        govde = json_nesnesi(request) if musteri is not None else None
        if govde is None:
            return None
        try:
            ziyaretci_id = ziyaretci_dogrula(request, musteri, govde)
        except APIException:  # the ordinary path refuses it with its own error, as the poll's does
            return None
        veri = s.widget_mesaj_hizli(govde)
        if veri is None:
            return None
        return self.hizli_calistir(request, musteri, lambda istek: self._gonder(istek, musteri, ziyaretci_id, veri))

    @extend_schema(
        summary=gettext_lazy("Ziyaretçi mesajı gönder"),
        request=s.WidgetMesajSerializer,
        responses={201: MESAJ_YANITI, **_hatalar("GECERSIZ_ISTEK", "BULUNAMADI", "DURUM_CAKISMASI")},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = s.widget_mesaj_hizli(request.data) or _dogrula(s.WidgetMesajSerializer, request.data)
        return self._gonder(request, self.musteri, ziyaretci_id, veri)

    @staticmethod
    def _gonder(request, musteri, ziyaretci_id: str, veri: dict) -> Response:
        on = getattr(request, "on_okuma", None)
        yenilenen = on.yenilenen if on is not None and on.musteri_id == musteri.pk else None
        with yoklama.onceden_yenilendi(yenilenen if yenilenen == veri["oturum_id"] else None,
                                       on.yenileme_basi if on is not None else 0.0):
            mesaj = services.chat_ziyaretci_mesaj_gonder(
                musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=veri["oturum_id"], icerik=veri["icerik"],
                ek_id=veri.get("ek_id"),
            )
        ziyaretci_goruldu(oturum_id=mesaj.oturum_id)
        return basarili({"mesaj": s.mesaj_verisi(mesaj, request=request)}, status=201)


def _ozet_anahtarlari(request, musteri) -> list[str]:
    """The snapshot's keys for a plain poll of a chat (`yoklama.okunacaklar`), else none (read
    before authentication, for the tenant this process holds for the key)."""
    params = request.GET
    oturum_id = sorgu_tam_sayisi(params.get("oturum_id"))
    if not gecerli_id_mi(oturum_id) or _yoklama_esigi(params) is None:
        return []
    return yoklama.okunacaklar(oturum_id=oturum_id, musteri_id=musteri.pk)


class WidgetChatMesajlarView(WidgetAPIView):
    # A plain poll also reads its snapshot (chat.yoklama) in the request's pre-read.
    on_okuma = OnOkumaIhtiyaci(varlik=True, yoklama_ozeti=_ozet_anahtarlari)

    def hizli_yanit(self, request) -> HttpResponse | None:
        # The idle poll from its snapshot, before DRF's request cycle (WidgetAPIView.hizli_yanit):
        # the same checks in the same order as `get`, anything else is `get`'s to answer.
        musteri = self.hizli_musteri(request)
        if musteri is None:
            return None
        try:
            ziyaretci_id = ziyaretci_dogrula(request, musteri, request.GET)
        except APIException:
            return None
        return _ozetten(request, request.on_okuma.yoklama_ozeti_icin(musteri.pk), musteri, ziyaretci_id)

    @extend_schema(
        summary=gettext_lazy("Sohbet mesajları (yoklama: `sonra` ile yalnızca yeniler) ve sıradaki yer"),
        parameters=[
            OpenApiParameter("ziyaretci_id", str, required=True),
            OpenApiParameter("oturum_id", int, required=True),
            OpenApiParameter("sonra", int, description=gettext_lazy("Bu mesaj id'sinden sonraki mesajlar, eskiden yeniye.")),
            *SAYFA_PARAMETRELERI,
        ],
        responses={200: inline_serializer("WidgetMesajlar", {
            "mesajlar": s.MesajSerializer(many=True), "sonraki": serializers.CharField(allow_null=True),
            "oturum": s.WidgetOturumSerializer(), "sira_no": serializers.IntegerField(allow_null=True),
            "cevrimici_operator": serializers.BooleanField(), "mesai": MesaiSerializer(),
        }), **_hatalar("GECERSIZ_ISTEK", "BULUNAMADI")},
    )
    def get(self, request):
        ziyaretci_id = self.ziyaretci_id()
        on = getattr(request, "on_okuma", None)
        okunan = on.yoklama_ozeti_icin(self.musteri.pk) if on is not None else None
        # The snapshot holds the answer rendered compact: not for a client asking `; indent=`.
        ozetten = _ozetten(request, okunan, self.musteri, ziyaretci_id) if ";" not in request.accepted_media_type else None
        if ozetten is not None:
            return ozetten
        veri = _dogrula(s.WidgetOturumIstekSerializer, {"ziyaretci_id": ziyaretci_id,
                                                          "oturum_id": sorgu_tam_sayisi(request.query_params.get("oturum_id"))})
        esik = _yoklama_esigi(request.query_params)
        oturum = selectors.ziyaretci_oturum_get(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, oturum_id=veri["oturum_id"], kuyruk_bilgisi=True,
            yeni_mesaj_sonra=esik,
        )
        mesajlar, sonraki = _mesajlar_sayfasi(oturum, request)
        ziyaretci_goruldu(oturum_id=oturum.id)
        yanit = basarili(_widget_oturum_yaniti(oturum, self.musteri, request, mesajlar=mesajlar, sonraki=sonraki))
        if okunan and not mesajlar and hasattr(oturum, "_uygun_idler") and getattr(oturum, "_yeni_mesaj_esigi", None) == esik:
            # An idle plain poll: its answer becomes the chat's snapshot, tagged with the
            # generations read before the statement, rendered as this answer would be with and
            # without an operator online.
            yanitlar = []
            for cevrimici in (False, True):
                veri = _widget_oturum_yaniti(oturum, self.musteri, request, mesajlar=[], sonraki=None)
                del veri["mesai"]
                veri["oturum"]["cevrimici_operator"] = veri["cevrimici_operator"] = cevrimici
                yanitlar.append(ZarfJSONRenderer().render({"basarili": True, "data": veri}))
            yoklama.ozet_yaz(anahtarlar=list(on.yoklama_anahtarlari), okunan=okunan, yanitlar=tuple(yanitlar), veri={
                "m": self.musteri.pk, "z": ziyaretci_id, "s": esik, "u": list(oturum._uygun_idler)},
                zaman_ms=getattr(on, "zaman_ms", None))
        return yanit


def _ozetten(request, okunan: list | None, musteri, ziyaretci_id: str) -> HttpResponse | None:
    govde = _ozetten_yanit(yoklama.ozet_coz(okunan), musteri_id=musteri.pk, ziyaretci_id=ziyaretci_id,
                           params=request.GET) if okunan else None
    if govde is None:
        return None
    govde = _mesai_ekle(govde, musteri, request)
    ziyaretci_goruldu(oturum_id=sorgu_tam_sayisi(request.GET["oturum_id"]))
    return HttpResponse(govde, content_type=ZarfJSONRenderer.media_type)


def _ozetten_yanit(ozet: tuple[dict, list[bytes]] | None, *, musteri_id: int, ziyaretci_id: str, params) -> bytes | None:
    """The idle poll's answer (the body as rendered) from a current snapshot (chat.yoklama), or
    None when it does not answer this request: someone else's chat, a `sonra` below the
    snapshot's (there may be messages to return), or a `limit` the ordinary path would refuse.
    Whether an operator is online is decided now, from the presence read in this request."""
    if ozet is None:
        return None
    bilgi, yanitlar = ozet
    if bilgi["m"] != musteri_id or bilgi["z"] != ziyaretci_id:
        return None
    sonra = _yoklama_esigi(params)
    if sonra is None or sonra < bilgi["s"]:
        return None
    try:
        sayfa_boyutu(params)
    except GecersizIstek:
        return None
    ulasilabilir = varlik.ulasilabilir_idler()
    cevrimici = bool(bilgi["u"]) if ulasilabilir is None else any(i in ulasilabilir for i in bilgi["u"])
    return yanitlar[cevrimici]


def _yoklama_esigi(params) -> int | None:
    """The `sonra` of a plain poll (ASCII digits, no cursor), read before validation so the chat's
    own statement can tell whether anything is newer; None for anything else, which then takes
    the ordinary path (validated, and the page read by its own query)."""
    sonra = params.get("sonra")
    if (isinstance(sonra, str) and sonra.isascii() and sonra.isdigit() and len(sonra) <= 19
            and not (params.get("cursor") or params.get("sonraki"))):
        return int(sonra)
    return None


class WidgetChatBitirView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbeti ziyaretçi olarak bitir"),
        request=s.WidgetOturumIstekSerializer,
        responses={200: WIDGET_OTURUM_YANITI, **_hatalar("GECERSIZ_ISTEK", "BULUNAMADI", "DURUM_CAKISMASI")},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.WidgetOturumIstekSerializer, request.data)
        oturum = services.chat_ziyaretci_bitir(musteri=self.musteri, ziyaretci_id=ziyaretci_id, oturum_id=veri["oturum_id"])
        return basarili(_widget_oturum_yaniti(oturum, self.musteri, request))


class WidgetChatPuanView(WidgetAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbeti puanla (aktif sohbeti önce kapatır; bir kez)"),
        request=s.PuanSerializer,
        responses={200: WIDGET_OTURUM_YANITI, **_hatalar("GECERSIZ_ISTEK", "BULUNAMADI", "DURUM_CAKISMASI")},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        veri = _dogrula(s.PuanSerializer, request.data)
        oturum = services.chat_puanla(
            musteri=self.musteri, ziyaretci_id=ziyaretci_id, oturum_id=veri["oturum_id"], puan=veri["puan"],
            yorum=veri.get("yorum"),
        )
        return basarili(_widget_oturum_yaniti(oturum, self.musteri, request))


# --- operator ------------------------------------------------------------------------------
class OperatorOturumAPIView(OperatorAPIView):
    """An operator endpoint about one chat (`/operator/chat/<oturum_id>/...`). The chat is
    resolved here, once per request (`oturum_coz`), in the caller's tenants: the same 404 for a
    missing chat and another tenant's. The action is handed the object (`oturum: Oturum`), as the
    ticket views hand theirs `ticket`, and takes its row locks itself, inside its transaction
    (the service shape, chat/services.py "operator side")."""

    def oturum_coz(self, oturum_id) -> Oturum:
        return selectors.oturum_get(musteri_idleri=self.musteri_idleri, oturum_id=oturum_id)


class OperatorChatListView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Birleşik sohbet kuyruğu (tüm projeleriniz); varsayılan: bekleyenler ve sizin aktifleriniz"),
        parameters=[
            OpenApiParameter("durum", str, enum=Oturum.Durum.values),
            OpenApiParameter("gorunum", str, enum=list(selectors.GORUNUMLER), description=gettext_lazy(
                "Görünüm (CONTRACT 24): açık, atanmamış (bekleyen), benim, ertelenen. Ertelenen bir sohbet yalnızca "
                "`ertelenen` görünümündedir. Diğer süzgeçlerle birleşir.")),
            OpenApiParameter("musteri_id", int, description=gettext_lazy("Yalnızca bu proje (sizin değilse 404).")),
            OpenApiParameter("etiket_id", int, description=gettext_lazy("Bu etiketi taşıyanlar (projelerinizin değilse 404).")),
            OpenApiParameter("ekip_id", str, description=gettext_lazy("Bir ekip id'si (projelerinizin değilse 404), `benim` "
                                                                      "ya da `yok`.")),
            OpenApiParameter("q", str, description=gettext_lazy("Ziyaretçi adı, e-postası, id'si, mesaj ve not metninde "
                                                    "(Türkçe harfler katlanarak: \"sifre\" \"Şifre\"yi bulur).")),
            *SAYFA_PARAMETRELERI,
        ],
        responses={200: inline_serializer("OturumListesi", {
            "oturumlar": s.OturumSerializer(many=True), "sonraki": serializers.CharField(allow_null=True),
        }), **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI")},
    )
    def get(self, request):
        sorgu = _dogrula(s.OturumlarSorguSerializer, request.query_params)
        if sorgu.get("etiket_id") is not None:
            etiket_get(musteri_idleri=self.musteri_idleri, etiket_id=sorgu["etiket_id"])
        qs, dallar = selectors.oturum_list(
            kullanici=request.user, musteri_idleri=self.musteri_idleri, durum=sorgu.get("durum"),
            musteri_id=sorgu.get("musteri_id"), etiket_id=sorgu.get("etiket_id"), q=sorgu.get("q", "").strip(),
            gorunum=sorgu.get("gorunum"),
            ekip=ekip_suzgeci_dogrula(musteri_idleri=self.musteri_idleri, deger=sorgu.get("ekip_id")),
        )
        # Closed chats read newest first; the live queue oldest waiting first (CONTRACT 3).
        azalan = sorgu.get("durum") == Oturum.Durum.KAPANDI
        rows, sonraki = sayfala(qs, request.query_params, alanlar=("baslangic", "id"), azalan=azalan, dallar=dallar)
        prefetch_related_objects(rows, "etiketler")  # one query for the page's labels
        return basarili({"oturumlar": [s.oturum_verisi(o) for o in rows], "sonraki": sonraki})


class OperatorChatMesajlarView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbetin mesajları (`sonra` ile yalnızca yeniler); okunmamış sayısını sıfırlar"),
        parameters=[OpenApiParameter("sonra", int), *SAYFA_PARAMETRELERI],
        responses={200: inline_serializer("OperatorMesajlar", {
            "mesajlar": s.MesajSerializer(many=True), "sonraki": serializers.CharField(allow_null=True),
            "oturum": s.OturumSerializer(),
            "ziyaretci_son_okunan": serializers.IntegerField(
                allow_null=True, help_text=gettext_lazy("Ziyaretçinin okuduğu son mesajın id'si (widget soketinin `okundu` "
                                           "çerçevesi); hiç bildirmediyse null.")),
        }), **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI")},
    )
    def get(self, request, oturum_id: int):
        oturum = self.oturum_coz(oturum_id)
        mesajlar, sonraki = _mesajlar_sayfasi(oturum, request, notlar=True)
        services.chat_okundu(oturum=oturum)
        return basarili({"mesajlar": mesajlar, "sonraki": sonraki, "oturum": s.oturum_verisi(oturum),
                         "ziyaretci_son_okunan": oturum.ziyaretci_son_okunan})


class OperatorChatMesajView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Operatör mesajı ya da iç not (`ozel: true`, `bahsedilenler`) gönder"),
        request=s.OperatorMesajSerializer,
        responses={201: MESAJ_YANITI, **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI", "DURUM_CAKISMASI")},
    )
    def post(self, request, oturum_id: int):
        veri = _dogrula(s.OperatorMesajSerializer, request.data)
        if veri["ozel"]:
            mesaj = services.chat_operator_not_yaz(
                kullanici=request.user, oturum=self.oturum_coz(oturum_id), icerik=veri["icerik"],
                ek_id=veri.get("ek_id"), bahsedilenler=veri["bahsedilenler"])
        else:
            if veri["bahsedilenler"]:
                raise GecersizIstek(alanlar={"bahsedilenler": _("Yalnızca iç notta (ozel: true) operatör anılabilir.")})
            mesaj = services.chat_operator_mesaj_gonder(
                kullanici=request.user, oturum=self.oturum_coz(oturum_id), icerik=veri["icerik"],
                ek_id=veri.get("ek_id"),
            )
        return basarili({"mesaj": s.mesaj_verisi(mesaj, request=request)}, status=201)


class OperatorChatKabulView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbeti kabul et (yarışta yalnızca biri kazanır)"),
        request=None,
        responses={200: OTURUM_YANITI,
                   **_hatalar("KIMLIK_GEREKLI", "BULUNAMADI", "DURUM_CAKISMASI", "CHAT_LIMITI_DOLU")},
    )
    def post(self, request, oturum_id: int):
        oturum = services.chat_kabul_et(kullanici=request.user, oturum=self.oturum_coz(oturum_id))
        return basarili({"oturum": s.oturum_verisi(oturum)})


class OperatorChatAktarView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbeti aktar (operator_id: null ise sıraya geri al; ya da ekip_id: ekibin kuyruğuna)"),
        request=s.AktarSerializer,
        responses={200: OTURUM_YANITI, **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI",
                                                  "DURUM_CAKISMASI", "CHAT_LIMITI_DOLU")},
    )
    def post(self, request, oturum_id: int):
        veri = _dogrula(s.AktarSerializer, request.data)
        gorulen = self.oturum_coz(oturum_id)
        if "ekip_id" in veri:
            # CONTRACT 22: to a team = back to that team's routing. The chat must be the caller's
            # tenants' (404) and open (409); the team its tenant's (400, by the service).
            if not gorulen.acik:
                raise DurumCakismasi(_("Kapanmış bir sohbet aktarılamaz."))
            oturum = services.chat_ekibe_aktar(oturum=gorulen, ekip_id=veri["ekip_id"], aktor=request.user)
            return basarili({"oturum": s.oturum_verisi(oturum)})
        oturum = services.chat_aktar(kullanici=request.user, oturum=gorulen, hedef_operator_id=veri["operator_id"])
        return basarili({"oturum": s.oturum_verisi(oturum)})


class OperatorChatKapatView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbeti kapat"),
        request=None,
        responses={200: OTURUM_YANITI, **_hatalar("KIMLIK_GEREKLI", "BULUNAMADI", "DURUM_CAKISMASI")},
    )
    def post(self, request, oturum_id: int):
        oturum = services.chat_operator_kapat(kullanici=request.user, oturum=self.oturum_coz(oturum_id))
        return basarili({"oturum": s.oturum_verisi(oturum)})


class OperatorChatEtiketlerView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbetin etiketlerini ayarla (tüm liste; her üye, her durumda)"),
        request=s.OturumEtiketlerAyarlaSerializer,
        responses={200: OTURUM_YANITI, **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI")},
    )
    def put(self, request, oturum_id: int):
        veri = _dogrula(s.OturumEtiketlerAyarlaSerializer, request.data)
        oturum = services.chat_etiketleri_ayarla(
            kullanici=request.user, oturum=self.oturum_coz(oturum_id),
            etiket_idleri=etiket_idleri_dogrula(veri["etiket_idleri"]), ip=istek_ip(request))
        return basarili({"oturum": s.oturum_verisi(oturum)})


class OperatorChatErteleView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbeti ertele (`kadar`: bir zaman, ya da null: ziyaretçi yazana dek)"),
        request=ErteleSerializer,
        responses={200: OTURUM_YANITI, **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI", "DURUM_CAKISMASI")},
    )
    def post(self, request, oturum_id: int):
        kadar = kadar_coz(request.data)
        oturum = services.chat_ertele(kullanici=request.user, oturum=self.oturum_coz(oturum_id), kadar=kadar)
        return basarili({"oturum": _operator_oturumu(oturum)})

    @extend_schema(
        summary=gettext_lazy("Ertelemeyi kaldır: sohbet hemen görünümlerine döner"),
        request=None,
        responses={200: OTURUM_YANITI, **_hatalar("KIMLIK_GEREKLI", "BULUNAMADI")},
    )
    def delete(self, request, oturum_id: int):
        oturum = services.chat_uyandir(kullanici=request.user, oturum=self.oturum_coz(oturum_id))
        return basarili({"oturum": _operator_oturumu(oturum)})


def _operator_oturumu(oturum: Oturum) -> dict:
    prefetch_related_objects([oturum], "etiketler")
    return s.oturum_verisi(oturum)


class OperatorChatTicketView(OperatorOturumAPIView):
    @extend_schema(
        summary=gettext_lazy("Sohbetten destek talebi oluştur (döküm ilk yanıt olur, notlar hariç; sohbet olduğu gibi "
                             "kalır)"),
        request=s.ChatTicketSerializer,
        responses={201: inline_serializer("SohbettenTicket", {"ticket": OperatorTicketDetaySerializer()}),
                   **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI", "ZATEN_TICKETA_DONUSTU")},
    )
    def post(self, request, oturum_id: int):
        veri = _dogrula(s.ChatTicketSerializer, request.data)
        ticket = services.chat_ticketa_cevir(
            kullanici=request.user, oturum=self.oturum_coz(oturum_id), konu=veri["konu"],
            oncelik=veri.get("oncelik") or Ticket.Oncelik.NORMAL)
        ticket = operator_ticket_get(musteri_idleri=self.musteri_idleri, ticket_id=ticket.id)
        return basarili({"ticket": OperatorTicketDetaySerializer(ticket, context={"request": request}).data}, status=201)


class HazirYanitListView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Hazır yanıtlar (projelerinizin; `q` kısayol, başlık ve içerikte arar)"),
        parameters=[OpenApiParameter("musteri_id", int), OpenApiParameter("q", str), *SAYFA_PARAMETRELERI],
        responses={200: inline_serializer("HazirYanitListesi", {
            "hazir_yanitlar": s.HazirYanitSerializer(many=True), "sonraki": serializers.CharField(allow_null=True),
        }), **_hatalar("GECERSIZ_ISTEK", "KIMLIK_GEREKLI", "BULUNAMADI")},
    )
    def get(self, request):
        sorgu = _dogrula(s.HazirYanitSorguSerializer, request.query_params)
        qs = selectors.hazir_yanit_list(
            musteri_idleri=self.musteri_idleri, musteri_id=sorgu.get("musteri_id"), q=sorgu.get("q", "").strip()
        )
        rows, sonraki = sayfala(qs, request.query_params, alanlar=("kisayol", "id"))
        return basarili({"hazir_yanitlar": [s.hazir_yanit_verisi(y) for y in rows], "sonraki": sonraki})
