"""The two API credentials (operator bearer tokens, the tenant's widget key) and the origin
whitelist that guards widget calls. The tenant-resolving base views use them (`tenants.api.temel`)."""
from dataclasses import dataclass

from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import AuthenticationFailed as JWTAuthFailed
from rest_framework_simplejwt.exceptions import InvalidToken, TokenError

from supportdesk.core import varlik
from supportdesk.core.exceptions import GecersizApiAnahtari, GecersizToken, KimlikGerekli, OriginIzinsiz

from .models import IptalEdilenToken
from .origin import origin_izinli
from .selectors import musteri_api_key_ile


class OperatorJWTAuthentication(JWTAuthentication):
    """Bearer JWT; a token revoked by logout, expired, or of a deleted/inactive user is refused."""

    hata_kodlari_401 = "KIMLIK_GEREKLI, GECERSIZ_TOKEN"  # for the OpenAPI schema

    def authenticate(self, request):
        header = self.get_header(request)
        if header is None:
            return None
        raw = self.get_raw_token(header)
        if raw is None:
            return None
        user, token = operator_tokeni_dogrula(raw)
        # Presence (CONTRACT 11): an authenticated call keeps a REST-only client reachable.
        varlik.rest_cagrisi(kullanici_id=user.pk)
        return user, token

    def get_raw_token(self, header: bytes):
        # The auth scheme is case-insensitive (RFC 9110 11.1): "bearer <token>" is a bearer token.
        parts = header.split()
        if parts and parts[0].lower() == b"bearer":
            parts[0] = b"Bearer"
        return super().get_raw_token(b" ".join(parts))


def operator_tokeni_dogrula(ham_token) -> tuple:
    """(user, token) of a bearer token, or GecersizToken: bad, expired, revoked by logout, or of
    a deleted or inactive user. REST (each request) and the operator socket (at `kimlik` and
    every CANLI_TOKEN_KONTROL_ARALIGI seconds after) both decide through this one function."""
    dogrulayici = OperatorJWTAuthentication()
    try:
        token = dogrulayici.get_validated_token(ham_token)
        user = dogrulayici.get_user(token)
    except (InvalidToken, TokenError, JWTAuthFailed):
        raise GecersizToken() from None
    if not user.is_active or IptalEdilenToken.objects.filter(jti=token.get("jti", "")).exists():
        raise GecersizToken()
    return user, token


@dataclass(frozen=True)
class WidgetIstemci:
    """request.user of a widget or context call: the tenant's site, not a person."""

    musteri: object
    is_authenticated: bool = True
    is_active: bool = True
    pk = None


class WidgetAnahtarAuthentication(BaseAuthentication):
    """`X-API-Key` names the tenant (spec 5.1); request.auth is the tenant (`Musteri`)."""

    hata_kodlari_401 = "KIMLIK_GEREKLI, GECERSIZ_API_ANAHTARI"

    def authenticate(self, request):
        key = request.META.get("HTTP_X_API_KEY", "").strip()
        if not key:
            raise KimlikGerekli()
        if len(key) > 128 or not key.isprintable():
            raise GecersizApiAnahtari()  # no key of ours looks like that; never ask the database
        musteri = musteri_api_key_ile(api_key=key)
        if musteri is None:
            raise GecersizApiAnahtari()
        return WidgetIstemci(musteri=musteri), musteri

    def authenticate_header(self, request):
        return 'ApiKey realm="widget"'


class OriginIzinli(BasePermission):
    """Spec 5.2: with a non-empty `izinli_originler`, Origin (or Referer) must match exactly."""

    hata_403 = True  # for the OpenAPI schema: ORIGIN_IZINSIZ

    def has_permission(self, request, view):
        musteri = request.auth
        if not origin_izinli(
            musteri.izinli_originler, request.META.get("HTTP_ORIGIN"), request.META.get("HTTP_REFERER")
        ):
            raise OriginIzinsiz()
        return True
