"""The two API credentials (operator bearer tokens, the tenant's widget key) and the origin
whitelist that guards widget calls. The tenant-resolving base views use them (`tenants.api.temel`).

A bearer token dies (CONTRACT 2, issue 13) on logout (its `jti` is revoked), when the user is
deactivated (`is_active`), when the user's password changes by any path (portal, admin, reset:
the token carries a stamp derived from the password hash, as Django's sessions do, so no write
path can forget to revoke), and a tenant leaves its reach as soon as the membership is deleted or
the tenant deactivated (memberships are read per request, never cached). All of it is checked on
the user row the request loads anyway: no extra query. The sockets of CONTRACT 11 call
`operator_tokeni_dogrula` to check (and re-check) a token the same way.
"""
import hmac
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import AuthenticationFailed as JWTAuthFailed
from rest_framework_simplejwt.exceptions import InvalidToken, TokenError
from rest_framework_simplejwt.tokens import AccessToken

from supportdesk.core import dil, gunluk, varlik
from supportdesk.core.exceptions import GecersizApiAnahtari, GecersizToken, KimlikGerekli, OriginIzinsiz, Yetkisiz
from supportdesk.core.girdi import gecerli_id_mi

from .models import IptalEdilenToken, Kullanici
from .origin import origin_izinli
from .selectors import musteri_api_key_ile

SIFRE_DAMGASI = "sd"  # claim: a stamp of the password hash the token was issued under


def _sifre_damgasi(kullanici: Kullanici) -> str:
    # Django's session hash: an HMAC (SECRET_KEY) of the password hash, so it reveals nothing.
    return kullanici.get_session_auth_hash()[:32]


def operator_tokeni_uret(kullanici: Kullanici) -> str:
    """A bearer token for `kullanici` (login): valid until it expires, is logged out, the user is
    deactivated or its password changes."""
    token = AccessToken.for_user(kullanici)
    token[SIFRE_DAMGASI] = _sifre_damgasi(kullanici)
    return str(token)


class OperatorJWTAuthentication(JWTAuthentication):
    """Bearer JWT; a token revoked by logout, expired, of a deleted/inactive user or issued before
    the user's password changed is refused."""

    hata_kodlari_401 = "KIMLIK_GEREKLI, GECERSIZ_TOKEN"  # for the OpenAPI schema

    def authenticate(self, request):
        header = self.get_header(request)
        if header is None:
            return None
        raw = self.get_raw_token(header)
        if raw is None:
            return None
        user, token = operator_tokeni_dogrula(raw)
        _rest_icin(token)
        gunluk.baglam_ekle(kullanici_id=user.pk)
        dil.api_kullanici_dili(request, user)  # without Accept-Language, the user's own (CONTRACT 19)
        # Presence (CONTRACT 11): an authenticated call keeps a REST-only client reachable.
        varlik.rest_cagrisi(kullanici_id=user.pk)
        return user, token

    def get_user(self, validated_token):
        # A token signed with our key but naming no possible user id (text, a float, beyond
        # bigint) names nobody: 401, never a lookup the database would refuse with an error.
        # simplejwt writes the id as a string of digits; older tokens hold an integer.
        user_id = validated_token.get("user_id")
        if isinstance(user_id, str) and user_id.isascii() and user_id.isdigit() and len(user_id) < 20:
            user_id = int(user_id)
        if not gecerli_id_mi(user_id):
            raise GecersizToken()
        return super().get_user(validated_token)

    def get_raw_token(self, header: bytes):
        # The auth scheme is case-insensitive (RFC 9110 11.1): "bearer <token>" is a bearer token.
        parts = header.split()
        if parts and parts[0].lower() == b"bearer":
            parts[0] = b"Bearer"
        return super().get_raw_token(b" ".join(parts))


def _gecerli_mi(user, token):
    # A console socket ticket (`ana_jti`, see `panel.api.giris`) dies with the token it was
    # minted from: logging out revokes both with one row.
    damga = token.get(SIFRE_DAMGASI)
    jtiler = [token.get("jti", ""), *([token["ana_jti"]] if token.get("ana_jti") else [])]
    if (
        not user.is_active
        or not isinstance(damga, str)
        or not hmac.compare_digest(damga, _sifre_damgasi(user))
        or IptalEdilenToken.objects.filter(jti__in=jtiler).exists()
    ):
        raise GecersizToken()
    return user, token


def operator_tokeni_dogrula(ham_token: str) -> tuple[Kullanici, AccessToken]:
    """The user and token of a bearer token, or `GecersizToken`: the check of a REST call, for the
    operator socket's first frame and its periodic re-check (CONTRACT 11). Two queries (the user,
    the logout revocation); the user's tenants are `selectors.kullanici_musteri_idleri`, to be
    re-read on each re-check so a removed membership or deactivated tenant drops out."""
    auth = OperatorJWTAuthentication()
    try:
        token = auth.get_validated_token(ham_token.encode() if isinstance(ham_token, str) else ham_token)
        user = auth.get_user(token)
    except (InvalidToken, TokenError, JWTAuthFailed):
        raise GecersizToken() from None
    return _gecerli_mi(user, token)


