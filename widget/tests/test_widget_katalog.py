"""The widget's words (CONTRACT 19): `static/widget/widget.js` carries one dictionary per language
(`M`, Turkish, the source; `EN`), read only through `t()`. These tests read the file as text: the
dictionaries have the same keys, no empty value, the same `{name}` placeholders; every key the code
asks for exists and every key is used; no Turkish text is written outside the catalog (a word the
visitor would see untranslated); and the file stays inside its size budget with both catalogs."""
import gzip
import json
import re
from pathlib import Path

from django.conf import settings

WIDGET_JS = Path(settings.BASE_DIR) / "static" / "widget" / "widget.js"
BUTCE = 40 * 1024  # gzipped, both catalogs included (docs/performance.md)
TURKCE_HARF = re.compile("[çğıöşüÇĞİÖŞÜ]")
YER_TUTUCU = re.compile(r"\{(\w+)\}")
COGUL_BICIMLERI = {"zero", "one", "two", "few", "many", "other"}

_SATIR = re.compile(r'^    (\w+): (?:("(?:[^"\\]|\\.)*")|\{ ((?:\w+: "(?:[^"\\]|\\.)*"(?:, )?)+) \}),$')
_BICIM = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*")')


def _kaynak() -> str:
    return WIDGET_JS.read_text(encoding="utf-8")


def _sozluk_araligi(kaynak: str, ad: str) -> tuple[int, int]:
    bas = kaynak.index(f"\n  const {ad} = {{\n") + 1
    return bas, kaynak.index("\n  };\n", bas) + len("\n  };")


def _sozluk(kaynak: str, ad: str) -> dict:
    """One dictionary, in its strict shape: `key: "text",` or `key: { one: "…", other: "…" },`, one
    a line, 4 spaces in (the portal's preview test reads the Turkish lines), `//` comments between."""
    bas, son = _sozluk_araligi(kaynak, ad)
    sozluk = {}
    for satir in kaynak[bas:son].splitlines()[1:-1]:
        if satir.strip().startswith("//"):
            continue
        m = _SATIR.match(satir)
        assert m, f"{ad}: a line the catalog's shape does not allow: {satir!r}"
        anahtar, metin, bicimler = m.groups()
        assert anahtar not in sozluk, f"{ad}.{anahtar} twice"
        sozluk[anahtar] = json.loads(metin) if metin else {k: json.loads(v) for k, v in _BICIM.findall(bicimler)}
    return sozluk


def _bicimler(deger) -> list[str]:
    return list(deger.values()) if isinstance(deger, dict) else [deger]


def js_dizgileri(kaynak: str) -> list[tuple[int, str]]:
    """(offset, text) of every string literal and template-literal text part of a script, comments
    and regular expressions left out. A small scanner, enough for this file's plain ES2020."""
    sonuc = []
    i, n = 0, len(kaynak)
    onceki = ""  # the last significant token: decides whether `/` starts a regex or divides
    sablonlar: list[int] = []  # open `${` of template literals: brace depth inside each

    def sablon_oku(i):  # from just after "`" or "}", up to "`" (closed) or "${" (code follows)
        bas = i
        while i < n:
            if kaynak[i] == "\\":
                i += 2
            elif kaynak[i] == "`":
                sonuc.append((bas, kaynak[bas:i]))
                return i + 1, False
            elif kaynak.startswith("${", i):
                sonuc.append((bas, kaynak[bas:i]))
                return i + 2, True
            else:
                i += 1
        raise AssertionError(f"unclosed template literal at {bas}")

    while i < n:
        c = kaynak[i]
        if c.isspace():
            i += 1
        elif kaynak.startswith("//", i):
            i = kaynak.find("\n", i) if "\n" in kaynak[i:] else n
        elif kaynak.startswith("/*", i):
            i = kaynak.index("*/", i + 2) + 2
        elif c in "\"'":
            j = i + 1
            while kaynak[j] != c:
                assert kaynak[j] != "\n", f"unclosed string at {i}"
                j += 2 if kaynak[j] == "\\" else 1
            sonuc.append((i, kaynak[i + 1:j]))
            i, onceki = j + 1, "dizgi"
        elif c == "`":
            i, kod = sablon_oku(i + 1)
            if kod:
                sablonlar.append(0)
            onceki = "dizgi"
        elif c == "/" and (onceki in ("", "return", "typeof", "case", "of", "in", "void", "delete", "throw")
                           or onceki in tuple("([{,;:=!&|?+-*%<>~^")):
            j, sinif = i + 1, False
            while sinif or kaynak[j] != "/":
                if kaynak[j] == "\\":
                    j += 1
                elif kaynak[j] == "[":
                    sinif = True
                elif kaynak[j] == "]":
                    sinif = False
                j += 1
            i = j + 1
            while i < n and (kaynak[i].isalnum()):
                i += 1
            onceki = "regex"
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (kaynak[j].isalnum() or kaynak[j] in "_$"):
                j += 1
            i, onceki = j, kaynak[i:j]
        elif c == "{" and sablonlar:
            sablonlar[-1] += 1
            i, onceki = i + 1, c
        elif c == "}" and sablonlar:
            if sablonlar[-1] == 0:
                sablonlar.pop()
                i, kod = sablon_oku(i + 1)
                if kod:
                    sablonlar.append(0)
                onceki = "dizgi"
            else:
                sablonlar[-1] -= 1
                i, onceki = i + 1, c
        else:
            i, onceki = i + 1, c
    return sonuc


