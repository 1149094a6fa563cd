
from django.conf import settings
from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers

from supportdesk.core import mesajlar, varlik
from supportdesk.core.exceptions import GecersizGiris, GecersizIstek, LimitAsildi, Yetkisiz
from supportdesk.core.responses import basarili
from supportdesk.core.throttling import GirisAdresLimiti, LoginThrottle
from supportdesk.core.views import AcikAPIView

from .. import etiketler, iki_adim, services
from ..kimlik import operator_tokeni_uret
from ..selectors import birincil_musteri_id, uye_list, uyelik_get, uyelik_list
from ..sinyaller import giris_yayinla
from . import serializers as s
from .temel import OperatorAPIView, istek_ip


def musteri_listesi(uyelikler) -> list[dict]:
    """The caller's memberships as `GET /operator/tenants` gives them (also the answers of
    `PUT .../sira` and `PUT .../sessize`, panel.api.operator). `sira` is the tab position, starting
    at 0 (spec 2.2), whatever gaps the stored values have."""
    items = s.UyelikSerializer(uyelikler, many=True).data
    for position, item in enumerate(items):
        item["sira"] = position
    return items


def operator_verisi(kullanici) -> dict:
    uyelikler = list(uyelik_list(kullanici=kullanici))
    return {
        "id": kullanici.id,
        "email": kullanici.email,
        "musteri_id": birincil_musteri_id(kullanici=kullanici, uyelikler=uyelikler),
        "musteriler": musteri_listesi(uyelikler),
    }


class GirisView(AcikAPIView):
    throttle_classes = [LoginThrottle]

    def get_throttles(self):
        # Kept so the view can hand back the place of an attempt that did not fail.
        self._throttles = super().get_throttles()
        return self._throttles

    @extend_schema(
        summary=gettext_lazy("Operatör girişi"),
        request=s.GirisSerializer,
        responses={200: s.GirisYanitiSerializer, 400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                   401: OpenApiResponse(description="GECERSIZ_GIRIS"), 429: OpenApiResponse(description="LIMIT_ASILDI")},
    )
    def post(self, request):
        ser = s.GirisSerializer(data=request.data)
        gecerli = ser.is_valid()
        adres = GirisAdresLimiti(request)
        adres_dolu = gecerli and adres.dolu()
        kullanici = gecerli and authenticate(request, email=ser.validated_data["email"].lower(),
                                             password=ser.validated_data["sifre"])
        if kullanici is None:
            if iki_adim.kilitli_reddedildi(request):  # the pair's lockout (CONTRACT 18; tenants.iki_adim)
                raise LimitAsildi(retry_after=int(settings.AXES_COOLOFF_TIME.total_seconds()))
            adres.basarisiz()
            if adres_dolu:  # spraying from this address (CONTRACT 18): slowed, a right password still passes
                raise LimitAsildi(retry_after=adres.bekleme_saniye())
            raise GecersizGiris()  # a wrong password keeps the place its throttle reserved
        cihaz = iki_adim.onayli_cihaz(kullanici)
        if cihaz is not None and not iki_adim.kod_dogrula(cihaz, request.data.get("kod")):
            # Two-factor on: the password alone does not log in (a wrong code counts as a failure).
            iki_adim.kod_basarisiz(request, kullanici)
            raise GecersizGiris(iki_adim.KOD_GEREKLI, alanlar={"kod": iki_adim.KOD_GEREKLI})
        for throttle in self._throttles:
            throttle.iade()  # not a failed attempt: the reserved place goes back
        if not gecerli:
            raise serializers.ValidationError(ser.errors)
        token = operator_tokeni_uret(kullanici)
        self.kullanici = kullanici  # for a subclass's answer (the console's login)
        giris_yayinla(kullanici=kullanici, request=request)  # the audit log's `giris` (CONTRACT 18)
        varlik.rest_cagrisi(kullanici_id=kullanici.pk)  # presence (CONTRACT 11): it just proved who it is
        return basarili({"token": token, "token_tipi": "Bearer", "operator": operator_verisi(kullanici)})


class TenantListView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Operatörün proje üyelikleri (spec 4.4)"),
                   responses={200: inline_serializer("TenantList", {"musteriler": s.UyelikSerializer(many=True)})})
    def get(self, request):
        return basarili({"musteriler": musteri_listesi(uyelik_list(kullanici=request.user))})


class TenantSiraView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Sekme sırası"), request=s.SiraSerializer,
                   responses={200: inline_serializer("TenantSira", {"musteriler": s.UyelikSerializer(many=True)})})
    def put(self, request):
        ser = s.SiraSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        services.uyelik_sirala(kullanici=request.user, order=ser.validated_data["order"])
        return basarili({"musteriler": musteri_listesi(uyelik_list(kullanici=request.user))})


class EpostaBildirimiSerializer(serializers.Serializer):
    eposta_bildirimi = serializers.BooleanField()


def _eposta_bildirimi_yaniti(uyelik) -> dict:
    return {"musteri_id": uyelik.musteri_id, "eposta_bildirimi": uyelik.eposta_bildirimi}


