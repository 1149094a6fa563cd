"""The widget's look of a tenant, set by its owners in the portal (CONTRACT 13): colour, logo,
greeting, launcher position. `widget/init` answers them; the widget applies them.

Colour: a `#RRGGBB` that white text stays readable on (WCAG 2.x contrast ≥ 4.5:1, the AA level for
normal text), since the widget writes white on it. Logo: PNG, JPEG or WebP by content, or SVG
rewritten through an element and attribute allow-list (no script, event handler, foreign object
or link survives); at most 1 MB; stored under a random name.
"""
import re
import secrets
from xml.etree import ElementTree

import filetype
import nh3
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from supportdesk.core.exceptions import DesteklenmeyenDosya, DosyaCokBuyuk, GecersizIstek

from .models import Musteri

LOGO_EN_BUYUK = 1024 * 1024
EN_AZ_KONTRAST = 4.5
KARSILAMA_MAX = 200
KONUMLAR = ("sag", "sol")
RENK = re.compile(r"^#[0-9A-Fa-f]{6}$")
# The widget's greeting when the tenant sets none (static/widget/widget.js, `M.hosgeldinAlt`; a test
# keeps them in step): the portal form's placeholder. The preview is the widget itself (issue 39).
KARSILAMA_VARSAYILANI = gettext_noop("Bir mesaj yazın, ekibimiz en kısa sürede yanıtlasın.")
LOGO_TIPLERI = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}
_SVG_BASI = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<svg[\s>]",
                       re.IGNORECASE | re.DOTALL)
SVG_ETIKETLERI = {
    "svg", "g", "path", "circle", "ellipse", "rect", "line", "polyline", "polygon", "defs", "linearGradient",
    "radialGradient", "stop", "title", "desc", "text", "tspan", "clipPath", "mask", "symbol",
}
SVG_OZNITELIKLERI = {"*": {
    "id", "class", "fill", "stroke", "stroke-width", "transform", "opacity", "fill-opacity", "stroke-opacity",
    "fill-rule", "clip-rule", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "d", "cx", "cy", "r", "rx",
    "ry", "x", "y", "x1", "x2", "y1", "y2", "width", "height", "points", "viewBox", "xmlns", "offset", "stop-color",
    "stop-opacity", "gradientUnits", "gradientTransform", "clip-path", "mask", "font-size", "font-family",
    "font-weight", "text-anchor", "preserveAspectRatio", "version",
}}
KONTRAST_MESAJI = gettext_lazy("Bu renk üzerinde beyaz yazı okunmuyor (kontrast %(oran).2f:1; en az 4.5:1 gerekli). "
                               "Daha koyu bir ton seçin.")


def _kanal(deger: int) -> float:
    c = deger / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def beyaz_kontrasti(renk: str) -> float:
    """WCAG 2.x contrast ratio of white text on `renk` (`#RRGGBB`)."""
    r, g, b = (int(renk[i:i + 2], 16) for i in (1, 3, 5))
    parlaklik = 0.2126 * _kanal(r) + 0.7152 * _kanal(g) + 0.0722 * _kanal(b)
    return 1.05 / (parlaklik + 0.05)


def renk_dogrula(renk) -> str:
    if not isinstance(renk, str) or not RENK.match(renk.strip()):
        raise GecersizIstek(alanlar={"renk_primary": gettext("Renk #RRGGBB biçiminde olmalı (ör. #1D4ED8).")})
    renk = renk.strip().upper()
    oran = beyaz_kontrasti(renk)
    if oran < EN_AZ_KONTRAST:
        raise GecersizIstek(alanlar={"renk_primary": KONTRAST_MESAJI % {"oran": oran}})
    return renk


@transaction.atomic
def musteri_gorunum_guncelle(*, musteri: Musteri, renk_primary: str, karsilama_metni: str, baslatici_konum: str) -> Musteri:
    renk_primary = renk_dogrula(renk_primary)
    karsilama_metni = (karsilama_metni or "").strip()
    if len(karsilama_metni) > KARSILAMA_MAX:
        raise GecersizIstek(alanlar={"karsilama_metni": gettext("En çok %(sayi)s karakter.") % {"sayi": KARSILAMA_MAX}})
    if baslatici_konum not in KONUMLAR:
        raise GecersizIstek(alanlar={"baslatici_konum": gettext("Sağ alt ya da sol alt olmalı.")})
    musteri.renk_primary, musteri.karsilama_metni, musteri.baslatici_konum = renk_primary, karsilama_metni, baslatici_konum
    # save(), not update(): the widget-key cache is dropped by the save signal (tenants.musteri_onbellegi).
    musteri.save(update_fields=["renk_primary", "karsilama_metni", "baslatici_konum"])
    return musteri


