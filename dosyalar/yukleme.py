"""Upload checks (CONTRACT 5): the type comes from the bytes, never from the name or the client's
Content-Type, and an oversized body is refused before it is read."""
import codecs
import re

import filetype
from django.core.files.uploadhandler import FileUploadHandler, StopUpload

EN_BUYUK_BOYUT = 10 * 1024 * 1024
# Multipart boundaries and the other form fields: a body this much over the limit may still hold
# a file within it; anything larger is refused from Content-Length alone.
MULTIPART_PAYI = 64 * 1024

RESIM_VE_PDF = {"image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"}
METIN = "text/plain"
_OKUMA_PARCASI = 64 * 1024
# Tab, LF, CR and form feed are ordinary in text files; every other C0/C1 control (and NUL)
# marks a binary or a disguised file.
_KONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
# Text that is not plain text: a script (`#!`) a shell would run, or markup a browser sniffs as
# HTML or XML/SVG (the WHATWG MIME Sniffing "HTML" signatures, plus `<svg`), checked after
# leading whitespace and a BOM. Such a file is refused like any other type outside the list.
_BETIK_YA_DA_ISARETLEME = re.compile(
    r"\A[\ufeff\t\n\x0c\r ]*(?:#!|<\?xml|<!--|<!doctype\s+html[\s>]"
    r"|<(?:html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|svg)[\s/>])",
    re.IGNORECASE,
)


class BoyutSiniri(FileUploadHandler):
    """First in the handler chain: counts file bytes as they stream and stops the upload at the
    limit, so a body without an honest Content-Length never reaches memory or disk in full."""

    def __init__(self, request=None, *, sinir: int | None = None):
        super().__init__(request)
        self.sinir = EN_BUYUK_BOYUT if sinir is None else sinir
        self.asildi = False
        self._okunan = 0

    def new_file(self, *args, **kwargs):
        self._okunan = 0
        super().new_file(*args, **kwargs)

    def receive_data_chunk(self, raw_data, start):
        self._okunan += len(raw_data)
        if self._okunan > self.sinir:
            self.asildi = True
            # connection_reset=False: Django drains the rest of the body without keeping it.
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        return None


def mime_tipi_bul(dosya) -> str | None:
    """The allowed MIME type of an uploaded file by its content, or None when not allowed."""
    dosya.seek(0)
    bas = dosya.read(8192)
    dosya.seek(0)
    tur = filetype.guess(bas)
    if tur is not None:
        return tur.mime if tur.mime in RESIM_VE_PDF else None
    return METIN if _duz_metin_mi(dosya) else None


def _duz_metin_mi(dosya) -> bool:
    """Valid UTF-8 throughout with no NUL or control bytes, not a script or markup, read in
    chunks (never whole)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    dosya.seek(0)
    try:
        ilk = True
        while parca := dosya.read(_OKUMA_PARCASI):
            metin = decoder.decode(parca)
            if not _temiz(metin) or (ilk and _BETIK_YA_DA_ISARETLEME.match(metin)):
                return False
            ilk = False
        return _temiz(decoder.decode(b"", final=True))
    except UnicodeDecodeError:
        return False
    finally:
        dosya.seek(0)


def _temiz(metin: str) -> bool:
    return _KONTROL.search(metin) is None