# --- the operator console's cookie and socket ticket (CONTRACT 12) ------------------------------
PANEL_CEREZI = "sd_operator"
PANEL_CEREZ_YOLU = "/api/v1/"
# Beside the token: a cookie the console's page can read, holding no secret ("1"), living as long
# as the token, so the console asks for its session (`GET /panel/oturum`) only when there may be
# one; without it every load of a logged-out console cost a 401 in the browser's console.
PANEL_IPUCU_CEREZI = "sd_operator_girisli"
PANEL_IPUCU_YOLU = "/panel/"
CSRF_BASLIGI = "HTTP_X_CSRF_TOKEN"
CSRF_HATASI = gettext_lazy("CSRF doğrulaması başarısız: X-CSRF-Token başlığı eksik ya da yanlış.")
SOKET_AMACI = "soket"


def _rest_icin(token) -> None:
    # A socket ticket opens the operator socket only; REST refuses it (it is the one token the
    # console's scripts hold, so it must not be worth more than a push stream).
    if token.get("amac") == SOKET_AMACI:
        raise GecersizToken()


def panel_csrf_degeri(jti: str) -> str:
    """The double-submit value of a cookie token: derived from its id with the server's key, so
    it needs no storage and dies with the token. Not a credential by itself."""
    return salted_hmac("supportdesk.panel.csrf", jti, secret=settings.SECRET_KEY, algorithm="sha256").hexdigest()


def panel_cerezi_yaz(response, *, token: str, request) -> None:
    """HttpOnly (no script of the page reads it), SameSite=Strict (no other site's request
    carries it), scoped to the API's path, Secure behind HTTPS, living as long as the token."""
    omur = int(settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"].total_seconds())
    response.set_cookie(
        PANEL_CEREZI, token, max_age=omur, path=PANEL_CEREZ_YOLU, httponly=True, samesite="Strict",
        secure=request.is_secure(),
    )
    response.set_cookie(PANEL_IPUCU_CEREZI, "1", max_age=omur, path=PANEL_IPUCU_YOLU, samesite="Strict",
                        secure=request.is_secure())


def panel_cerezi_sil(response) -> None:
    response.delete_cookie(PANEL_CEREZI, path=PANEL_CEREZ_YOLU, samesite="Strict")
    response.delete_cookie(PANEL_IPUCU_CEREZI, path=PANEL_IPUCU_YOLU, samesite="Strict")


class PanelCerezAuthentication(BaseAuthentication):
    """The operator console's credential: the same JWT as a bearer token, in the HttpOnly
    cookie set by `POST /panel/giris`. A state-changing call must also carry `X-CSRF-Token`
    (a header no other origin may send: it is not in CORS_ALLOW_HEADERS, and its value is
    bound to the token). Tried after the bearer header, so API clients are unaffected."""

    hata_kodlari_401 = "KIMLIK_GEREKLI, GECERSIZ_TOKEN"

    def authenticate(self, request):
        raw = request.COOKIES.get(PANEL_CEREZI)
        if not raw:
            return None
        user, token = operator_tokeni_dogrula(raw.encode())
        _rest_icin(token)
        gunluk.baglam_ekle(kullanici_id=user.pk)
        dil.api_kullanici_dili(request, user)
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            gelen = request.META.get(CSRF_BASLIGI, "")
            if not constant_time_compare(gelen, panel_csrf_degeri(token.get("jti", ""))):
                raise Yetkisiz(CSRF_HATASI)
        varlik.rest_cagrisi(kullanici_id=user.pk)
        return user, token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


@dataclass(frozen=True)
class WidgetIstemci:
    """request.user of a widget or context call: the tenant's site, not a person."""

    musteri: object
    is_authenticated: bool = True
    is_active: bool = True
    pk = None


class WidgetAnahtarAuthentication(BaseAuthentication):
    """`X-API-Key` names the tenant (spec 5.1); request.auth is the tenant (`Musteri`)."""

    hata_kodlari_401 = ("KIMLIK_GEREKLI, GECERSIZ_API_ANAHTARI, ZIYARETCI_TOKEN_GEREKLI "  # ceviri: yok (API docs)
                        "(bağlı ziyaretçide X-Ziyaretci-Token eksik ya da yanlış; CONTRACT 2a)")

    def authenticate(self, request):
        if not widget_anahtari(request):
            raise KimlikGerekli()
        musteri = widget_musterisi(request)
        if musteri is None:
            raise GecersizApiAnahtari()
        gunluk.baglam_ekle(musteri_id=musteri.pk)
        return WidgetIstemci(musteri=musteri), musteri

    def authenticate_header(self, request):
        return 'ApiKey realm="widget"'


def widget_anahtari(request) -> str:
    return request.META.get("HTTP_X_API_KEY", "").strip()


def widget_musterisi(request):
    """The active tenant of the request's `X-API-Key`, or None (no key, or no tenant has it). With
    the request's pre-read made (`tenants.on_okuma`), under the tenant cache's generation it read."""
    key = widget_anahtari(request)
    if not key or len(key) > 128 or not key.isprintable():
        return None  # no key of ours looks like that; never ask the database
    on = getattr(request, "on_okuma", None)
    if on is not None:
        return musteri_api_key_ile(api_key=key, nesil=on.musteri_nesli, nesil_okundu=True)
    return musteri_api_key_ile(api_key=key)


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
