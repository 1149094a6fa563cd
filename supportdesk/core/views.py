"""Base views: scoping and credentials are decided here once, not per endpoint."""
from collections.abc import Mapping

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import MethodNotAllowed, NotAcceptable, ParseError
from rest_framework.metadata import BaseMetadata
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from supportdesk.celery import app as celery_app

from . import arka_plan, mesajlar
from .exceptions import Bulunamadi, DesteklenmeyenIcerikTipi, GecersizIstek, hata_yaniti
from .girdi import govde_siniri
from .responses import basarili
from .schema import ZarfAutoSchema
from .throttling import acik_gecis_sayisi

SIKISTIRILMIS_GOVDE = gettext_lazy(
    "Sıkıştırılmış istek gövdesi (Content-Encoding) desteklenmiyor; gövdeyi sıkıştırmadan gönderin.")


class ZarfMetadata(BaseMetadata):
    """A plain `OPTIONS` (not a CORS preflight, which the CORS middleware answers) gets the
    success envelope too; the methods are in the `Allow` header."""

    def determine_metadata(self, request, view):
        return {"basarili": True, "data": {}}


class JSONAyristirici(JSONParser):
    """JSON bodies; one nested deeper than the parser's recursion limit is malformed JSON (400),
    not a RecursionError (500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(mesajlar.GECERSIZ_JSON) from None


class ZarfJSONRenderer(JSONRenderer):
    """JSON answers that cannot fail on a lone surrogate.

    A JSON body may carry the escape `\\ud800`, and a validation message can echo the value back
    (`"\\ud800" geçerli bir seçim değil`). Such a character has no UTF-8 form; that one answer is
    written in ASCII-only JSON (every non-ASCII character as its `\\u` escape, the same text to a
    JSON reader) instead of failing with a 500.
    """

    def render(self, data, accepted_media_type=None, renderer_context=None):
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return _AsciiJSONRenderer().render(data, accepted_media_type, renderer_context)


class _AsciiJSONRenderer(JSONRenderer):
    ensure_ascii = True


class ZarfIcerikSecimi(DefaultContentNegotiation):
    """`?format=xml` asks for a format the API does not give, like `Accept: application/xml`:
    406 `KABUL_EDILEMEZ` for both (DRF answers an unknown `format` with a 404, as if the address
    did not exist)."""

    def filter_renderers(self, renderers, format):
        secilen = [r for r in renderers if r.format == format]
        if not secilen:
            raise NotAcceptable(available_renderers=renderers)
        return secilen


class TemelAPIView(APIView):
    """What every /api/v1 endpoint shares: the envelope for `OPTIONS`, and 405 before credentials."""

    metadata_class = ZarfMetadata
    content_negotiation_class = ZarfIcerikSecimi
    parser_classes = [JSONAyristirici]
    renderer_classes = [ZarfJSONRenderer]
    schema = ZarfAutoSchema()

    def perform_authentication(self, request):
        # A method the endpoint does not have is 405 whoever asks (RFC 9110 15.5.6): the
        # route's methods are public, and a client without credentials learns its real mistake.
        method = request.method.lower()
        if method not in self.http_method_names or not hasattr(self, method):
            raise MethodNotAllowed(request.method)
        # DRF's JSON parser reads the stream itself, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE
        # (which guards only `request.body`): refuse an oversized JSON body before anything, the
        # login throttle included, parses it. Uploads (multipart) have their own limits.
        if (request.content_type or "").startswith("application/json"):
            govde_siniri(request, mesaj=mesajlar.GOVDE_COK_BUYUK)
        super().perform_authentication(request)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        # Bodies are read as sent: a gzip body would otherwise be "invalid JSON" or, worse, a file
        # of compressed bytes. RFC 9110 15.5.16: an unsupported content coding is a 415.
        kodlama = request.META.get("HTTP_CONTENT_ENCODING", "").strip().lower()
        if kodlama not in ("", "identity") and request.method in ("POST", "PUT", "PATCH"):
            raise DesteklenmeyenIcerikTipi(SIKISTIRILMIS_GOVDE, headers={"Accept-Encoding": "identity"})
        # Every JSON body of this API is an object. `null`, a list or a scalar is refused here,
        # once, in Turkish (DRF's serializers would say "No data provided" or worse). Only JSON is
        # parsed this early: a multipart upload is left to its view, which checks the size first.
        if request.method in ("POST", "PUT", "PATCH") and (request.content_type or "").startswith("application/json"):
            if not isinstance(request.data, Mapping):
                raise GecersizIstek(alanlar={"genel": mesajlar.GOVDE_NESNE_OLMALI})


class AcikAPIView(TemelAPIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]


class SaglikView(AcikAPIView):
    @extend_schema(summary=gettext_lazy("Sağlık: veritabanı ve kuyruk erişilebilirliği"), responses={200: dict, 503: dict})
    def get(self, request):
        durum = {"veritabani": "ok" if _veritabani_erisilebilir() else "hata", "kuyruk": "ok"}
        if settings.CELERY_TASK_ALWAYS_EAGER:
            durum["kuyruk"] = "eager"
        else:
            durum["kuyruk"] = "ok" if _broker_erisilebilir() else "hata"
        # Rate-limit checks let through because the limiter's store was unreachable (this process).
        durum["hiz_siniri_acik_gecis"] = acik_gecis_sayisi()
        # The cache is not needed to serve (every user of it falls back), so it is reported, not a 503.
        durum["onbellek"] = "ok" if _onbellek_erisilebilir() else "erisilemiyor"
        if "hata" in durum.values():
            return hata_yaniti(503, "SERVIS_KULLANILAMIYOR", mesajlar.SERVIS_KULLANILAMIYOR, alanlar=durum)
        return basarili(durum)


class CanliView(AcikAPIView):
    """Liveness (CONTRACT 20): the process serves. Nothing else is asked, so a database or Redis
    outage never makes an orchestrator restart healthy processes."""

    @extend_schema(summary=gettext_lazy("Canlılık: süreç yanıt veriyor (bağımlılık denetlenmez)"), responses={200: dict})
    def get(self, request):
        return basarili({"durum": "ok"})


class HazirView(AcikAPIView):
    """Readiness (CONTRACT 20): the database answers and every migration of this code is applied.
    Redis is reported, not required: every user of it falls back (rate limits fail open, caches
    read the database), so the service degrades without it and keeps taking traffic.

    Background work is reported too, for alerting, never as a 503 (the web tier serves without it):
    `kuyruk` the broker (`ok`, `erisilemiyor`; `yerel` without one, the web process's runner does
    the work), `isci` whether a Celery worker was seen in the last minute (`ok`, `gorulmedi`,
    `bilinmiyor` when the broker does not answer, `yerel`) and `isciler` how many."""

    @extend_schema(summary=gettext_lazy("Hazır olma: veritabanı ve göçler; önbellek, kuyruk ve işçiler yalnızca bildirilir"),
                   responses={200: dict, 503: dict})
    def get(self, request):
        durum = {"veritabani": "hata", "gocler": "bilinmiyor"}
        if _veritabani_erisilebilir():
            durum["veritabani"] = "ok"
            try:
                durum["gocler"] = "ok" if _goc_plani_bos() else "eksik"
            except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
                durum["veritabani"] = "hata"
        durum["onbellek"] = "ok" if _onbellek_erisilebilir() else "erisilemiyor"
        durum.update(_arka_plan_durumu())
        if durum["veritabani"] != "ok" or durum["gocler"] != "ok":
            return hata_yaniti(503, "SERVIS_KULLANILAMIYOR", mesajlar.SERVIS_KULLANILAMIYOR, alanlar=durum)
        return basarili(durum)


def _veritabani_erisilebilir() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
        return False
    return True


def _goc_plani_bos() -> bool:
    """No migration of the running code is left unapplied on the database (about 5 ms once the
    migration modules are imported: cheap enough for a probe every few seconds)."""
    executor = MigrationExecutor(connection)
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


def _onbellek_erisilebilir() -> bool:
    try:
        cache.get("saglik:yoklama")
        return True
    except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
        return False


def _arka_plan_durumu() -> dict:
    istemci = arka_plan.broker_redis()
    if istemci is None:
        return {"kuyruk": "yerel", "isci": "yerel", "isciler": None}
    try:
        isciler = arka_plan.canli_isciler(istemci)  # one round trip: the broker answers, and who was seen
    except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
        return {"kuyruk": "erisilemiyor", "isci": "bilinmiyor", "isciler": None}
    return {"kuyruk": "ok", "isci": "ok" if isciler else "gorulmedi", "isciler": len(isciler)}


def _broker_erisilebilir() -> bool:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True
    except Exception:  # noqa: BLE001  (health reports any failure, it never raises)
        return False


class BilinmeyenAdresView(AcikAPIView):
    """Catch-all under /api/v1: unknown paths get the envelope, never an HTML page.

    A path that differs from a route only by a trailing slash (`/auth/login/` for `/auth/login`,
    `/schema` for `/schema/`) is served by that route directly: a redirect would lose a POST
    body, and clients written for either habit keep working.
    """

    schema = None

    def dispatch(self, request, *args, **kwargs):
        esdeger = _esdeger_rota(request.path_info)
        if esdeger is not None:
            return esdeger.func(request, *esdeger.args, **esdeger.kwargs)
        self.args, self.kwargs, self.request = args, kwargs, self.initialize_request(request, *args, **kwargs)
        self.headers = self.default_response_headers
        response = self.handle_exception(Bulunamadi(_("Bu adreste bir API uç noktası yok.")))
        self.response = self.finalize_response(self.request, response, *args, **kwargs)
        return self.response


def _esdeger_rota(path: str):
    """The /api/v1 route matching `path` with one trailing slash removed or added, if any."""
    aday = path[:-1] if path.endswith("/") else path + "/"
    if not aday.startswith("/api/v1/") or aday.endswith("//"):
        return None
    try:
        match = resolve(aday)
    except Resolver404:
        return None
    if getattr(match.func, "view_class", None) is BilinmeyenAdresView:
        return None
    return match