class TenantEpostaBildirimiView(OperatorAPIView):
    """The caller's own "new ticket" e-mail alerts for one of its tenants (CONTRACT 14)."""

    @extend_schema(summary=gettext_lazy("Yeni ticket e-postası (bu proje için, kendi üyeliğim)"),
                   responses={200: inline_serializer("EpostaBildirimi", {
                       "musteri_id": serializers.IntegerField(), "eposta_bildirimi": serializers.BooleanField()})})
    def get(self, request, musteri_id: int):
        return basarili(_eposta_bildirimi_yaniti(uyelik_get(kullanici=request.user, musteri_id=musteri_id)))

    @extend_schema(summary=gettext_lazy("Yeni ticket e-postasını aç / kapat"), request=EpostaBildirimiSerializer,
                   responses={200: inline_serializer("EpostaBildirimiYanit", {
                       "musteri_id": serializers.IntegerField(), "eposta_bildirimi": serializers.BooleanField()})})
    def put(self, request, musteri_id: int):
        ser = EpostaBildirimiSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        uyelik = services.uyelik_eposta_bildirimi_ayarla(
            kullanici=request.user, musteri_id=musteri_id, acik=ser.validated_data["eposta_bildirimi"])
        return basarili(_eposta_bildirimi_yaniti(uyelik))


class TenantUyeleriView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Projenin operatörleri (aktarma hedefleri); projeniz değilse 404"),
                   responses={200: inline_serializer("TenantUyeleri", {"operatorler": s.UyeSerializer(many=True)}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, musteri_id: int):
        uyeler = uye_list(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"operatorler": s.UyeSerializer(uyeler, many=True).data})


# --- labels (CONTRACT 16) ----------------------------------------------------------------------
class EtiketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    musteri_id = serializers.IntegerField()
    ad = serializers.CharField()
    renk = serializers.CharField(help_text="#RRGGBB")


class EtiketIstekSerializer(serializers.Serializer):
    # Checked by the service (tenants.etiketler): the schema only describes the body.
    ad = serializers.CharField(help_text="1-40 karakter; projede tekil (Türkçe büyük/küçük harf farkı sayılmaz).")
    renk = serializers.CharField(required=False, allow_null=True, help_text="#RRGGBB; yoksa varsayılan renk.")


def _govde(request) -> dict:
    if not isinstance(request.data, dict):
        raise GecersizIstek(alanlar={"genel": mesajlar.GOVDE_NESNE_OLMALI})
    return request.data


class TenantEtiketleriView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Projenin etiketleri (her üye)"),
                   responses={200: inline_serializer("EtiketListesi", {"etiketler": EtiketSerializer(many=True)}),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def get(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        return basarili({"etiketler": [etiketler.etiket_verisi(e) for e in etiketler.etiket_list(musteri_id=musteri_id)]})

    @extend_schema(summary=gettext_lazy("Etiket oluştur (her üye; `etiket_olusturuldu` olayı)"), request=EtiketIstekSerializer,
                   responses={201: inline_serializer("EtiketYaniti", {"etiket": EtiketSerializer()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def post(self, request, musteri_id: int):
        uyelik_get(kullanici=request.user, musteri_id=musteri_id)
        govde = _govde(request)
        etiket = etiketler.etiket_olustur(musteri_id=musteri_id, ad=govde.get("ad"), renk=govde.get("renk"),
                                          kullanici_id=request.user.pk, ip=istek_ip(request))
        return basarili({"etiket": etiketler.etiket_verisi(etiket)}, status=201)


class EtiketView(OperatorAPIView):
    def _yonetilen(self, request, etiket_id: int):
        # Another tenant's label is a 404 before the role is looked at (existence is not leaked).
        etiket = etiketler.etiket_get(musteri_idleri=self.musteri_idleri, etiket_id=etiket_id)
        if not uyelik_get(kullanici=request.user, musteri_id=etiket.musteri_id).yonetebilir:
            raise Yetkisiz(_("Etiketleri yalnızca proje sahibi ve yöneticiler düzenleyebilir."))
        return etiket

    @extend_schema(summary=gettext_lazy("Etiketi yeniden adlandır / renklendir (sahip, yönetici)"), request=EtiketIstekSerializer,
                   responses={200: inline_serializer("EtiketGuncelleYaniti", {"etiket": EtiketSerializer()}),
                              400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                              403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def put(self, request, etiket_id: int):
        etiket = self._yonetilen(request, etiket_id)
        govde = _govde(request)
        alanlar = {a: govde[a] for a in ("ad", "renk") if a in govde}
        if not alanlar:
            raise GecersizIstek(alanlar={"ad": _("`ad` ya da `renk` verilmeli.")})
        etiket = etiketler.etiket_guncelle(etiket=etiket, kullanici_id=request.user.pk, ip=istek_ip(request), **alanlar)
        return basarili({"etiket": etiketler.etiket_verisi(etiket)})

    @extend_schema(summary=gettext_lazy("Etiketi sil (sahip, yönetici): taşıyan sohbet ve ticketlardan da kalkar"), request=None,
                   responses={200: dict, 403: OpenApiResponse(description="YETKISIZ"),
                              404: OpenApiResponse(description="BULUNAMADI")})
    def delete(self, request, etiket_id: int):
        etiket = self._yonetilen(request, etiket_id)
        etiketler.etiket_sil(etiket=etiket, kullanici_id=request.user.pk, ip=istek_ip(request))
        return basarili({})
