"""`POST /widget/init`: the tenant's look (tenants) and the visitor's open chat (chat), composed
here, above both, so that neither imports the other."""
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers

from chat.api.serializers import widget_oturum_verisi
from chat.selectors import cevrimici_operator_var, sira_no, ziyaretci_acik_oturum
from supportdesk.core.responses import basarili
from tenants.api import serializers as s
from tenants.api.temel import WidgetAPIView
from tenants.gorunum import KONUMLAR, logo_adresi


def _mutlak(request, url: str) -> str:
    # The widget runs on the tenant's site: a stored path must name this service's host.
    return request.build_absolute_uri(url) if url.startswith("/") else url


def _ziyaretci_durumu(*, musteri, ziyaretci_id: str) -> dict:
    # One query when the visitor has an open chat (queue place and operators online come with it).
    oturum = ziyaretci_acik_oturum(musteri=musteri, ziyaretci_id=ziyaretci_id, kuyruk_bilgisi=True)
    if oturum is None:
        return {"oturum": None, "cevrimici_operator": cevrimici_operator_var(musteri_id=musteri.id)}
    cevrimici = cevrimici_operator_var(musteri_id=musteri.id, oturum=oturum)
    veri = widget_oturum_verisi(oturum, sira_no=sira_no(oturum=oturum), cevrimici_operator=cevrimici)
    return {"oturum": veri, "cevrimici_operator": cevrimici}


class WidgetInitView(WidgetAPIView):
    @extend_schema(
        summary="Widget başlangıcı: proje görünümü ve ziyaretçinin açık sohbeti",
        request=s.WidgetInitSerializer,
        responses={200: inline_serializer("WidgetInit", {
            "musteri_id": serializers.IntegerField(), "firma_adi": serializers.CharField(),
            "logo_url": serializers.CharField(), "renk_primary": serializers.CharField(),
            "karsilama_metni": serializers.CharField(), "baslatici_konum": serializers.ChoiceField(choices=KONUMLAR),
            "ziyaretci_id": serializers.CharField(), "oturum": serializers.DictField(allow_null=True),
        })},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id()
        musteri = self.musteri
        return basarili({
            "musteri_id": musteri.id,
            "firma_adi": musteri.firma_adi,
            "logo_url": _mutlak(request, logo_adresi(musteri)),
            "renk_primary": musteri.renk_primary,
            "karsilama_metni": musteri.karsilama_metni,
            "baslatici_konum": musteri.baslatici_konum,
            "ziyaretci_id": ziyaretci_id,
            **_ziyaretci_durumu(musteri=musteri, ziyaretci_id=ziyaretci_id),
        })
