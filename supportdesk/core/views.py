"""Base views: scoping and credentials are decided here once, not per endpoint."""
from functools import cached_property

from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.views import APIView

from . import mesajlar
from .authentication import OperatorJWTAuthentication, WidgetAnahtarAuthentication
from .exceptions import Bulunamadi, GecersizIstek, hata_yaniti
from .permissions import OriginIzinli
from .responses import basarili
from .throttling import WidgetThrottle

ZIYARETCI_ID_MAX = 128


class OperatorAPIView(APIView):
    """Bearer-token endpoints. `self.musteri_idleri` is the caller's tenants, for query scoping."""

    authentication_classes = [OperatorJWTAuthentication]
    permission_classes = [IsAuthenticated]

    @cached_property
    def musteri_idleri(self) -> list[int]:
        from tenants.selectors import kullanici_musteri_idleri

        return kullanici_musteri_idleri(kullanici=self.request.user)


class WidgetAPIView(APIView):
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


def ziyaretci_id_dogrula(value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise GecersizIstek(alanlar={"ziyaretci_id": "Zorunlu alan; metin olmalı."})
    value = value.strip()
    if len(value) > ZIYARETCI_ID_MAX or not value.isprintable():
        raise GecersizIstek(alanlar={"ziyaretci_id": f"En çok {ZIYARETCI_ID_MAX} yazdırılabilir karakter."})
    return value


class AcikAPIView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]


class SaglikView(AcikAPIView):
    @extend_schema(summary="Sağlık: veritabanı ve kuyruk erişilebilirliği", responses={200: dict, 503: dict})
    def get(self, request):
        from django.conf import settings

        durum = {"veritabani": "ok", "kuyruk": "ok"}
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
            durum["veritabani"] = "hata"
        if settings.CELERY_TASK_ALWAYS_EAGER:
            durum["kuyruk"] = "eager"
        else:
            durum["kuyruk"] = "ok" if _broker_erisilebilir() else "hata"
        if "hata" in durum.values():
            return hata_yaniti(503, "SERVIS_KULLANILAMIYOR", mesajlar.SERVIS_KULLANILAMIYOR, alanlar=durum)
        return basarili(durum)


def _broker_erisilebilir() -> bool:
    from supportdesk.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True
    except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
        return False


class BilinmeyenAdresView(AcikAPIView):
    """Catch-all under /api/v1: unknown paths get the envelope, never an HTML page."""

    schema = None

    def dispatch(self, request, *args, **kwargs):
        self.args, self.kwargs, self.request = args, kwargs, self.initialize_request(request, *args, **kwargs)
        self.headers = self.default_response_headers
        response = self.handle_exception(Bulunamadi("Bu adreste bir API uç noktası yok."))
        self.response = self.finalize_response(self.request, response, *args, **kwargs)
        return self.response
