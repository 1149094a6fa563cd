"""The tenant-resolving base views: who the caller is and which tenants it may touch is decided
here once, not per endpoint (HOUSE-STYLE 5)."""
from functools import cached_property

from django.http import HttpResponse
from rest_framework.permissions import IsAuthenticated

from supportdesk.core import gunluk, varlik
from supportdesk.core.girdi import ziyaretci_id_dogrula
from supportdesk.core.throttling import WidgetThrottle, widget_limit_anahtari
from supportdesk.core.views import TemelAPIView

from ..kimlik import (
    OperatorJWTAuthentication,
    OriginIzinli,
    PanelCerezAuthentication,
    WidgetAnahtarAuthentication,
    adaylari_hazirla,
    widget_musterisi,
    widget_on_okuma,
)
from ..models import Musteri
from ..origin import origin_izinli
from ..selectors import kullanici_musteri_idleri
from ..ziyaretci import TOKEN_BASLIGI, ziyaretci_erisimi_dogrula


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
    # Views that read operators' presence (queue info, "operators online") get it in the
    # request's first Redis round trip, with the rate limit (kimlik.widget_on_okuma).
    varlik_gerekli = False

    def initial(self, request, *args, **kwargs):
        if WidgetThrottle in self.throttle_classes and not getattr(request, "on_okuma_denendi", False):
            self._varlik_jetonu = self._on_oku(request)
        super().initial(request, *args, **kwargs)
        jeton = getattr(self, "_varlik_jetonu", None)
        if jeton is not None and getattr(request, "varlik_musteri_id", None) != getattr(self.musteri, "pk", None):
            # Presence was read for the members of the tenant this process held for the key, and
            # the key turned out to be another's (it never is, keys are never reused): read anew.
            self._varlik_jetonu = None
            varlik.istek_okumasi_bitir(jeton)
        if self.varlik_gerekli:
            adaylari_hazirla(request, self.musteri)

    def _on_oku(self, request):
        # At most once per request (a fast path may have made it already: never count twice).
        request.on_okuma_denendi = True

        def ek(musteri) -> list[str]:
            anahtarlar = self.on_okuma_anahtarlari(request, musteri)
            self._on_okuma_musteri_id = musteri.pk if anahtarlar else None
            return anahtarlar

        return widget_on_okuma(request, varlik_gerekli=self.varlik_gerekli, ek_anahtarlar=ek)

    def on_okuma_anahtarlari(self, request, musteri) -> list[str]:
        """Raw Redis keys this view wants read in the request's first round trip, for the tenant
        this process holds for the key (not yet authenticated: `on_okuma_degerleri` gives the
        values only for the tenant the request turns out to be for)."""
        return []

    def on_okuma_degerleri(self, request, musteri) -> list | None:
        """The values of `on_okuma_anahtarlari`, when they were read for `musteri`."""
        on = getattr(request, "on_okuma", None)
        if on is None or getattr(self, "_on_okuma_musteri_id", None) != musteri.pk:
            return None
        return on.degerler[1:]

    def hizli_yanit(self, request) -> HttpResponse | None:
        """A view's answer to a plain `GET` before DRF's request cycle, or None to take the
        ordinary path (which then answers, errors included). Only for the hottest request (the
        idle poll); it must give exactly what the ordinary path would, `hizli_musteri` included."""
        return None

    def hizli_musteri(self, request) -> Musteri | None:
        """The tenant of a request that passes, exactly as the ordinary path would pass it, every
        check before the view: no body, an answer in JSON acceptable, the limit (already counted
        by `_on_oku`) allowing it, the key, the origin whitelist. None for anything else, which
        the ordinary path then handles (and refuses, with its own error)."""
        on = getattr(request, "on_okuma", None)
        if on is None or not on.izin:
            return None
        meta = request.META
        if meta.get("CONTENT_LENGTH") not in (None, "", "0") or "HTTP_TRANSFER_ENCODING" in meta:
            return None
        if meta.get("HTTP_ACCEPT", "*/*") not in ("*/*", "application/json") or "format" in request.GET:
            return None  # DRF's content negotiation decides anything else
        musteri = widget_musterisi(request)  # WidgetAnahtarAuthentication's own look-up
        if musteri is None or on.anahtar != widget_limit_anahtari(musteri.pk, WidgetThrottle().get_ident(request)):
            return None
        if not origin_izinli(musteri.izinli_originler, meta.get("HTTP_ORIGIN"), meta.get("HTTP_REFERER")):
            return None
        gunluk.baglam_ekle(musteri_id=musteri.pk)  # what the authentication would have noted
        return musteri

    def dispatch(self, request, *args, **kwargs):
        try:
            if (request.method == "GET" and WidgetThrottle in self.throttle_classes
                    and type(self).hizli_yanit is not WidgetAPIView.hizli_yanit):
                self._varlik_jetonu = self._on_oku(request)
                yanit = self.hizli_yanit(request)
                if yanit is not None:
                    self.headers = self.default_response_headers  # as DRF's finalize_response adds them
                    for ad, deger in self.headers.items():
                        yanit[ad] = deger
                    return yanit
            return super().dispatch(request, *args, **kwargs)
        finally:
            jeton = getattr(self, "_varlik_jetonu", None)
            if jeton is not None:
                self._varlik_jetonu = None
                varlik.istek_okumasi_bitir(jeton)

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
