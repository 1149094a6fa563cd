"""The tenant-resolving base views: who the caller is and which tenants it may touch is decided
here once, not per endpoint (HOUSE-STYLE 5)."""
from functools import cached_property

from rest_framework.permissions import IsAuthenticated

from supportdesk.core import varlik
from supportdesk.core.girdi import ziyaretci_id_dogrula
from supportdesk.core.throttling import WidgetThrottle
from supportdesk.core.views import TemelAPIView

from ..kimlik import (
    OperatorJWTAuthentication,
    OriginIzinli,
    PanelCerezAuthentication,
    WidgetAnahtarAuthentication,
    widget_on_okuma,
)
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
        if WidgetThrottle in self.throttle_classes:
            self._varlik_jetonu = widget_on_okuma(request, varlik_gerekli=self.varlik_gerekli)
        super().initial(request, *args, **kwargs)

    def dispatch(self, request, *args, **kwargs):
        try:
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
        """Every widget call names its visitor: JSON body for POST, query string for GET.

        And may act for it only with its token when the visitor is bound (CONTRACT 2a): checked
        here, before the view reads or stores anything. `token_denetle=False` is for the two
        calls that prove identity otherwise: a signed customer-info and widget/init.
        """
        source = self.request.query_params if self.request.method == "GET" else self.request.data
        value = source.get("ziyaretci_id") if hasattr(source, "get") else None
        ziyaretci_id = ziyaretci_id_dogrula(value)
        if token_denetle:
            ziyaretci_erisimi_dogrula(musteri=self.musteri, ziyaretci_id=ziyaretci_id, token=self.ziyaretci_token)
        return ziyaretci_id
