"""The tenant-resolving base views: who the caller is and which tenants it may touch is decided
here once, not per endpoint (HOUSE-STYLE 5)."""
import json
from collections.abc import Callable
from functools import cached_property

from django.conf import settings
from django.http import HttpResponse
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.json import strict_constant

from supportdesk.core import gunluk
from supportdesk.core.girdi import govde_uzunlugu, ziyaretci_id_dogrula
from supportdesk.core.throttling import WidgetThrottle, istemci_ip
from supportdesk.core.views import JSONAyristirici, TemelAPIView, ZarfJSONRenderer

from .. import on_okuma
from ..kimlik import (
    OperatorJWTAuthentication,
    OriginIzinli,
    PanelCerezAuthentication,
    WidgetAnahtarAuthentication,
    WidgetIstemci,
    widget_musterisi,
)
from ..models import Musteri
from ..on_okuma import OnOkumaIhtiyaci
from ..origin import origin_izinli
from ..selectors import kullanici_musteri_idleri
from ..ziyaretci import TOKEN_BASLIGI, ziyaretci_erisimi_dogrula


def istek_ip(request) -> str | None:
    """The caller's address as the rate limits see it (DRF's `get_ident`: `NUM_PROXIES` aware), for
    events an audit log records (`ip`)."""
    return istemci_ip(request) or None


class OperatorAPIView(TemelAPIView):
    """Bearer-token endpoints. `self.musteri_idleri` is the caller's tenants, for query scoping."""

    # The bearer header first; the console's HttpOnly cookie only when there is none (CONTRACT 12).
    authentication_classes = [OperatorJWTAuthentication, PanelCerezAuthentication]
    permission_classes = [IsAuthenticated]

    @cached_property
    def musteri_idleri(self) -> list[int]:
        return kullanici_musteri_idleri(kullanici=self.request.user)


class WidgetAPIView(TemelAPIView):
    """`X-API-Key` endpoints, behind the origin whitelist and the widget rate limit."""

    authentication_classes = [WidgetAnahtarAuthentication]
    permission_classes = [OriginIzinli]
    throttle_classes = [WidgetThrottle]
    # What the request's pre-read (`tenants.on_okuma`: one Redis round trip with the rate limit
    # and the tenant cache's generation) also reads for this view: presence (queue info,
    # "operators online"), the idle poll's snapshot.
    on_okuma = OnOkumaIhtiyaci()

    def initial(self, request, *args, **kwargs):
        if WidgetThrottle in self.throttle_classes and not getattr(request, "on_okuma_denendi", False):
            on_okuma.on_oku(request, self.on_okuma)
        super().initial(request, *args, **kwargs)
        on_okuma.musteri_dogrulandi(request, self.musteri, self.on_okuma)

    # The method `hizli_yanit` answers: the idle poll's GET, the visitor's message's POST.
    hizli_yontem = "GET"

    def hizli_yanit(self, request) -> HttpResponse | None:
        """A view's answer to a plain `hizli_yontem` request before DRF's request cycle, or None to
        take the ordinary path (which then answers, errors included). Only for the hottest requests
        (the idle poll, the visitor's message); it must give exactly what the ordinary path would,
        `hizli_musteri` included. A `Response` is finalised as DRF's cycle finalises one
        (`hizli_calistir`)."""
        return None

    def hizli_musteri(self, request) -> Musteri | None:
        """The tenant of a request that passes, exactly as the ordinary path would pass it, every
        check before the view: no body (but a POST's, which `json_nesnesi` reads), an answer in
        JSON acceptable, the limit (already counted by the pre-read) allowing it, the key, the
        origin whitelist. None for anything else, which the ordinary path then handles (and
        refuses, with its own error)."""
        on = getattr(request, "on_okuma", None)
        if on is None or not on.limit.izin:
            return None
        meta = request.META
        if request.method != "POST" and (meta.get("CONTENT_LENGTH") not in (None, "", "0")
                                         or "HTTP_TRANSFER_ENCODING" in meta):
            return None
        if meta.get("HTTP_ACCEPT", "*/*") not in ("*/*", "application/json") or "format" in request.GET:
            return None  # DRF's content negotiation decides anything else
        musteri = widget_musterisi(request)  # WidgetAnahtarAuthentication's own look-up
        if musteri is None or on.musteri_id != musteri.pk:
            return None  # (the limit's key names the tenant: the pre-read counted it under this one)
        if not origin_izinli(musteri.izinli_originler, meta.get("HTTP_ORIGIN"), meta.get("HTTP_REFERER")):
            return None
        gunluk.baglam_ekle(musteri_id=musteri.pk)  # what the authentication would have noted
        return musteri

    def hizli_calistir(self, request, musteri: Musteri, islem: Callable[[Request], Response]) -> Response:
        """`islem(drf_request)` run as DRF's cycle runs a handler after `initial`, which the fast
        path's checks (`hizli_musteri`, the view's own) stood in for: on DRF's request, authenticated
        as the key's tenant, JSON accepted; an error (the service's 404, 409, 400) through
        `handle_exception`, the project's exception handler. `dispatch` finalises the answer."""
        istek = self.initialize_request(request)
        istek.accepted_renderer, istek.accepted_media_type = ZarfJSONRenderer(), ZarfJSONRenderer.media_type
        istek.user, istek.auth = WidgetIstemci(musteri=musteri), musteri  # as the authentication leaves them
        self.request = istek
        on_okuma.musteri_dogrulandi(request, musteri, self.on_okuma)
        try:
            return islem(istek)
        except Exception as exc:  # noqa: BLE001  (as APIView.dispatch)
            return self.handle_exception(exc)

    def dispatch(self, request, *args, **kwargs):
        try:
            if (request.method == self.hizli_yontem and WidgetThrottle in self.throttle_classes
                    and type(self).hizli_yanit is not WidgetAPIView.hizli_yanit):
                on_okuma.on_oku(request, self.on_okuma)
                self.args, self.kwargs = args, kwargs
                yanit = self.hizli_yanit(request)
                if yanit is not None:
                    self.headers = self.default_response_headers
                    self.response = self.finalize_response(self.request, yanit, *args, **kwargs)
                    return self.response
            return super().dispatch(request, *args, **kwargs)
        finally:
            on_okuma.bitir(request)

    @property
    def musteri(self):
        return self.request.auth

    @property
    def ziyaretci_token(self) -> str | None:
        return self.request.META.get(TOKEN_BASLIGI) or None

    def ziyaretci_id(self, *, token_denetle: bool = True) -> str:
        """Every widget call names its visitor: JSON body for POST, query string for GET (and HEAD).

        And may act for it only with its token when the visitor is bound (CONTRACT 2a): checked
        here, before the view reads or stores anything. `token_denetle=False` is for the two
        calls that prove identity otherwise: a signed customer-info and widget/init.
        """
        source = self.request.query_params if self.request.method in ("GET", "HEAD") else self.request.data
        return ziyaretci_dogrula(self.request, self.musteri, source, token_denetle=token_denetle)


