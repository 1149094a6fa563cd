"""The two API credentials: operator bearer tokens (JWT) and the tenant's widget key."""
from dataclasses import dataclass

from rest_framework.authentication import BaseAuthentication
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import AuthenticationFailed as JWTAuthFailed
from rest_framework_simplejwt.exceptions import InvalidToken, TokenError

from .exceptions import GecersizApiAnahtari, GecersizToken, KimlikGerekli


class OperatorJWTAuthentication(JWTAuthentication):
    """Bearer JWT; a token revoked by logout, expired, or of a deleted/inactive user is refused."""

    def authenticate(self, request):
        from tenants.models import IptalEdilenToken

        try:
            result = super().authenticate(request)
        except (InvalidToken, TokenError, JWTAuthFailed):
            raise GecersizToken() from None
        if result is None:
            return None
        user, token = result
        if not user.is_active or IptalEdilenToken.objects.filter(jti=token.get("jti", "")).exists():
            raise GecersizToken()
        return user, token

    def get_raw_token(self, header: bytes):
        # The auth scheme is case-insensitive (RFC 9110 11.1): "bearer <token>" is a bearer token.
        parts = header.split()
        if parts and parts[0].lower() == b"bearer":
            parts[0] = b"Bearer"
        return super().get_raw_token(b" ".join(parts))


@dataclass(frozen=True)
class WidgetIstemci:
    """request.user of a widget or context call: the tenant's site, not a person."""

    musteri: object
    is_authenticated: bool = True
    is_active: bool = True
    pk = None


class WidgetAnahtarAuthentication(BaseAuthentication):
    """`X-API-Key` names the tenant (spec 5.1); request.auth is the tenant (`Musteri`)."""

    def authenticate(self, request):
        from tenants.selectors import musteri_api_key_ile

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
