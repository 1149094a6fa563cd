"""One exception hierarchy and one DRF exception handler producing the contract's envelope.

Views and services raise `ApiHatasi` subclasses (or DRF's own exceptions); nobody builds an
error body by hand. Every error under /api/v1 answers
``{"basarili": false, "hata": {"kod", "mesaj", ["alanlar"]}}`` (CONTRACT 1).
"""
import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DataError
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions as drf_exc
from rest_framework import status
from rest_framework.response import Response

from . import hata_raporu, mesajlar
from .gunluk import current_request_id

logger = logging.getLogger("supportdesk.api")

# NUL (U+0000) cannot be stored in PostgreSQL text: such a value is refused, on every database alike.
NUL_KARAKTERI = _("Metinler NUL (U+0000) karakteri içeremez.")
GECERSIZ_MULTIPART = _("İstek gövdesi geçerli bir çok parçalı form (multipart/form-data) değil.")


class ApiHatasi(drf_exc.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    kod = "GECERSIZ_ISTEK"
    mesaj = mesajlar.GECERSIZ_ISTEK

    def __init__(self, mesaj: "str | Promise | None" = None, *, alanlar: dict | None = None,
                 headers: dict | None = None):
        # Worded now, in the language of the request that raises it (CONTRACT 19): whoever reads
        # `mesaj` or `alanlar` (the envelope, a portal page) gets plain text.
        self.mesaj = metin(mesaj or self.mesaj)
        self.alanlar = metin(alanlar) if alanlar else alanlar
        self.headers = headers or {}
        super().__init__(detail=self.mesaj, code=self.kod)


class GecersizIstek(ApiHatasi):
    pass


class KimlikGerekli(ApiHatasi):
    status_code, kod, mesaj = 401, "KIMLIK_GEREKLI", mesajlar.KIMLIK_GEREKLI


class GecersizToken(ApiHatasi):
    status_code, kod, mesaj = 401, "GECERSIZ_TOKEN", mesajlar.GECERSIZ_TOKEN


class GecersizApiAnahtari(ApiHatasi):
    status_code, kod, mesaj = 401, "GECERSIZ_API_ANAHTARI", mesajlar.GECERSIZ_API_ANAHTARI


class GecersizGiris(ApiHatasi):
    status_code, kod, mesaj = 401, "GECERSIZ_GIRIS", mesajlar.GECERSIZ_GIRIS


class GecersizImza(ApiHatasi):
    status_code, kod, mesaj = 401, "GECERSIZ_IMZA", mesajlar.GECERSIZ_IMZA


class ImzaGerekli(ApiHatasi):
    status_code, kod, mesaj = 401, "IMZA_GEREKLI", mesajlar.IMZA_GEREKLI


class OriginIzinsiz(ApiHatasi):
    status_code, kod, mesaj = 403, "ORIGIN_IZINSIZ", mesajlar.ORIGIN_IZINSIZ


class Yetkisiz(ApiHatasi):
    status_code, kod, mesaj = 403, "YETKISIZ", mesajlar.YETKISIZ


class Bulunamadi(ApiHatasi):
    status_code, kod, mesaj = 404, "BULUNAMADI", mesajlar.BULUNAMADI


class DurumCakismasi(ApiHatasi):
    status_code, kod, mesaj = 409, "DURUM_CAKISMASI", mesajlar.DURUM_CAKISMASI


class ChatLimitiDolu(ApiHatasi):
    status_code, kod, mesaj = 409, "CHAT_LIMITI_DOLU", mesajlar.CHAT_LIMITI_DOLU


class ZatenTicketaDonustu(ApiHatasi):
    """CONTRACT 24: a chat becomes one ticket; a second conversion names the conflict itself."""
    status_code, kod, mesaj = 409, "ZATEN_TICKETA_DONUSTU", mesajlar.ZATEN_TICKETA_DONUSTU


class DosyaCokBuyuk(ApiHatasi):
    status_code, kod, mesaj = 413, "DOSYA_COK_BUYUK", mesajlar.DOSYA_COK_BUYUK


class DesteklenmeyenDosya(ApiHatasi):
    status_code, kod, mesaj = 415, "DESTEKLENMEYEN_DOSYA", mesajlar.DESTEKLENMEYEN_DOSYA


class DesteklenmeyenIcerikTipi(ApiHatasi):
    """A body this API does not read: not JSON where JSON is expected, or content-coded (gzip)."""

    status_code, kod, mesaj = 415, "DESTEKLENMEYEN_ICERIK_TIPI", mesajlar.DESTEKLENMEYEN_ICERIK_TIPI


class LimitAsildi(ApiHatasi):
    status_code, kod, mesaj = 429, "LIMIT_ASILDI", mesajlar.LIMIT_ASILDI

    def __init__(self, mesaj: "str | Promise | None" = None, *, retry_after: float | None = None):
        headers = {"Retry-After": str(max(1, int(retry_after)))} if retry_after is not None else None
        super().__init__(mesaj, headers=headers)


class SunucuHatasi(ApiHatasi):
    status_code, kod, mesaj = 500, "SUNUCU_HATASI", mesajlar.SUNUCU_HATASI


def _alanlar(detail, prefix: str = "") -> dict:
    """Flatten DRF's nested validation detail into {"field.sub": "first message"}."""
    out: dict[str, str] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors":
                name = prefix or "genel"
            out.update(_alanlar(value, name))
    elif isinstance(detail, list):
        if detail and all(not isinstance(d, (dict, list)) for d in detail):
            out[prefix or "genel"] = " ".join(str(d) for d in detail)
        else:
            for i, value in enumerate(detail):
                out.update(_alanlar(value, f"{prefix}.{i}" if prefix else str(i)))
    else:
        out[prefix or "genel"] = str(detail)
    return out


def metin(deger):
    """A message as text in the active language: lazy translations (`gettext_lazy`) are evaluated
    here, inside the request, so the envelope speaks the request's language (CONTRACT 19)."""
    if isinstance(deger, Promise):
        return str(deger)
    if isinstance(deger, dict):
        return {k: metin(v) for k, v in deger.items()}
    if isinstance(deger, (list, tuple)):
        return [metin(v) for v in deger]
    return deger


def hata_yaniti(status_code: int, kod: str, mesaj: str, *, alanlar=None, headers=None) -> Response:
    hata = {"kod": kod, "mesaj": metin(mesaj)}
    if alanlar:
        hata["alanlar"] = metin(alanlar)
    if status_code >= 500:
        hata["istek_id"] = current_request_id()
    return Response({"basarili": False, "hata": hata}, status=status_code, headers=headers)


_DRF_KODLARI = {
    drf_exc.NotAuthenticated: (401, "KIMLIK_GEREKLI", mesajlar.KIMLIK_GEREKLI),
    drf_exc.AuthenticationFailed: (401, "GECERSIZ_TOKEN", mesajlar.GECERSIZ_TOKEN),
    drf_exc.PermissionDenied: (403, "YETKISIZ", mesajlar.YETKISIZ),
    drf_exc.NotFound: (404, "BULUNAMADI", mesajlar.BULUNAMADI),
    drf_exc.MethodNotAllowed: (405, "YONTEM_DESTEKLENMIYOR", mesajlar.YONTEM_DESTEKLENMIYOR),
    drf_exc.NotAcceptable: (406, "KABUL_EDILEMEZ", mesajlar.KABUL_EDILEMEZ),
    drf_exc.UnsupportedMediaType: (415, "DESTEKLENMEYEN_ICERIK_TIPI", mesajlar.DESTEKLENMEYEN_ICERIK_TIPI),
    drf_exc.ParseError: (400, "GECERSIZ_ISTEK", mesajlar.GECERSIZ_JSON),
    drf_exc.ValidationError: (400, "GECERSIZ_ISTEK", mesajlar.GECERSIZ_ISTEK),
}


def _nul_karakteri(exc) -> bool:
    """PostgreSQL's refusal of a NUL character: in a text value (psycopg refuses it before sending)
    or as `\\u0000` in jsonb (SQLSTATE 22P05). Only a client can put one in a request."""
    if not isinstance(exc, DataError):
        return False
    return "NUL (0x00)" in str(exc) or getattr(exc.__cause__, "sqlstate", None) == "22P05"


def exception_handler(exc, context):
    if _nul_karakteri(exc):
        # The last line of defence, for a value no validation looked at: the request is wrong
        # (400), not the server (500). Logged, so that the missing check gets written.
        logger.warning("NUL karakterli girdi veritabanına ulaştı (istek %s): %s", current_request_id(), exc)
        exc = GecersizIstek(alanlar={"genel": NUL_KARAKTERI})
    if isinstance(exc, Http404):
        exc = Bulunamadi()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = Yetkisiz()
    elif isinstance(exc, RequestDataTooBig):
        exc = DosyaCokBuyuk()

    if isinstance(exc, ApiHatasi):
        headers = dict(exc.headers)
        if exc.status_code == 401 and "WWW-Authenticate" not in headers:
            # A 401 names the scheme the endpoint expects (RFC 9110 15.5.2); login has none.
            view, request = context.get("view"), context.get("request")
            sema = view.get_authenticate_header(request) if view is not None and request is not None else None
            if sema:
                headers["WWW-Authenticate"] = sema
        return hata_yaniti(exc.status_code, exc.kod, exc.mesaj, alanlar=exc.alanlar, headers=headers)

    if isinstance(exc, drf_exc.Throttled):
        wait = int(exc.wait) + 1 if exc.wait is not None else 60
        return hata_yaniti(429, "LIMIT_ASILDI", mesajlar.LIMIT_ASILDI, headers={"Retry-After": str(wait)})

    if isinstance(exc, drf_exc.ParseError) and str(exc.detail).startswith("Multipart form parse error"):
        # A broken upload form is not "invalid JSON".
        return hata_yaniti(400, "GECERSIZ_ISTEK", GECERSIZ_MULTIPART)

    for cls, (code, kod, mesaj) in _DRF_KODLARI.items():
        if isinstance(exc, cls):
            headers = {}
            if isinstance(exc, (drf_exc.NotAuthenticated, drf_exc.AuthenticationFailed)):
                headers["WWW-Authenticate"] = 'Bearer realm="api"'
            alanlar = _alanlar(exc.detail) if isinstance(exc, drf_exc.ValidationError) else None
            return hata_yaniti(code, kod, mesaj, alanlar=alanlar, headers=headers)

    if isinstance(exc, drf_exc.APIException):
        return hata_yaniti(exc.status_code, "GECERSIZ_ISTEK", str(exc.detail))

    logger.exception("Beklenmeyen hata (istek %s)", current_request_id())
    return hata_yaniti(500, "SUNUCU_HATASI", hata_raporu.sunucu_hatasi_mesaji())
