"""Checks every app applies to what arrives in a request: ids, visitor ids, body sizes.

One definition each, so that "an id no row can have" and "a body too large to read" mean the
same thing on every endpoint.
"""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .exceptions import Bulunamadi, DosyaCokBuyuk, GecersizIstek

ID_MAX = 2**63 - 1  # the largest primary key (bigint)
ZIYARETCI_ID_MAX = 128
EMAIL_MAX = 254


def id_coz(value, *, mesaj: str | None = None) -> int:
    """An id from a path, a query string or a JSON body, as a positive bigint.

    Anything else (text, a boolean, zero, a number beyond 64 bits that no row can have and SQLite
    could not even bind) is "not found", like an id of another tenant: 404, never a 500.
    """
    if isinstance(value, bool):
        raise Bulunamadi(mesaj)
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise Bulunamadi(mesaj) from None
    if not 0 < value <= ID_MAX:
        raise Bulunamadi(mesaj)
    return value


def sorgu_tam_sayisi(value):
    """A query-string value for a strict integer field: ASCII digits become the integer, anything
    else stays as it is (the field then refuses it, 400). `str.isdigit` alone also accepts "²" and
    "٣", and `int()` refuses more than 4,300 digits: either would be a 500."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 4000:
        return int(value)
    return value


def saklanabilir_metin_mi(value: str) -> bool:
    """Text every store can hold: no NUL (PostgreSQL refuses it in text and jsonb) and no lone
    surrogate (a JSON body may carry the escape `\\ud800`: it has no UTF-8 form, so the driver fails
    on it in a text column, and jsonb refuses it as an escape; either was a 500). DRF's CharField
    refuses both; a body checked by hand asks this."""
    return "\x00" not in value and not any("\ud800" <= c <= "\udfff" for c in value)


def gecerli_id_mi(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= ID_MAX


# Visitor ids the service gives itself: a ticket opened by e-mail belongs to `eposta:<address>`
# (eposta.services). A site's widget or context call can never name one, or the sender's address
# alone (plus the public widget key) would open that person's tickets.
EPOSTA_ZIYARETCI_ONEKI = "eposta:"
AYRILMIS_ZIYARETCI_ONEKLERI = (EPOSTA_ZIYARETCI_ONEKI,)


def ziyaretci_id_dogrula(value) -> str:
    """A visitor id as a site may send it (widget, context, widget socket)."""
    if not isinstance(value, str) or not value.strip():
        raise GecersizIstek(alanlar={"ziyaretci_id": _("Zorunlu alan; metin olmalı.")})
    value = value.strip()
    if len(value) > ZIYARETCI_ID_MAX or not value.isprintable():
        raise GecersizIstek(alanlar={"ziyaretci_id": _("En çok %(sayi)s yazdırılabilir karakter.") % {"sayi": ZIYARETCI_ID_MAX}})
    if value.casefold().startswith(AYRILMIS_ZIYARETCI_ONEKLERI):
        raise GecersizIstek(alanlar={"ziyaretci_id": _("'eposta:' ile başlayan kimlikler e-posta kanalına ayrılmıştır.")})
    return value


def govde_uzunlugu(request) -> int:
    """The body's declared length (`Content-Length`), 0 when absent or unreadable."""
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


def govde_siniri(request, sinir: int | None = None, mesaj: str | None = None) -> None:
    """Refuse (413) a body declared larger than `sinir` bytes before a byte of it is read."""
    if govde_uzunlugu(request) > (settings.DATA_UPLOAD_MAX_MEMORY_SIZE if sinir is None else sinir):
        raise DosyaCokBuyuk(mesaj)


def en_cok_karakter(en_cok: int) -> str:
    return ngettext("En çok %(sayi)d karakter olabilir.", "En çok %(sayi)d karakter olabilir.", en_cok) % {"sayi": en_cok}


def metin_dogrula(deger, *, alan: str, en_cok: int, tek_satir: bool = False) -> str:
    """An optional text of a request (a visitor's name, a comment, a contact's field): None is "",
    anything but a string is a 400, trimmed, at most `en_cok` characters and never a NUL (PostgreSQL
    refuses it: a 500). `tek_satir`: a one-line value (a contact's name, company, e-mail), its
    whitespace runs made one space and any other unprintable character refused."""
    if deger is None:
        return ""
    if not isinstance(deger, str):
        raise GecersizIstek(alanlar={alan: _("Metin olmalı.")})
    deger = " ".join(deger.split()) if tek_satir else deger.strip()
    if len(deger) > en_cok or "\x00" in deger or (tek_satir and not deger.isprintable()):
        raise GecersizIstek(alanlar={alan: en_cok_karakter(en_cok)})
    return deger


def email_dogrula(deger, *, alan: str = "email") -> str:
    """An optional e-mail address of a request (chat start, a transcript, a contact): "" when
    absent, else a valid address, trimmed, or a 400 on `alan`."""
    email = metin_dogrula(deger, alan=alan, en_cok=EMAIL_MAX, tek_satir=True)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise GecersizIstek(alanlar={alan: _("Geçerli bir e-posta adresi olmalı.")}) from None
    return email
