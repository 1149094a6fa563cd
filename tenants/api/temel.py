"""The tenant-resolving base views: who the caller is and which tenants it may touch is decided
here once, not per endpoint (HOUSE-STYLE 5)."""
from functools import cached_property

from rest_framework.permissions import IsAuthenticated

from supportdesk.core.girdi import ziyaretci_id_dogrula
from supportdesk.core.throttling import WidgetThrottle
from supportdesk.core.views import TemelAPIView

from ..kimlik import OperatorJWTAuthentication, OriginIzinli, PanelCerezAuthentication, WidgetAnahtarAuthentication
from ..selectors import kullanici_musteri_idleri


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

    @property
    def musteri(self):
        return self.request.auth

    def ziyaretci_id(self) -> str:
        """Every widget call names its visitor: JSON body for POST, query string for GET."""
        source = self.request.query_params if self.request.method == "GET" else self.request.data
        value = source.get("ziyaretci_id") if hasattr(source, "get") else None
        return ziyaretci_id_dogrula(value)