# --- the catalog ------------------------------------------------------------------------------
def test_both_dictionaries_have_the_same_keys():
    kaynak = _kaynak()
    tr, en = _sozluk(kaynak, "M"), _sozluk(kaynak, "EN")
    assert len(tr) > 80
    assert set(tr) - set(en) == set(), "missing in EN"
    assert set(en) - set(tr) == set(), "missing in M (Turkish)"
    assert "const SOZLUKLER = { tr: M, en: EN };" in kaynak


def test_no_value_is_empty_and_plurals_are_well_formed():
    kaynak = _kaynak()
    for ad in ("M", "EN"):
        for anahtar, deger in _sozluk(kaynak, ad).items():
            if isinstance(deger, dict):
                assert "other" in deger and set(deger) <= COGUL_BICIMLERI, (ad, anahtar, deger)
                assert YER_TUTUCU.search(deger["other"]), (ad, anahtar, "a plural without the count")
            for metin in _bicimler(deger):
                assert metin.strip() and metin == metin.strip(), (ad, anahtar, metin)


def test_placeholders_are_the_same_in_every_language_and_form():
    kaynak = _kaynak()
    tr, en = _sozluk(kaynak, "M"), _sozluk(kaynak, "EN")
    for anahtar, deger in tr.items():
        beklenen = set(YER_TUTUCU.findall(_bicimler(deger)[-1]))
        for metin in _bicimler(deger) + _bicimler(en[anahtar]):
            assert set(YER_TUTUCU.findall(metin)) == beklenen, (anahtar, metin)


def test_english_is_english():
    for anahtar, deger in _sozluk(_kaynak(), "EN").items():
        for metin in _bicimler(deger):
            assert not TURKCE_HARF.search(metin), (anahtar, metin)
            assert not re.search(r"\bticket", metin, re.I), (anahtar, "the visitor's word is 'request'")


def test_every_key_the_code_asks_for_exists_and_every_key_is_used():
    kaynak = _kaynak()
    tr = _sozluk(kaynak, "M")
    kod = kaynak[_sozluk_araligi(kaynak, "EN")[1]:]
    sorulan = set(re.findall(r'\bt\("(\w+)"[,)]', kod))
    assert sorulan - set(tr) == set()
    # keys built from an enum value: t("durum_" + d), t("oncelik_" + k)
    onekler = set(re.findall(r'\bt\("(\w+_)" \+', kod))
    assert onekler == {"durum_", "oncelik_"}
    assert {a for a in tr if a.startswith("durum_")} == {f"durum_{d}" for d in ("acik", "beklemede", "cozuldu", "kapandi")}
    assert {a for a in tr if a.startswith("oncelik_")} == {f"oncelik_{d}" for d in ("dusuk", "normal", "yuksek", "acil")}
    kullanilmayan = {a for a in tr if a not in sorulan and not a.startswith(tuple(onekler))}
    # tab labels are asked for by the tab's name: t(ad) for sohbet, talepler, yardim
    assert kullanilmayan <= {"sohbet", "talepler", "yardim"}, kullanilmayan
    assert "el.textContent = t(ad);" in kod and 'sekmeAdlari[ad] = h("span", { text: t(ad) });' in kod


def test_no_turkish_text_outside_the_catalog():
    """Text with Turkish letters anywhere else in the code would reach an English visitor as is
    (comments may say what they like)."""
    kaynak = _kaynak()
    araliklar = [_sozluk_araligi(kaynak, "M"), _sozluk_araligi(kaynak, "EN")]
    dizgiler = js_dizgileri(kaynak)
    assert len(dizgiler) > 500  # the scanner saw the file
    disarida = [(kaynak.count("\n", 0, yer) + 1, metin) for yer, metin in dizgiler
                if TURKCE_HARF.search(metin) and not any(bas <= yer < son for bas, son in araliklar)]
    assert disarida == []


def test_the_scanner_sees_strings_templates_and_skips_comments_and_regexes():
    kaynak = ('const a = "çay"; // şeker\n/* ğ */ const r = /ş"/g; const b = x / 2 / y;\n'
              'const c = `ü ${f({ k: "ö" })} ı${`İ`}`;')
    assert [m for _, m in js_dizgileri(kaynak)] == ["çay", "ü ", "ö", " ı", "İ", ""]


def test_turkish_dictionary_is_the_widgets_words_before_issue_31():
    """Spot check of the source language: today's words, byte for byte (counted ones included)."""
    tr = _sozluk(_kaynak(), "M")
    assert tr["sira"] == "Sıranız: {n}. Bir temsilci birazdan bağlanacak."
    assert tr["okunmamis"] == "{n} okunmamış mesaj"
    assert tr["yildiz"] == "{n} yıldız" and tr["makale"] == "{n} makale"
    assert tr["durum_cozuldu"] == "Çözüldü" and tr["oncelik_acil"] == "Acil"
    assert tr["ac"] == "Destek penceresini aç" and tr["guc"] == "SupportDesk ile destekleniyor"


# --- size -----------------------------------------------------------------------------------
def test_widget_stays_inside_its_size_budget():
    """40 KB gzipped (gzip's default level, a little larger than WhiteNoise's level 9)."""
    veri = WIDGET_JS.read_bytes()
    assert len(gzip.compress(veri, compresslevel=6)) <= BUTCE
