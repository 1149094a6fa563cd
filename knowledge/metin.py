# ceviri: dosya yok (Turkish language data for search: letters, suffixes, filler words; no interface text)
"""Turkish text helpers for the knowledge base: case folding, crude stemming, HTML to text.

Folding is done in Python, not by the database's lower(): PostgreSQL in a C or English locale
lowers `I` to `i` and `İ` to `i̇`, which is wrong for Turkish (`I` → `ı`, `İ` → `i`). Search words
are folded further, to the letters' ASCII base (`supportdesk.core.katlama`): "sifre" finds "Şifre"
(issue 24), on both databases, since both search these Python-folded columns.
"""
import html
import re
import unicodedata

import markdown
import nh3
from django.utils.text import slugify

from supportdesk.core.katlama import TABLO as _ASCII_TABLO

# Article bodies may carry ordinary formatting and links; scripts, styles, event handlers and
# javascript: URLs never survive (nh3's defaults plus a narrow scheme list).
IZINLI_SEMALAR = {"http", "https", "mailto"}

_ETIKET = re.compile(r"<[^>]*>")
_KELIME = re.compile(r"\w+", re.UNICODE)
# Common inflectional endings, longest first. Crude on purpose (only the SQLite fallback uses
# it): "faturamı" → "fatura", "iadeler" → "iade"; matching is then by word prefix. Matched against
# folded words, so folded too ("ları" and "lari" are one suffix).
_EKLER = sorted({ek.translate(_ASCII_TABLO) for ek in {
    "larımız", "lerimiz", "larınız", "leriniz", "ların", "lerin", "ları", "leri", "lar", "ler",
    "ımız", "imiz", "umuz", "ümüz", "ınız", "iniz", "unuz", "ünüz",
    "nın", "nin", "nun", "nün", "dan", "den", "tan", "ten", "nda", "nde",
    "yla", "yle", "la", "le", "da", "de", "ta", "te", "ya", "ye", "yı", "yi", "yu", "yü",
    "sı", "si", "su", "sü", "mı", "mi", "mu", "mü", "ım", "im", "um", "üm", "ın", "in", "un", "ün",
    "ı", "i", "u", "ü", "a", "e", "m", "n",
}}, key=len, reverse=True)
EN_KISA_KOK = 3


def html_temizle(icerik: str) -> str:
    return nh3.clean(icerik or "", url_schemes=IZINLI_SEMALAR, link_rel="noopener noreferrer")


def duz_metin(icerik_html: str) -> str:
    """Visible text of (already sanitized) HTML, whitespace collapsed."""
    # Tags become spaces so "a<br>b" reads as two words, then entities are decoded.
    metin = html.unescape(_ETIKET.sub(" ", nh3.clean(icerik_html or "")))
    return " ".join(metin.split())


def _katla_harf(ch: str) -> str:
    if ch == "İ":
        return "i"
    if ch == "I":
        return "ı"
    low = ch.lower()
    # One character in, one out, so positions in folded text match the original (snippets).
    return low if len(low) == 1 else ch


def tr_katla(metin: str) -> str:
    """Turkish case folding that keeps the length: `İADE` → `iade`, `IĞDIR` → `ığdır`."""
    metin = unicodedata.normalize("NFC", metin or "").replace("i\u0307", "i").replace("I\u0307", "İ")
    return "".join(_katla_harf(ch) for ch in metin)


def arama_katla(metin: str) -> str:
    """`tr_katla` and then each Turkish letter to its ASCII base, still one character for one:
    `Şİfre` → `sifre`, `IĞDIR` → `igdir` (snippets map positions back onto the original)."""
    return tr_katla(metin).translate(_ASCII_TABLO)


def kelimeler(metin: str) -> list[str]:
    return _KELIME.findall(arama_katla(metin))


# Question words and fillers that say nothing about the topic; dropped from a query unless
# nothing else is left ("nasıl" alone still searches). Folded, as the words they are matched with.
DOLGU = {k.translate(_ASCII_TABLO) for k in {
    "ve", "veya", "ile", "bir", "bu", "şu", "o", "için", "nasıl", "ne", "neden", "nerede", "nereden", "niçin",
    "niye", "mi", "mı", "mu", "mü", "da", "de", "ki", "ben", "benim", "bana", "sen", "siz", "biz", "çok", "daha",
    "en", "gibi", "ama", "fakat", "her", "hangi", "kadar", "olarak", "ya", "yapabilirim", "yaparım", "istiyorum",
}}


# The same for an English widget's query (CONTRACT 19): words that name no topic.
DOLGU_EN = {
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "is", "are", "was",
    "be", "do", "does", "did", "can", "could", "how", "what", "when", "where", "why", "which", "who", "i", "my",
    "me", "you", "your", "we", "our", "it", "its", "this", "that", "there", "get", "want", "need", "please",
}


def anlamli_kelimeler(metin: str, *, dolgu: set[str] = DOLGU) -> list[str]:
    tum = kelimeler(metin)
    anlamli = [k for k in tum if k not in dolgu]
    return anlamli or tum


def kok(kelime: str) -> str:
    """Strip common suffixes while a stem of at least three letters remains."""
    degisti = True
    while degisti:
        degisti = False
        for ek in _EKLER:
            if kelime.endswith(ek) and len(kelime) - len(ek) >= EN_KISA_KOK:
                kelime = kelime[: -len(ek)]
                degisti = True
                break
    return kelime


_EKLER_EN = ("ings", "ing", "ies", "ied", "es", "ed", "s")


def kok_en(kelime: str) -> str:
    """An English word's crude stem for the prefix match ("refunds", "refunded" → "refund"); the
    English stemmer does the rest. One suffix, while at least three letters remain."""
    for ek in _EKLER_EN:
        if kelime.endswith(ek) and len(kelime) - len(ek) >= EN_KISA_KOK:
            return kelime[: -len(ek)]
    return kelime


def arama_metni(*parcalar: str) -> str:
    """Folded words separated by single spaces, with a leading space so ` kök` matches word starts."""
    return " " + " ".join(w for p in parcalar for w in kelimeler(p)) + " "


# Markdown in the portal's editor (CONTRACT 13). Raw HTML in the source is passed through by the
# renderer and removed or defused by `html_temizle` afterwards, like any other article body.
MARKDOWN_EKLERI = ["extra", "sane_lists", "nl2br"]


def markdown_html(kaynak: str) -> str:
    """Markdown to sanitized HTML: what is stored, previewed and sent to the widget."""
    try:
        cikti = markdown.markdown(kaynak or "", extensions=MARKDOWN_EKLERI, output_format="html")
    except RecursionError:
        # Python-Markdown parses a list item's or a quote's text as blocks again, one level per
        # marker: `1. 1. 1. …` runs out of stack (a 500 on save and preview). Shown as typed.
        cikti = "<p>" + html.escape(kaynak).replace("\n", "<br>\n") + "</p>"
    return html_temizle(cikti)


def slug_yap(baslik: str, en_cok: int = 200) -> str:
    """`Faturamı nasıl öderim?` → `faturami-nasil-oderim`: Turkish letters to their ASCII base."""
    slug = slugify((baslik or "").translate(_ASCII_TABLO))[:en_cok].strip("-")
    return slug or "makale"
