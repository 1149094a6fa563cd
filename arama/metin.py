"""Search text: words folded the Turkish way, query stems, and snippets, the same on every
database because all of it happens here, in Python (`supportdesk.core.katlama` explains why not
in the database's lower()).

A document is stored as its folded words one space apart (` ahmet ozturk sifremi unuttum `).
A query word is folded and stripped of common Turkish suffixes (`knowledge.metin.kok`), and
matches every document word that starts with that stem: "faturamı" → `fatur` finds "fatura",
"ŞİFRE" → `sifr` finds "şifre", "ozturk" finds "Öztürk". All words of a query must match. On
PostgreSQL the stem is a prefix term (`fatur:*`) of a `simple` tsquery over the same words; on
SQLite it is ` fatur` found in the folded text: the same rows either way.
"""
import functools
import re
import unicodedata

from knowledge.metin import kok
from supportdesk.core.katlama import TABLO

# Letters and digits: `_`, `@`, `.`, `-` separate words (an e-mail or a visitor id is found by
# any of its parts), and PostgreSQL's parser then reads each stored word as exactly one token.
_KELIME = re.compile(r"[^\W_]+")
EN_UZUN_KELIME = 100
EN_COK_KELIME = 8
EN_KISA_KOK = 2
BAS, SON = "«", "»"
PARCA_GENISLIK = 160


def _duzelt(metin: str) -> str:
    # The one length-changing step of `tr_katla`, done first so that folded text and the text a
    # snippet is cut from have the same length (positions carry over).
    return unicodedata.normalize("NFC", metin or "").replace("i\u0307", "i").replace("I\u0307", "İ")  # ceviri: yok


def _katla(metin: str) -> str:
    """`knowledge.metin.arama_katla` of text already through `_duzelt`, at C speed: Turkish letters
    to their ASCII base first (so `İ` never reaches lower(), the one letter whose lower case is
    two characters), then lower(); one character for one."""
    return metin.translate(TABLO).lower()


def kelimeler(metin: str) -> list[str]:
    return [k[:EN_UZUN_KELIME] for k in _KELIME.findall(_katla(_duzelt(metin)))]


def katli_metin(*parcalar: str) -> str:
    """What a document is matched against: ` kelime kelime … ` (a space at each end)."""
    return " " + " ".join(k for p in parcalar for k in kelimeler(p)) + " "


def sorgu_kokleri(q: str) -> list[str]:
    """The query's stems, in order, without repeats; words shorter than two letters are left out
    unless nothing else is left."""
    tum = list(dict.fromkeys(kok(k) for k in kelimeler(q)))
    uzun = [k for k in tum if len(k) >= EN_KISA_KOK]
    return (uzun or tum)[:EN_COK_KELIME]


def tsquery(kokler: list[str]) -> str:
    """`'fatur':* & 'ozturk':*` for `to_tsquery('simple', …)`: stems hold only letters and
    digits, so quoting them is enough."""
    return " & ".join(f"'{k}':*" for k in kokler)


@functools.lru_cache(maxsize=256)
def _desenler(kokler: tuple[str, ...]) -> tuple[re.Pattern, tuple[re.Pattern, ...]]:
    # A word starting with any stem (the whole word is marked), and each stem on its own.
    tek = tuple(re.compile(r"(?<![^\W_])" + re.escape(k)) for k in kokler)
    return re.compile(r"(?<![^\W_])(?:" + "|".join(re.escape(k) for k in kokler) + r")[^\W_]*"), tek


# Markdown of a ticket reply (the console renders it) read as the plain text it shows (issue 39:
# snippets showed `**`, `[text](url)`, `#`). Only markup goes; the words and their order stay, and
# the result is text, drawn as text by the console (no HTML is made here, so nothing to escape).
_MARKDOWN = [
    (re.compile(r"^ {0,3}(?:```|~~~).*$", re.M), ""),                    # code fences
    (re.compile(r"^ {0,3}(?:[-*_] *){3,}$", re.M), ""),                   # rules
    (re.compile(r"^ {0,3}#{1,6}[ \t]+", re.M), ""),                        # headings
    (re.compile(r"^ {0,3}(?:> ?)+", re.M), ""),                            # quotes
    (re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+", re.M), ""),          # list markers
    (re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),                     # images: their alt text
    (re.compile(r"\[([^\]\n]+)\]\([^)\n]*\)"), r"\1"),                      # links: their text
    (re.compile(r"<((?:https?|mailto):[^>\s]+)>"), r"\1"),                 # autolinks
    (re.compile(r"(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1"), r"\2"),               # bold, strike
    (re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])"), r"\2"),    # italics
    (re.compile(r"`+([^`\n]+)`+"), r"\1"),                                  # inline code
]
# `\*` is a literal `*`: kept out of the patterns' way (a private-use stand-in) and put back last.
_KACIS = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>~|])")
_VEKIL = 0xF0000


def markdown_duz(metin: str) -> str:
    metin = _KACIS.sub(lambda m: chr(_VEKIL + ord(m.group(1))), metin or "")
    for desen, yerine in _MARKDOWN:
        metin = desen.sub(yerine, metin)
    return re.sub("[\U000F0000-\U000F00FF]", lambda m: chr(ord(m.group()) - _VEKIL), metin)


def parca(ust: str, govde: str, kokler: list[str]) -> str:
    """A plain-text snippet around the first match, each matching word between « and »: from
    the body when it matches as many stems as the header, else from the header."""
    desen, tek = _desenler(tuple(kokler))
    adaylar = []
    for sira, metin in enumerate((govde, ust)):
        duz = " ".join(_duzelt(metin).replace(BAS, '"').replace(SON, '"').split())
        katli = _katla(duz)
        bulunan = sum(1 for d in tek if d.search(katli))
        adaylar.append((-bulunan, sira, duz, katli))
    _, _, duz, katli = min(adaylar)
    ilk = desen.search(katli)
    bas = 0 if ilk is None else max(0, ilk.start() - PARCA_GENISLIK // 3)
    if bas:
        bosluk = duz.find(" ", bas)
        bas = bosluk + 1 if 0 <= bosluk < ilk.start() else bas
    son = min(len(duz), bas + PARCA_GENISLIK)
    if son < len(duz):
        bosluk = duz.rfind(" ", bas, son)
        son = bosluk if ilk is not None and bosluk > ilk.end() else son
    kesit, kesit_katli = duz[bas:son], katli[bas:son]
    out, konum = [], 0
    for eslesme in desen.finditer(kesit_katli):
        out += [kesit[konum:eslesme.start()], BAS, kesit[eslesme.start():eslesme.end()], SON]
        konum = eslesme.end()
    out.append(kesit[konum:])
    return ("… " if bas else "") + "".join(out) + (" …" if son < len(duz) else "")
