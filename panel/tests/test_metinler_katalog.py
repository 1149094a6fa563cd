"""The console's word catalog (CONTRACT 19): `static/panel/metinler.js` holds a `tr` and an `en`
dictionary with the same keys, no empty value, the same `{name}` placeholders in both; every other
console module reads its words from there (no Turkish text of its own)."""
import json
import re
from pathlib import Path

import pytest
from django.conf import settings

PANEL = Path(settings.BASE_DIR) / "static" / "panel"
KATALOG = PANEL / "metinler.js"
TURKCE = re.compile(r"[çğıöşüÇĞİÖŞÜ]")
YER_TUTUCU = re.compile(r"\{(\w+)\}")
# A string, a template string or a comment, whichever starts first: comments inside strings stay.
_PARCA = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`|//[^\n]*|/\*.*?\*/', re.S)
_SOZCUK = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|[A-Za-z_$][\w$]*|[{}\[\],:]', re.S)


def _sozcukler(kaynak: str):
    i = 0
    while i < len(kaynak):
        m = _SOZCUK.match(kaynak, i)
        assert m, f"metinler.js: beklenmeyen sözdizimi: {kaynak[i:i + 60]!r}"
        i = m.end()
        s = m.group()
        if s.isspace() or s.startswith(("//", "/*")):
            continue
        yield s


def _deger(sozcukler: list, i: int):
    """A JS literal of strings, objects and arrays (the catalog holds nothing else) at `i`."""
    s = sozcukler[i]
    if s.startswith('"'):
        return json.loads(s), i + 1
    kapanis = {"{": "}", "[": "]"}.get(s)
    assert kapanis, f"metinler.js: katalogda dizgi, nesne ya da dizi olmayan değer: {s!r}"
    nesne = {} if s == "{" else []
    i += 1
    while sozcukler[i] != kapanis:
        if s == "{":
            anahtar = sozcukler[i]
            anahtar = json.loads(anahtar) if anahtar.startswith('"') else anahtar
            assert sozcukler[i + 1] == ":", sozcukler[i:i + 3]
            nesne[anahtar], i = _deger(sozcukler, i + 2)
        else:
            deger, i = _deger(sozcukler, i)
            nesne.append(deger)
        if sozcukler[i] == ",":
            i += 1
    return nesne, i + 1


def sozluk(dil: str) -> dict:
    kaynak = KATALOG.read_text(encoding="utf-8")
    bas = kaynak.index(f"const {dil} = {{") + len(f"const {dil} = ")
    sozcukler = list(_sozcukler(kaynak[bas:kaynak.index("\n};", bas) + 2]))
    deger, _son = _deger(sozcukler, 0)
    return deger


def duz(deger, on="") -> dict:
    if isinstance(deger, dict):
        return {k2: v2 for k, v in deger.items() for k2, v2 in duz(v, f"{on}{k}.").items()}
    if isinstance(deger, list):
        return {k2: v2 for k, v in enumerate(deger) for k2, v2 in duz(v, f"{on}{k}.").items()}
    return {on.rstrip("."): deger}


@pytest.fixture(scope="module")
def diller():
    return {"tr": duz(sozluk("tr")), "en": duz(sozluk("en"))}


def test_iki_dil_ayni_anahtarlar(diller):
    tr, en = diller["tr"], diller["en"]
    assert len(tr) > 200
    assert set(tr) - set(en) == set(), "İngilizcesi olmayan anahtarlar"
    assert set(en) - set(tr) == set(), "Türkçesi olmayan anahtarlar"


def test_bos_deger_yok_ve_yer_tutucular_ayni(diller):
    for dil, sozler in diller.items():
        bos = [k for k, v in sozler.items() if not isinstance(v, str) or not v.strip()]
        assert not bos, (dil, bos)
    farkli = {k: (v, diller["en"][k]) for k, v in diller["tr"].items()
              if set(YER_TUTUCU.findall(v)) != set(YER_TUTUCU.findall(diller["en"][k]))}
    assert not farkli, farkli


def test_ingilizce_gercekten_ingilizce(diller):
    """`en` is a translation, not a copy: no Turkish letter, and most words differ from Turkish."""
    turkce = {k: v for k, v in diller["en"].items() if TURKCE.search(v)}
    assert not turkce, turkce
    ayni = [k for k, v in diller["tr"].items() if v == diller["en"][k] and re.search(r"[a-zçğıöşü]{4,}", v)]
    # Key names, "Normal", "SLA ..." and the like may match; whole sentences may not.
    assert len(ayni) < 10, ayni
    assert diller["en"]["baslik"] == "Operator console" and diller["en"]["talepler"] == "Tickets"


def test_cogul_bicimler_iki_dilde_var(diller):
    """A count's forms are `one` and `other` in both (Intl.PluralRules' categories of tr and en)."""
    for k, v in diller["tr"].items():
        if k.endswith((".one", ".other")):
            kok = k.rsplit(".", 1)[0]
            assert {f"{kok}.one", f"{kok}.other"} <= set(diller["tr"]) and "{n}" in v, k


def _kod(yol: Path) -> str:
    """The module without its comments (strings kept)."""
    return _PARCA.sub(lambda m: "" if m.group().startswith("/") else m.group(), yol.read_text(encoding="utf-8"))


MODULLER = sorted(p for p in PANEL.glob("*.js") if p.name != "metinler.js")


@pytest.mark.parametrize("modul", MODULLER, ids=lambda p: p.name)
def test_moduller_metinlerini_katalogdan_okur(modul):
    kod = _kod(modul)
    satirlar = [s.strip() for s in kod.splitlines() if TURKCE.search(s)]
    assert not satirlar, f"{modul.name}: Türkçe metin metinler.js'de olmalı: {satirlar}"
    # Words shown to people are never literals here (Turkish words without Turkish letters too).
    gorunen = re.findall(r'(?:\btext|\bplaceholder|\btitle|\balt|"aria-label")\s*:\s*("[^"\n]*[A-Za-z][^"\n]*")', kod)
    assert not gorunen, (modul.name, gorunen)
    assert "tr-TR" not in kod and 'toLocaleLowerCase("tr")' not in kod, modul.name


def test_katalog_okuyucusu_calisir():
    """The parser above really reads the file (a broken parse would make the other tests vacuous)."""
    tr = sozluk("tr")
    assert tr["durumlar"] == {"cevrimici": "Çevrimiçi", "mesgul": "Meşgul", "cevrimdisi": "Çevrimdışı"}
    assert tr["okunmamis"] == {"one": "{n} okunmamış", "other": "{n} okunmamış"}
    assert sozluk("en")["kisayolListesi"][0] == ["?", "Show / hide this list"]
