"""Request id for logs and 500 bodies; JSON errors for anything Django raises under /api/v1."""
import tempfile
import time
import uuid

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.wsgi import LimitedStream, WSGIRequest
from django.http import HttpResponse, JsonResponse
from django.utils.module_loading import import_string

from . import gunluk, mesajlar, metrikler


class RequestIdMiddleware:
    """The request's id (logs, `X-Request-ID`, a 500's body, the tasks it queues), and once it is
    answered its metrics (route name, status, duration) and, when `ISTEK_GUNLUGU` is on, its
    closing log line (CONTRACT 20)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Arrival time, taken before anything else runs: time-window checks (the signed
        # identity's +-300 s, spec 5.3) measure against it, not against the moment a view gets
        # round to it after authentication and queries.
        request.gelis_zamani = time.time()
        baslangic = time.perf_counter()
        incoming = request.META.get("HTTP_X_REQUEST_ID", "")
        rid = incoming if 0 < len(incoming) <= 64 and incoming.isprintable() else uuid.uuid4().hex
        tokenlar = gunluk.istek_baslat(rid)
        try:
            response = self.get_response(request)
            sure = time.perf_counter() - baslangic
            rota = metrikler.rota_adi(request)
            metrikler.istek_sayildi(request, response, sure, rota)
            if settings.ISTEK_GUNLUGU:
                gunluk.istek_kapandi(request, response, sure, rota)
        finally:
            gunluk.istek_bitir(tokenlar)
        response["X-Request-ID"] = rid
        return response


class AdresUzunlukSiniri:
    """A path and query string over `settings.ISTEK_ADRESI_SINIRI` characters is 414, in the
    envelope under the API (CONTRACT 1), before any view or query runs. The production command
    lifts gunicorn's own request-line limit (README) so that this, not gunicorn's HTML page, answers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        uzunluk = len(request.META.get("PATH_INFO", "")) + len(request.META.get("QUERY_STRING", ""))
        if uzunluk <= settings.ISTEK_ADRESI_SINIRI:
            return self.get_response(request)
        if request.path_info.startswith(settings.API_ONEKI):
            return JsonResponse({"basarili": False, "hata": {"kod": "GECERSIZ_ISTEK", "mesaj": str(mesajlar.ADRES_COK_UZUN)}},
                                status=414)
        return HttpResponse(str(mesajlar.ADRES_COK_UZUN), status=414, content_type="text/plain; charset=utf-8")


class ParcaliGovde:
    """A body sent with `Transfer-Encoding: chunked` has no Content-Length, and Django and DRF read
    a body only as long as Content-Length says: such a request reached the views as empty (a
    login "without e-mail", an upload "without a file"). Here the body is read first, at most
    `settings.PARCALI_GOVDE_SINIRI` + 1 bytes (into memory up to FILE_UPLOAD_MAX_MEMORY_SIZE, then a
    temporary file), and its length becomes the request's Content-Length; the views' own limits
    then answer a body that was too long (413) as for any other.

    Only where the server has already decoded the chunks: gunicorn (`wsgi.input_terminated`) and
    ASGI servers (Django's ASGI handler reads the whole body before the request is built). A WSGI
    server that hands over the raw connection (Django's development server) keeps its old
    behaviour.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        meta = request.META
        if "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower() and not meta.get("CONTENT_LENGTH"):
            self._oku(request)
        return self.get_response(request)

    @staticmethod
    def _oku(request) -> None:
        if isinstance(request, WSGIRequest):
            if not request.environ.get("wsgi.input_terminated"):
                return
            kaynak, sinir = request.environ["wsgi.input"], settings.PARCALI_GOVDE_SINIRI + 1
            dosya = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)
            boyut = 0
            while boyut < sinir:
                parca = kaynak.read(min(64 * 1024, sinir - boyut))
                if not parca:
                    break
                dosya.write(parca)
                boyut += len(parca)
            dosya.seek(0)
            request.environ["wsgi.input"] = dosya
            request._stream = LimitedStream(dosya, boyut)
        else:
            dosya = request._stream  # the whole body, already read by the ASGI handler
            boyut = dosya.seek(0, 2)
            dosya.seek(0)
        request.META["CONTENT_LENGTH"] = str(boyut)


class SayfaAraKatmanlari:
    """`settings.SAYFA_MIDDLEWARE` for every path but the API's (`settings.API_ONEKI`).

    The API's views need none of them: they authenticate per request (bearer token or widget
    key), keep no session and answer JSON; skipping them is a share of a hot API call. None of
    them has a `process_view` or `process_exception` hook, which a nested chain would not run.
    """

    def __init__(self, get_response):
        self.api = get_response
        zincir = get_response
        for yol in reversed(settings.SAYFA_MIDDLEWARE):
            katman = import_string(yol)(zincir)
            if any(hasattr(katman, k) for k in ("process_view", "process_exception", "process_template_response")):
                raise ImproperlyConfigured(f"{yol}: SAYFA_MIDDLEWARE yalnızca istek/yanıt katmanları alır.")
            zincir = katman
        self.sayfa = zincir

    def __call__(self, request):
        if request.path_info.startswith(settings.API_ONEKI):
            return self.api(request)
        return self.sayfa(request)