def _xml_mi(metin: str) -> bool:
    # Sanitized text (no comments, no DOCTYPE, so no entity can be declared; expat resolves no
    # external ones): refused outright if any `<!` is left, then parsed.
    if "<!" in metin:
        return False
    try:
        ElementTree.fromstring(metin)  # noqa: S314  (see above: nothing to expand)
    except ElementTree.ParseError:
        return False
    return True


def _logo_icerigi(dosya) -> tuple[bytes, str]:
    """The bytes to store and their extension, or the contract's 413/415 error."""
    if dosya.size is None or dosya.size > LOGO_EN_BUYUK:
        raise DosyaCokBuyuk(gettext("Logo en çok 1 MB olabilir."))
    veri = dosya.read(LOGO_EN_BUYUK + 1)
    if not veri:
        raise GecersizIstek(alanlar={"logo": gettext("Boş dosya yüklenemez.")})
    tur = filetype.guess(veri[:8192])
    if tur is not None and tur.mime in LOGO_TIPLERI:
        return veri, LOGO_TIPLERI[tur.mime]
    if tur is None and _SVG_BASI.match(veri):
        try:
            metin = veri.decode("utf-8")
        except UnicodeDecodeError:
            raise DesteklenmeyenDosya(gettext("SVG UTF-8 olmalı.")) from None
        temiz = nh3.clean(metin, tags=SVG_ETIKETLERI, attributes=SVG_OZNITELIKLERI, url_schemes=set(),
                          strip_comments=True, link_rel=None)
        # nh3 writes HTML: a no-break space comes out as `&nbsp;`, which XML does not define, and
        # an SVG file is read as XML (the logo would not show). The stored file must parse.
        temiz = temiz.replace("&nbsp;", "&#160;")
        if "<svg" in temiz and _xml_mi(temiz):
            return temiz.encode("utf-8"), "svg"
    raise DesteklenmeyenDosya(gettext("Logo PNG, JPEG, WebP ya da SVG olmalı."))


@transaction.atomic
def musteri_logo_yukle(*, musteri: Musteri, dosya) -> Musteri:
    veri, uzanti = _logo_icerigi(dosya)
    eski = musteri.logo.name
    musteri.logo.save(f"{secrets.token_urlsafe(18)}.{uzanti}", ContentFile(veri), save=False)
    musteri.save(update_fields=["logo"])
    if eski:
        depo = musteri.logo.storage
        transaction.on_commit(lambda: depo.delete(eski))
    return musteri


@transaction.atomic
def musteri_logo_kaldir(*, musteri: Musteri) -> Musteri:
    eski = musteri.logo.name
    musteri.logo, musteri.logo_url = "", ""
    musteri.save(update_fields=["logo", "logo_url"])
    if eski:
        depo = musteri.logo.storage
        transaction.on_commit(lambda: depo.delete(eski))
    return musteri


def avatar_harfi(firma_adi: str) -> str:
    """The letter the widget's avatar shows without a logo: `charAt(0).toLocaleUpperCase("tr")`."""
    harf = (firma_adi or "?").strip()[:1] or "?"
    return {"i": "İ", "ı": "I"}.get(harf, harf.upper())  # ceviri: yok


def logo_adresi(musteri: Musteri) -> str:
    """The logo's URL (path or absolute, as the storage gives it), or ''."""
    return musteri.logo.url if musteri.logo else musteri.logo_url


def widget_gorunumu(musteri: Musteri, request) -> dict:
    """The look fields of `widget/init`'s answer (CONTRACT 13); the portal's preview gives the
    widget the same."""
    logo = logo_adresi(musteri)
    return {
        "firma_adi": musteri.firma_adi,
        # The widget runs on the tenant's site: a stored path must name this service's host.
        "logo_url": request.build_absolute_uri(logo) if logo.startswith("/") else logo,
        "renk_primary": musteri.renk_primary,
        "karsilama_metni": musteri.karsilama_metni,
        "baslatici_konum": musteri.baslatici_konum,
    }
