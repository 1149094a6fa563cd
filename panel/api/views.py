"""`GET /operator/dashboard`: figures of chats (chat) and tickets (tickets) per tenant of the
caller and in total, composed here above both feature apps."""
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from chat.selectors import dashboard_verisi
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView
from tenants.ayarlar import bolge
from tenants.selectors import uyelik_list
from tickets.selectors import acik_ticket_sayilari

DASHBOARD_SATIRI = {
    "bekleyen_chat": serializers.IntegerField(), "aktif_chat": serializers.IntegerField(),
    "bugun_kapanan_chat": serializers.IntegerField(), "acik_ticket": serializers.IntegerField(),
    "ortalama_puan": serializers.FloatField(allow_null=True, help_text="Son 30 günün ortalaması."),
    "puan_sayisi": serializers.IntegerField(), "cevrimici_operator": serializers.IntegerField(),
}


class DashboardView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy("Pano: proje başına ve toplamda bekleyen/aktif/bugün kapanan sohbet, "
                 "açık talep, puan, çevrimiçi operatör"),
        responses={200: inline_serializer("Dashboard", {
            "musteriler": inline_serializer("DashboardMusteri", {
                "musteri_id": serializers.IntegerField(), "firma_adi": serializers.CharField(), **DASHBOARD_SATIRI,
            }, many=True),
            "toplam": inline_serializer("DashboardToplam", DASHBOARD_SATIRI),
        }), 401: OpenApiResponse(description="KIMLIK_GEREKLI, GECERSIZ_TOKEN")},
    )
    def get(self, request):
        uyelikler = list(uyelik_list(kullanici=request.user))
        ids = [u.musteri_id for u in uyelikler]
        veri = dashboard_verisi(musteri_idleri=ids, bolgeler={u.musteri_id: bolge(u.musteri) for u in uyelikler})
        ticketlar = acik_ticket_sayilari(musteri_idleri=ids)
        musteriler = []
        for u in uyelikler:
            satir = veri["musteriler"][u.musteri_id]
            musteriler.append({
                "musteri_id": u.musteri_id, "firma_adi": u.musteri.firma_adi, **satir,
                "acik_ticket": ticketlar.get(u.musteri_id, 0),
                "ortalama_puan": _yuvarla(satir["ortalama_puan"]),
            })
        return basarili({"musteriler": musteriler, "toplam": _toplam(musteriler, veri)})


def _yuvarla(value) -> float | None:
    return None if value is None else round(float(value), 2)


def _toplam(musteriler: list[dict], veri: dict) -> dict:
    toplam = {k: sum(m[k] for m in musteriler) for k in
              ("bekleyen_chat", "aktif_chat", "bugun_kapanan_chat", "acik_ticket", "puan_sayisi")}
    satirlar = [r for r in veri["musteriler"].values() if r["puan_sayisi"]]
    ortalama = (sum(float(r["ortalama_puan"]) * r["puan_sayisi"] for r in satirlar) / toplam["puan_sayisi"]
                if satirlar else None)
    # An operator of several tenants counts once in the total.
    return {**toplam, "ortalama_puan": _yuvarla(ortalama), "cevrimici_operator": veri["toplam_cevrimici_operator"]}

