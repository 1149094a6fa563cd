"""Finds user-facing text that is not marked for translation (CONTRACT 19; docs/ceviri.md).

    python -m supportdesk.testing.ceviri [path ...]     # lists what is left, by file and line

Python: a string literal holding a Turkish letter that is not the argument of a gettext function
(`_`, `gettext`, `gettext_lazy`, `ngettext`, `pgettext`, ...), a docstring, a log call's message,
a model field's admin label, the OpenAPI documentation (`extend_schema`, ...), an admin action's
label or notice, a developer's exception (`TypeError`, `ImproperlyConfigured`, ...) or a
management command (`*/management/commands/*.py`: its output is for whoever runs the service).
Templates: text between tags (and `title`, `alt`, `placeholder`, `aria-label`, `content` attribute
values) outside `{% translate %}` / `{% blocktranslate %}`.
A line may opt out with a `# ceviri: yok` comment (Python) or `{# ceviri: yok #}` (templates)
when its text is not the interface's (a demo, a proper name); a file whose first five lines say
`ceviri: dosya yok` (demo data) is skipped whole. What it misses: Turkish text with
no Turkish letter in Python ("Kaydet"); the widget's and console's catalogs are checked apart.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

KOK = Path(__file__).resolve().parents[2]
TURKCE = re.compile(r"[çğıöşüÇĞİÖŞÜ]")
CEVIRI_ISLEVLERI = {
    "_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
    "npgettext", "npgettext_lazy", "gettext_noop", "_lazy", "_l", "N_",
}
GUNLUK_ISLEVLERI = {"debug", "info", "warning", "error", "exception", "critical", "log"}
# Model and form field labels seen only in the admin, and migrations' copies of them.
YONETIM_ANAHTARLARI = {"verbose_name", "verbose_name_plural", "help_text"}
# Text no interface user reads: the API's OpenAPI documentation (developers), the admin's action
# labels and notices (staff), and exceptions only a developer or an operator of the service sees.
GELISTIRICI_ISLEVLERI = {
    "extend_schema", "extend_schema_view", "extend_schema_field", "extend_schema_serializer", "OpenApiParameter",
    "OpenApiResponse", "OpenApiExample", "inline_serializer", "action", "display", "message_user",
    "ImproperlyConfigured", "CommandError", "RuntimeError", "TypeError", "AssertionError", "NotImplementedError",
}
ATLANAN_KLASORLER = {".venv", "node_modules", "migrations", "tests", "testing", "staticfiles", "media", "tmp", "bench",
                     "locale", "ops", "requirements", "docs"}
YOK = "ceviri: yok"


def _ad(dugum) -> str:
    if isinstance(dugum, ast.Name):
        return dugum.id
    if isinstance(dugum, ast.Attribute):
        return dugum.attr
    return ""


def _gunluk_mu(cagri: ast.Call) -> bool:
    islev = cagri.func
    if not isinstance(islev, ast.Attribute) or islev.attr not in GUNLUK_ISLEVLERI:
        return False
    sahip = _ad(islev.value).lower()
    return "log" in sahip or "gunluk" in sahip


def python_bulgulari(yol: Path) -> list[tuple[int, str]]:
    kaynak = yol.read_text(encoding="utf-8")
    satirlar = kaynak.splitlines()
    agac = ast.parse(kaynak)
    ebeveyn: dict[ast.AST, ast.AST] = {}
    for dugum in ast.walk(agac):
        for cocuk in ast.iter_child_nodes(dugum):
            ebeveyn[cocuk] = dugum
    bulgular = []
    for dugum in ast.walk(agac):
        if not (isinstance(dugum, ast.Constant) and isinstance(dugum.value, str) and TURKCE.search(dugum.value)):
            continue
        ust = ebeveyn.get(dugum)
        if isinstance(ust, ast.Expr):
            continue  # a docstring or a bare string
        if isinstance(ust, ast.JoinedStr):
            dugum, ust = ust, ebeveyn.get(ust)  # an f-string is one string
        atla = False
        cocuk, gezen = dugum, ust
        while gezen is not None:
            if isinstance(gezen, ast.Call):
                if _ad(gezen.func) in CEVIRI_ISLEVLERI | GELISTIRICI_ISLEVLERI or _gunluk_mu(gezen):
                    atla = True
                    break
            if isinstance(gezen, ast.keyword) and gezen.arg in YONETIM_ANAHTARLARI:
                atla = True
                break
            ilk = gezen.args[0] if isinstance(gezen, ast.Call) and gezen.args else None
            if ilk is not None and cocuk is ilk and _ad(gezen.func).endswith("Field"):
                atla = True  # a model or form field's first argument: its verbose name
                break
            if isinstance(gezen, ast.Assign) and any(_ad(h) in YONETIM_ANAHTARLARI for h in gezen.targets):
                atla = True  # `verbose_name = "..."` in a Meta
                break
            if isinstance(gezen, ast.ClassDef) and gezen.name == "Meta":
                atla = True
                break
            if isinstance(gezen, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                break
            cocuk, gezen = gezen, ebeveyn.get(gezen)
        satir = satirlar[dugum.lineno - 1] if dugum.lineno <= len(satirlar) else ""
        if atla or YOK in satir:
            continue
        bulgular.append((dugum.lineno, satir.strip()[:120]))
    return bulgular


ETIKET_ICI = re.compile(r"{%\s*(?:translate|trans)\s.*?%}|{{.*?}}|{#.*?#}", re.S)
BLOK = re.compile(r"{%\s*(?:blocktranslate|blocktrans)\b.*?%}.*?{%\s*(?:endblocktranslate|endblocktrans)\s*%}", re.S)
YORUM = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|<!--.*?-->", re.S)
BETIK = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.S | re.I)
SABLON_ETIKETI = re.compile(r"{%.*?%}", re.S)
OZNITELIK = re.compile(r"""\b(?:title|alt|placeholder|aria-label|content|value)\s*=\s*(["'])(.*?)\1""", re.S | re.I)
HTML_ETIKETI = re.compile(r"<[^>]*>", re.S)
HARF = re.compile(r"[A-Za-zÇĞİÖŞÜçğıöşü]{2,}")
# Words that are the same in every language here.
EVRENSEL = {"API", "URL", "JSON", "CSV", "HTML", "ID", "SLA", "TOTP", "E-posta", "Webhook", "webhook", "Widget", "widget",
            "OK", "ZIP", "JWT", "HMAC", "SHA", "HTTP", "HTTPS", "Redoc", "Markdown", "CSS", "JS", "PNG", "SVG"}


def sablon_bulgulari(yol: Path) -> list[tuple[int, str]]:
    metin = yol.read_text(encoding="utf-8")
    satirlar = metin.splitlines()

    def bosalt(eslesme):  # keep line numbers: replace a match by its newlines only
        return "\n" * eslesme.group(0).count("\n")

    temiz = BETIK.sub(bosalt, YORUM.sub(bosalt, BLOK.sub(bosalt, metin)))
    temiz = ETIKET_ICI.sub(bosalt, temiz)
    oznitelikler = []
    for eslesme in OZNITELIK.finditer(temiz):
        satir_no = temiz.count("\n", 0, eslesme.start()) + 1
        oznitelikler.append((satir_no, SABLON_ETIKETI.sub(" ", eslesme.group(2))))
    temiz = HTML_ETIKETI.sub(bosalt, temiz)
    temiz = SABLON_ETIKETI.sub(bosalt, temiz)
    bulgular = []
    adaylar = [(i, s) for i, s in enumerate(temiz.splitlines(), 1)] + oznitelikler
    for satir_no, parca in adaylar:
        kelimeler = [k for k in HARF.findall(parca) if k not in EVRENSEL]
        if not kelimeler:
            continue
        asil = satirlar[satir_no - 1] if satir_no <= len(satirlar) else ""
        if YOK in asil:
            continue
        bulgular.append((satir_no, asil.strip()[:120]))
    return sorted(set(bulgular))


def dosyalar(yollar: list[Path]):
    for yol in yollar:
        adaylar = [yol] if yol.is_file() else sorted(p for p in yol.rglob("*") if p.suffix in (".py", ".html", ".txt"))
        for dosya in adaylar:
            goreli = dosya.resolve().relative_to(KOK)
            if any(parca in ATLANAN_KLASORLER for parca in goreli.parts[:-1]) or goreli.name == "conftest.py":
                continue
            if goreli.parts[-3:-1] == ("management", "commands"):
                continue  # management commands speak to whoever runs the service, not to its users
            if dosya.suffix == ".py" and not goreli.name.startswith("test_"):
                yield goreli, python_bulgulari
            elif dosya.suffix in (".html", ".txt") and "templates" in goreli.parts:
                yield goreli, sablon_bulgulari


def _dosya_disarida(yol: Path) -> bool:
    with yol.open(encoding="utf-8") as f:
        return any("ceviri: dosya yok" in f.readline() for _ in range(5))


def tara(yollar: list[Path] | None = None) -> dict[str, list[tuple[int, str]]]:
    sonuc = {}
    for goreli, islev in dosyalar(yollar or [KOK]):
        if _dosya_disarida(KOK / goreli):
            continue
        if bulgular := islev(KOK / goreli):
            sonuc[str(goreli)] = bulgular
    return sonuc


if __name__ == "__main__":
    sonuc = tara([Path(a) for a in sys.argv[1:]] or None)
    toplam = 0
    for dosya, bulgular in sorted(sonuc.items()):
        for satir_no, satir in bulgular:
            print(f"{dosya}:{satir_no}: {satir}")
        toplam += len(bulgular)
    print(f"{toplam} işaretlenmemiş metin, {len(sonuc)} dosyada", file=sys.stderr)
    sys.exit(1 if toplam else 0)
