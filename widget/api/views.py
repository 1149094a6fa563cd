"""`POST /widget/init`: the tenant's look (tenants) and the visitor's open chat (chat), composed
here, above both, so that neither imports the other."""
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers

from chat.api.serializers import widget_oturum_verisi
from chat.selectors import cevrimici_operator_var, sira_no, ziyaretci_acik_oturum
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.responses import basarili
from tenants.api import serializers as s
from tenants.api.temel import WidgetAPIView
from tenants.ziyaretci import ziyaretci_erisimi_dogrula

from .. import services


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
            "ziyaretci_id": serializers.CharField(), "oturum": serializers.DictField(allow_null=True),
            "ziyaretci_token": serializers.CharField(required=False, help_text="Yalnızca token_iste ile (CONTRACT 2a)."),
        })},
    )
    def post(self, request):
        ziyaretci_id = self.ziyaretci_id(token_denetle=False)
        musteri = self.musteri
        govde = request.data if hasattr(request.data, "get") else {}
        token_iste = govde.get("token_iste", False)
        if not isinstance(token_iste, bool):
            raise GecersizIstek(alanlar={"token_iste": "true ya da false olmalı."})
        veri = {}
        if token_iste or govde.get("signature") is not None:
            # CONTRACT 2a: the token is the proof here (or the site's signature is); refused
            # before anything of the visitor is read.
            token = services.ziyaretci_token_iste(
                musteri=musteri, ziyaretci_id=ziyaretci_id, token=self.ziyaretci_token, email=govde.get("email"),
                timestamp=govde.get("timestamp"), signature=govde.get("signature"),
                simdi=getattr(request, "gelis_zamani", None),
            )
            if token_iste:
                veri["ziyaretci_token"] = token
        else:
            ziyaretci_erisimi_dogrula(musteri=musteri, ziyaretci_id=ziyaretci_id, token=self.ziyaretci_token)
        return basarili({
            "musteri_id": musteri.id,
            "firma_adi": musteri.firma_adi,
            "logo_url": musteri.logo_url,
            "renk_primary": musteri.renk_primary,
            "ziyaretci_id": ziyaretci_id,
            **veri,
            **_ziyaretci_durumu(musteri=musteri, ziyaretci_id=ziyaretci_id),
        })
