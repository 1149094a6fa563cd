"""A visitor's export and erasure (CONTRACT 18), by the tenant's `sahip` and `yonetici`.

The visitor profile's `GET /operator/ziyaretci/{id}` (CONTRACT 16) is written in context; the
route is one view here, with `DELETE` beside it."""
from django.http import FileResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from context.api.views import OperatorZiyaretciProfilView, musteri_id_parametresi
from context.selectors import ziyaretci_get
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek, Yetkisiz
from supportdesk.core.girdi import ZIYARETCI_ID_MAX
from supportdesk.core.replika import replikadan
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView
from tenants.models import Uyelik

from .. import services
from ..selectors import ziyaretci_bilinir_mi

_MUSTERI_ID = OpenApiParameter("musteri_id", int, description="Ziyaretçi birden çok projenizde varsa zorunlu.")
_HATALAR = {400: OpenApiResponse(description="GECERSIZ_ISTEK"), 401: OpenApiResponse(description="KIMLIK_GEREKLI"),
            403: OpenApiResponse(description="YETKISIZ"), 404: OpenApiResponse(description="BULUNAMADI")}



class ZiyaretciGizlilikTemel(OperatorAPIView):
    def yetkili_uyelik(self, ziyaretci_id: str) -> Uyelik:
        """The caller's membership of the visitor's tenant, which must be `sahip` or `yonetici`.

        `musteri_id` names the tenant (another tenant's or an unknown one: 404). Without it the
        visitor must be known in exactly one of the caller's tenants (CONTRACT 6), or the caller
        must have only one tenant. The visitor must be one the tenant has seen."""
        # Any id a row may hold, the e-mail channel's `eposta:...` included (no widget check here).
        if not ziyaretci_id or len(ziyaretci_id) > ZIYARETCI_ID_MAX or not ziyaretci_id.isprintable():
            mesaj = _("En çok %(sayi)s yazdırılabilir karakter.") % {"sayi": ZIYARETCI_ID_MAX}
            raise GecersizIstek(alanlar={"ziyaretci_id": mesaj})
        musteri_id = musteri_id_parametresi(self.request.query_params)
        if musteri_id is None:
            if len(self.musteri_idleri) == 1:
                musteri_id = self.musteri_idleri[0]
            else:
                musteri_id = ziyaretci_get(musteri_idleri=self.musteri_idleri, ziyaretci_id=ziyaretci_id).musteri_id
        uyelik = (Uyelik.objects.filter(kullanici=self.request.user, musteri_id=musteri_id, musteri__aktif=True)
                  .select_related("musteri").first())
        if uyelik is None:
            raise Bulunamadi()
        if not uyelik.yonetebilir:
            raise Yetkisiz()
        # An id the tenant never saw is unknown (CONTRACT 18: 404), not an empty export or erasure.
        if not ziyaretci_bilinir_mi(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id):
            raise Bulunamadi(_("Ziyaretçi bulunamadı."))
        return uyelik


class ZiyaretciDisaAktarView(ZiyaretciGizlilikTemel):
    @extend_schema(
        summary=gettext_lazy("Ziyaretçinin tüm verisi (zip: ziyaretci.json ve dosyaları; iç notlar hariç)"),
        parameters=[_MUSTERI_ID],
        responses={(200, "application/zip"): OpenApiResponse(response=OpenApiTypes.BINARY,
                                                             description="ZIP arşivi: ziyaretci.json ve dosyalar"),
                   **_HATALAR},
    )
    @replikadan
    def get(self, request, ziyaretci_id: str):
        uyelik = self.yetkili_uyelik(ziyaretci_id)
        arsiv = services.ziyaretci_disa_aktar(musteri=uyelik.musteri, ziyaretci_id=ziyaretci_id,
                                              kullanici_id=request.user.pk)
        ad = "".join(c if c.isalnum() or c in "-_" else "_" for c in ziyaretci_id)[:60]
        return FileResponse(arsiv, as_attachment=True, filename=f"ziyaretci-{ad}.zip", content_type="application/zip")


class ZiyaretciView(ZiyaretciGizlilikTemel, OperatorZiyaretciProfilView):
    """`/operator/ziyaretci/{id}`: `GET` the profile (any member, CONTRACT 16, from context),
    `DELETE` the erasure (`sahip`, `yonetici`, CONTRACT 18)."""

    @extend_schema(
        summary=gettext_lazy("Ziyaretçinin tüm verisini sil (sohbetler, ticketlar, dosyalar, bağlam, tokenlar, e-postalar)"),
        parameters=[_MUSTERI_ID],
        responses={200: inline_serializer(
            "ZiyaretciSilindi", {"silinen": serializers.DictField(child=serializers.IntegerField())}), **_HATALAR},
    )
    def delete(self, request, ziyaretci_id: str):
        uyelik = self.yetkili_uyelik(ziyaretci_id)
        silinen = services.ziyaretci_sil(musteri=uyelik.musteri, ziyaretci_id=ziyaretci_id, kullanici_id=request.user.pk)
        return basarili({"silinen": silinen})
