"""CONTRACT 19: "a test fails when a user-facing string has no English translation" (docs/ceviri.md).

1. Nothing user-facing is left unmarked: `supportdesk.testing.ceviri` finds nothing in the tree.
2. The committed catalogs (English; any other language of `settings.LANGUAGES` but the source) are
   complete and up to date: `makemessages -l en` run over a copy
   of the sources (the Makefile's `make mesajlar`, same ignores) leaves no entry without an English
   `msgstr` and none `#, fuzzy`. A string marked in the code but missing from the committed catalog
   comes back empty, so it fails too.
3. Every catalog compiles with its placeholders intact (`msgfmt --check-format`).
"""
import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from supportdesk.testing import ceviri

KOK = Path(settings.BASE_DIR)
# The Makefile's MESAJ_ATLA, plus what a checkout holds besides the sources.
ATLA = [".venv", "node_modules", "staticfiles", "media", "tmp", "bench"]
KOPYA_DISI = {*ATLA, ".git", "__pycache__", ".pytest_cache", ".ruff_cache"}
KAYNAK_UZANTILARI = {".py", ".html", ".txt"}
# Every language but the source (Turkish: the msgids themselves; locale/tr only overrides Django's words).
HEDEF_DILLER = [kod for kod, _ad in settings.LANGUAGES if kod != settings.LANGUAGE_CODE]

msgfmt_yok = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) is not installed")


def test_every_user_facing_string_is_marked():
    bulgular = ceviri.tara()
    satirlar = [f"  {dosya}:{satir_no}: {metin}" for dosya, liste in sorted(bulgular.items()) for satir_no, metin in liste]
    assert not satirlar, (
        f"{len(satirlar)} user-facing string(s) in {len(bulgular)} file(s) not marked for translation "
        "(wrap them in gettext, or add `# ceviri: yok` when the text is not the interface's; docs/ceviri.md):\n"
        + "\n".join(satirlar))


def _po_kayitlari(metin: str) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural, msgstr / msgstr[n], flags, obsolete."""
    kayitlar = []
    for blok in re.split(r"\n\s*\n", metin):
        kayit: dict = {"bayraklar": set(), "eski": False}
        alan = None
        for satir in blok.splitlines():
            if satir.startswith("#~"):
                kayit["eski"] = True
                continue
            if satir.startswith("#,"):
                kayit["bayraklar"] |= {b.strip() for b in satir[2:].split(",")}
                continue
            if satir.startswith("#"):
                continue
            eslesme = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) (".*")$', satir)
            if eslesme:
                alan = eslesme.group(1)
                kayit[alan] = ast.literal_eval(eslesme.group(2))
            elif alan and satir.startswith('"'):
                kayit[alan] += ast.literal_eval(satir)
        if kayit.get("msgid"):
            kayitlar.append(kayit)
    return kayitlar


def _eksikler(po: Path) -> list[str]:
    eksik = []
    for k in _po_kayitlari(po.read_text(encoding="utf-8")):
        if k["eski"]:
            continue
        cevirler = [v for a, v in k.items() if a.startswith("msgstr")]
        if "fuzzy" in k["bayraklar"]:
            eksik.append(f"  fuzzy: {k['msgid']!r}")
        elif not cevirler or any(not v for v in cevirler):
            eksik.append(f"  empty: {k['msgid']!r}")
    return eksik


def _kaynaklari_kopyala(hedef: Path) -> None:
    for klasor, altlar, dosyalar in os.walk(KOK):
        goreli = Path(klasor).relative_to(KOK)
        altlar[:] = [a for a in altlar if a not in KOPYA_DISI and not a.startswith(".")]
        for ad in dosyalar:
            yol = Path(klasor) / ad
            if yol.suffix in KAYNAK_UZANTILARI or (goreli.parts[:1] == ("locale",) and yol.suffix == ".po"):
                (hedef / goreli).mkdir(parents=True, exist_ok=True)
                shutil.copy2(yol, hedef / goreli / ad)


@msgfmt_yok
def test_english_catalog_is_complete_and_up_to_date(tmp_path):
    kopya = tmp_path / "kaynak"
    _kaynaklari_kopyala(kopya)
    ortam = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", "PYTHONDONTWRITEBYTECODE": "1"}
    if (KOK / ".env").exists():
        ortam.setdefault("DJANGO_ENV_FILE", str(KOK / ".env"))
    komut = [sys.executable, "manage.py", "makemessages", *(f"--locale={d}" for d in HEDEF_DILLER), "--no-obsolete",
             "--add-location=file", *(f"--ignore={a}" for a in ATLA)]
    sonuc = subprocess.run(komut, cwd=kopya, env=ortam, capture_output=True, text=True, timeout=120)
    assert sonuc.returncode == 0, sonuc.stdout + sonuc.stderr
    hatalar = []
    for dil in HEDEF_DILLER:
        if eksik := _eksikler(kopya / f"locale/{dil}/LC_MESSAGES/django.po"):
            hatalar.append(f"locale/{dil}/LC_MESSAGES/django.po: {len(eksik)} entr{'y' if len(eksik) == 1 else 'ies'} "
                           "without a translation:\n" + "\n".join(eksik))
    assert not hatalar, ("After `make mesajlar`, fill each msgstr and remove `#, fuzzy` (docs/ceviri.md):\n"
                         + "\n".join(hatalar))


@msgfmt_yok
@pytest.mark.parametrize("po", sorted(p.relative_to(KOK) for p in KOK.glob("locale/*/LC_MESSAGES/*.po")), ids=str)
def test_catalog_compiles_with_its_placeholders(po, tmp_path):
    sonuc = subprocess.run(["msgfmt", "--check-format", "-o", str(tmp_path / "c.mo"), str(KOK / po)],
                           capture_output=True, text=True, timeout=60)
    assert sonuc.returncode == 0, sonuc.stderr


def test_the_checks_see_what_they_should(tmp_path):
    """The catalog reader finds an empty, a fuzzy and an empty plural entry, and passes a full one."""
    po = tmp_path / "django.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
                  'msgid "Dolu"\nmsgstr "Full"\n\n'
                  'msgid "Bos"\nmsgstr ""\n\n'
                  '#, fuzzy\nmsgid "Tahmin"\nmsgstr "Guess"\n\n'
                  'msgid "%(n)s gün"\nmsgid_plural "%(n)s gün"\nmsgstr[0] "%(n)s day"\nmsgstr[1] ""\n\n'
                  '#~ msgid "Eski"\n#~ msgstr ""\n', encoding="utf-8")
    assert _eksikler(po) == ["  empty: 'Bos'", "  fuzzy: 'Tahmin'", "  empty: '%(n)s gün'"]
