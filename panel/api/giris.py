"""The operator console's session (CONTRACT 12): the same login as `POST /auth/login`, but the
token travels in an HttpOnly, SameSite=Strict cookie scoped to `/api/v1/` that no script of the
page can read, so an injected script cannot carry it off; it survives a reload because the
browser keeps it. State-changing calls with the cookie carry `X-CSRF-Token` (see
`tenants.kimlik.PanelCerezAuthentication`). The socket needs the token itself in its first
frame (CONTRACT 11), so the console asks for a socket ticket just before it connects: a JWT that
opens the operator socket only (REST refuses it), revoked with the cookie's token at logout, and
expiring with it (the socket re-checks its token every few seconds, so a shorter life would
close a healthy socket)."""
from datetime import UTC, datetime

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework_simplejwt.tokens import AccessToken

from chat import operator_durumu
from supportdesk.core.dil import diller, sayfa_dili
from supportdesk.core.responses import basarili
from tenants.api import serializers as ts
from tenants.api.temel import OperatorAPIView
from tenants.api.views import GirisView, operator_verisi
from tenants.kimlik import SIFRE_DAMGASI, SOKET_AMACI, panel_cerezi_sil, panel_cerezi_yaz, panel_csrf_degeri

PANEL_OTURUMU = inline_serializer("PanelOturumu", {
    "operator": ts.OperatorSerializer(), "csrf": serializers.CharField(help_text="X-CSRF-Token başlığının değeri."),
    "dil": serializers.ChoiceField(choices=diller(), help_text=(  # ceviri: yok
        "Konsolun dili (CONTRACT 19): üyenin kendi seçimi (`dil`), seçmemişse isteğin Accept-Language'ı, yoksa tr.")),
})


def _oturum_verisi(request, kullanici, token) -> dict:
    return {"operator": operator_verisi(kullanici), "csrf": panel_csrf_degeri(token["jti"]),
            "dil": sayfa_dili(request, kullanici)}  # the console sends its page's language as Accept-Language


class PanelGirisView(GirisView):
    """`POST /panel/giris {email, sifre}`: the login of `/auth/login` (same checks and limit),
    answering the cookie instead of a token in the body."""

    @extend_schema(
        summary=gettext_lazy("Konsol girişi: token HttpOnly çerezde döner, gövdede değil"),
        request=ts.GirisSerializer,
        responses={200: PANEL_OTURUMU, 400: OpenApiResponse(description="GECERSIZ_ISTEK"),
                   401: OpenApiResponse(description="GECERSIZ_GIRIS"), 429: OpenApiResponse(description="LIMIT_ASILDI")},
    )
    def post(self, request):
        yanit = super().post(request)
        veri = yanit.data["data"]
        token = AccessToken(veri["token"], verify=False)
        yanit.data["data"] = {"operator": veri["operator"], "csrf": panel_csrf_degeri(token["jti"]),
                              "dil": sayfa_dili(request, self.kullanici)}
        panel_cerezi_yaz(yanit, token=veri["token"], request=request)
        yanit["Cache-Control"] = "no-store"
        return yanit


class PanelOturumView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Konsolun oturumu: kim girişli ve CSRF değeri (sayfa yenilenince)"),
                   responses={200: PANEL_OTURUMU, 401: OpenApiResponse(description="KIMLIK_GEREKLI, GECERSIZ_TOKEN")})
    def get(self, request):
        yanit = basarili(_oturum_verisi(request, request.user, request.auth))
        yanit["Cache-Control"] = "no-store"
        return yanit


class PanelCikisView(OperatorAPIView):
    @extend_schema(summary=gettext_lazy("Konsol çıkışı: token iptal edilir (`/auth/logout` gibi), çerez silinir"),
                   request=None, responses={200: dict})
    def post(self, request):
        token = request.auth
        # One conditional write: of racing logouts only one makes the operator offline (issue 13)
        # and hands its chats back to routing (the action of `/auth/logout`, issue 40).
        operator_durumu.cikis_yap(kullanici=request.user, jti=token["jti"],
                                  bitis=datetime.fromtimestamp(token["exp"], tz=UTC))
        yanit = basarili({})
        panel_cerezi_sil(yanit)
        return yanit


class SoketBiletiView(OperatorAPIView):
    @extend_schema(
        summary=gettext_lazy(
            "Operatör soketi bileti (`kimlik` çerçevesinde gönderilir; REST'te geçmez, çıkışla ölür)"),
        request=None,
        responses={201: inline_serializer("SoketBileti", {
            "token": serializers.CharField(), "gecerlilik_saniye": serializers.IntegerField()})},
    )
    def post(self, request):
        bilet = AccessToken.for_user(request.user)
        bilet["exp"] = request.auth["exp"]
        bilet["amac"] = SOKET_AMACI
        # The password stamp of the token it came from: a password change kills the ticket too.
        bilet[SIFRE_DAMGASI] = request.auth.get(SIFRE_DAMGASI)
        # Revoking the token it came from (logout) revokes the ticket too (`tenants.kimlik`).
        bilet["ana_jti"] = request.auth["jti"]
        kalan = max(0, int(request.auth["exp"] - datetime.now(tz=UTC).timestamp()))
        yanit = basarili({"token": str(bilet), "gecerlilik_saniye": kalan}, status=201)
        yanit["Cache-Control"] = "no-store"
        return yanit
