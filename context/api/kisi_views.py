"""Contacts over REST (CONTRACT 25). Views check input and call one service or selector each."""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from kisiler import selectors, services
from supportdesk.core import mesajlar
from supportdesk.core.exceptions import GecersizIstek, Yetkisiz
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.pagination import sayfala
from supportdesk.core.responses import basarili
from tenants.api.temel import OperatorAPIView, istek_ip
from tenants.selectors import uyelik_get

from ..kisi_ozeti import kisi_verileri, kisi_verisi
from .kisi_serializers import BirlestirSerializer, KisiGuncelleSerializer, KisiSerializer, NitelikTanimiSerializer

YONETICI_GEREKLI = gettext_lazy("Bunu yalnızca proje sahibi ve yöneticiler yapabilir.")


def _govde(request) -> dict:
    if not isinstance(request.data, dict):
        raise GecersizIstek(alanlar={"genel": mesajlar.GOVDE_NESNE_OLMALI})
    return request.data


def _musteri_id(params) -> int | None:
    raw = params.get("musteri_id")
    if raw in (None, ""):
        return None
    if not (isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 20) or not gecerli_id_mi(int(raw)):
        raise GecersizIstek(alanlar={"musteri_id": _("Geçerli bir proje kimliği olmalı.")})
    return int(raw)


def _kisi(kisi) -> dict:
    return KisiSerializer(kisi_verisi(kisi)).data


class KisiListView(OperatorAPIView):
    @extend_schema(
        operation_id="operator_kisiler_list",
        summary=gettext_lazy("Kişiler (her üye): en yeni önce, q ile ad, e-posta, şirket, telefon ve ziyaretçi kimliği"),
        parameters=[OpenApiParameter("musteri_id", int), OpenApiParameter("q", str), OpenApiParameter("cursor", str),
                    OpenApiParameter("limit", int)],
        responses={200: inline_serializer("KisiListesi", {"kisiler": KisiSerializer(many=True),
                                                          "sonraki": serializers.CharField(allow_null=True)}),
                   400: OpenApiResponse(description="GECERSIZ_ISTEK")},
    )
    def get(self, request):
        p = request.query_params
        qs = selectors.kisi_list(musteri_idleri=self.musteri_idleri, musteri_id=_musteri_id(p), q=p.get("q"))
        rows, sonraki = sayfala(qs, p, alanlar=("id",), azalan=True)
        return basarili({"kisiler": KisiSerializer(kisi_verileri(rows), many=True).data, "sonraki": sonraki})


class KisiView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Kişi (her üye)"),
                   responses={200: inline_serializer("KisiYaniti", {"kisi": KisiSerializer()}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, kisi_id: int):
        return basarili({"kisi": _kisi(selectors.kisi_get(musteri_idleri=self.musteri_idleri, kisi_id=kisi_id))})

    @extend_schema(summary=gettext_lazy("Kişiyi düzenle (her üye): ad, email, telefon, sirket, nitelikler"),
                   request=KisiGuncelleSerializer,
                   responses={200: inline_serializer("KisiGuncelleYaniti", {"kisi": KisiSerializer()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK (alanlar)"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def patch(self, request, kisi_id: int):
        kisi = selectors.kisi_get(musteri_idleri=self.musteri_idleri, kisi_id=kisi_id)
        kisi = services.kisi_guncelle(kisi=kisi, alanlar=_govde(request))
        return basarili({"kisi": _kisi(kisi)})


class KisiBirlestirView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("İkinci kişiyi bu kişiye kat (sahip, yönetici; `kisi_birlesti` denetim kaydı)"),
                   request=BirlestirSerializer,
                   responses={200: inline_serializer("KisiBirlestirYaniti", {"kisi": KisiSerializer()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                              403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def post(self, request, kisi_id: int):
        # Another tenant's contact is a 404 before the role is looked at (existence is not leaked).
        kisi = selectors.kisi_get(musteri_idleri=self.musteri_idleri, kisi_id=kisi_id)
        if not uyelik_get(kullanici=request.user, musteri_id=kisi.musteri_id).yonetebilir:
            raise Yetkisiz(YONETICI_GEREKLI)
        govde = _govde(request)
        if "kisi_id" not in govde:
            raise GecersizIstek(alanlar={"kisi_id": _("Zorunlu.")})
        kaynak_id = govde["kisi_id"]
        if not gecerli_id_mi(kaynak_id):
            raise GecersizIstek(alanlar={"kisi_id": _("Pozitif bir tam sayı olmalı.")})
        # The second contact is looked up in the first's tenant only: another tenant's is a 404.
        kaynak = selectors.kisi_get(musteri_idleri=[kisi.musteri_id], kisi_id=kaynak_id)
        kisi = services.kisi_birlestir(kisi=kisi, kaynak=kaynak, kullanici_id=request.user.pk, ip=istek_ip(request))
        return basarili({"kisi": _kisi(kisi)})


class TenantNitelikleriView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Projenin kişi nitelikleri (her üye)"),
                   responses={200: inline_serializer("NitelikListesi", {"nitelikler": NitelikTanimiSerializer(many=True)}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"nitelikler": [selectors.nitelik_verisi(t) for t in selectors.nitelik_list(musteri_id=musteri_id)]})

    @extend_schema(summary=gettext_lazy("Kişi niteliklerini tümüyle değiştir (sahip, yönetici)"),
                   request=inline_serializer("NitelikIstegi", {"nitelikler": NitelikTanimiSerializer(many=True)}),
                   responses={200: inline_serializer("NitelikAyarYaniti", {"nitelikler": NitelikTanimiSerializer(many=True)}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK (alanlar)"),
                              403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def put(self, request, musteri_id: int):
        if not uyelik_get(kullanici=request.user, musteri_id=musteri_id).yonetebilir:
            raise Yetkisiz(YONETICI_GEREKLI)
        # The list sits under `nitelikler` (CONTRACT 1: a body and `data` are objects).
        govde = _govde(request)
        if "nitelikler" not in govde:
            raise GecersizIstek(alanlar={"nitelikler": _("Zorunlu.")})
        tanimlar = services.nitelik_tanimlarini_ayarla(musteri_id=musteri_id, tanimlar=govde["nitelikler"])
        return basarili({"nitelikler": [selectors.nitelik_verisi(t) for t in tanimlar]})