def ziyaretci_dogrula(request, musteri, source, *, token_denetle: bool = True) -> str:
    """`WidgetAPIView.ziyaretci_id` for a parsed `source` (query string or body); raises the
    same errors."""
    value = source.get("ziyaretci_id") if hasattr(source, "get") else None
    ziyaretci_id = ziyaretci_id_dogrula(value)
    if token_denetle:
        ziyaretci_erisimi_dogrula(musteri=musteri, ziyaretci_id=ziyaretci_id,
                                  token=request.META.get(TOKEN_BASLIGI) or None)
    return ziyaretci_id


_JSON_TIPLERI = frozenset(f"application/json{ek}" for ek in (
    "", "; charset=utf-8", ";charset=utf-8", "; charset=UTF-8", ";charset=UTF-8"))


def json_nesnesi(request) -> dict | None:
    """The request's JSON object body, exactly as the ordinary path parses it (`JSONAyristirici`:
    DRF's JSONParser, UTF-8, no NaN nor Infinity), when it certainly parses it so and lets it in:
    `Content-Type` JSON in UTF-8 as written above (DRF's parser takes more; the rest is its to
    decide), a declared length within `DATA_UPLOAD_MAX_MEMORY_SIZE` (`TemelAPIView`'s 413), no
    transfer or content coding (415). None for anything else, an object or not. Read once per
    request (the message's pre-read reads it too, `chat.api.views._yenilenecek`)."""
    request = getattr(request, "_request", request)
    try:
        return request._json_nesnesi
    except AttributeError:
        pass
    nesne = None
    meta = request.META
    if (meta.get("CONTENT_TYPE") in _JSON_TIPLERI and "HTTP_TRANSFER_ENCODING" not in meta
            and meta.get("HTTP_CONTENT_ENCODING", "identity").strip().lower() in ("", "identity")
            and 0 < govde_uzunlugu(request) <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE):
        try:
            # As the parser: UTF-8 (the charset said), no NaN nor Infinity (DRF's STRICT_JSON).
            nesne = json.loads(request.body.decode("utf-8"),
                               parse_constant=strict_constant if JSONAyristirici.strict else None)
        except Exception:  # noqa: BLE001  (the parser answers it, on the ordinary path)
            nesne = None
        if type(nesne) is not dict:
            nesne = None
    request._json_nesnesi = nesne
    return nesne

