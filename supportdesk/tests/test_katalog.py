"""English exists wherever the service is released (issue 37): `migrate`, the release step of every
topology (Procfile, compose's `migrate`, `make prod`), compiles a missing or stale translation
catalog in Python (no GNU gettext needed), and `check --deploy` refuses one that is still missing.
Through a checkout whose catalogs were never built: the check fails naming the catalog, `migrate`
builds it, and a gunicorn started as the Procfile starts it answers English callers in English."""
import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.conf import settings

from supportdesk.core import katalog
from supportdesk.testing.sunucu import gunicorn_sureci, surec_ortami

KOK = Path(settings.BASE_DIR)
ORNEK_PO = r'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: a.py
msgid "Şifre"
msgstr "Password"

#, fuzzy
msgid "Taslak"
msgstr "Draft"

msgid "Çevrilmemiş"
msgstr ""

msgctxt "sohbet durumu"
msgid "Açık"
msgstr "Open"

#, python-format
msgid "%(sayi)s gün kaldı"
msgid_plural "%(sayi)s gün kaldı"
msgstr[0] "%(sayi)s day left"
msgstr[1] "%(sayi)s days left"

msgid "Çok satırlı"
msgstr ""
"Line one\n"
"and \"two\""
'''


def _okunan(mo: Path) -> gettext.GNUTranslations:
    with open(mo, "rb") as f:
        return gettext.GNUTranslations(f)


def _ceviriler(mo: Path) -> dict:
    # The header entry differs in the dates msgfmt drops; the plural rule and charset are compared apart.
    return {k: v for k, v in _okunan(mo)._catalog.items() if k != ""}


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) yok")
@pytest.mark.parametrize("kaynak", ["ornek", *(str(po.relative_to(KOK)) for po, _ in katalog.kataloglar())])
def test_python_derlemesi_msgfmt_ile_ayni_ceviriyi_verir(kaynak, tmp_path):
    po = tmp_path / "ornek.po" if kaynak == "ornek" else KOK / kaynak
    if kaynak == "ornek":
        po.write_text(ORNEK_PO, encoding="utf-8")
    bizim, gnu = tmp_path / "bizim.mo", tmp_path / "gnu.mo"
    katalog.derle(po, bizim)
    subprocess.run(["msgfmt", "-o", str(gnu), str(po)], check=True)
    assert _ceviriler(bizim) == _ceviriler(gnu)
    a, b = _okunan(bizim), _okunan(gnu)
    assert a.charset() == b.charset() == "UTF-8" and [a.plural(n) for n in range(3)] == [b.plural(n) for n in range(3)]
    if kaynak == "ornek":
        # Through other names: xgettext (makemessages, test_ceviri) would take `.gettext("…")` for the
        # project's own strings.
        tekil, baglamli, cogul = a.gettext, a.pgettext, a.ngettext
        assert tekil("Şifre") == "Password" and baglamli("sohbet durumu", "Açık") == "Open"
        assert tekil("Taslak") == "Taslak" and tekil("Çevrilmemiş") == "Çevrilmemiş"  # fuzzy, untranslated
        assert cogul("%(sayi)s gün kaldı", "%(sayi)s gün kaldı", 2) == "%(sayi)s days left"
        assert tekil("Çok satırlı") == 'Line one\nand "two"'


def _calistir(ortam: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=KOK, env=ortam, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_derlenmemis_checkout_check_deployda_hata_migrate_derler_ve_sunucu_ingilizce_konusur(tmp_path):
    # A checkout as git gives it: the .po sources, no .mo.
    yerel = tmp_path / "locale"
    for po, _ in katalog.kataloglar():
        hedef = yerel / po.relative_to(po.parents[2])
        hedef.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(po, hedef)
    (tmp_path / "derlenmemis_ayar.py").write_text(
        "from pathlib import Path\n\nfrom supportdesk.test_settings import *  # noqa: F403\n\n"
        f"LOCALE_PATHS = [Path({str(yerel)!r})]\n")
    ortam = surec_ortami(DJANGO_SETTINGS_MODULE="derlenmemis_ayar", PYTHONPATH=f"{tmp_path}:{KOK}")
    en_mo = yerel / "en" / "LC_MESSAGES" / "django.mo"

    denetim = _calistir(ortam, "check", "--deploy", "--tag", "deployment")
    assert denetim.returncode != 0 and "supportdesk.E020" in denetim.stderr and str(en_mo) in denetim.stderr, \
        denetim.stderr

    goc = _calistir(ortam, "migrate", "--noinput")  # the Procfile's release step
    assert goc.returncode == 0, goc.stderr
    assert en_mo.exists() and str(en_mo) in goc.stdout, goc.stdout
    denetim = _calistir(ortam, "check", "--deploy", "--tag", "deployment")
    assert "supportdesk.E020" not in denetim.stderr, denetim.stderr

    with gunicorn_sureci(ortam, tmp_path / "gunicorn.log") as url:
        cevap = requests.get(f"{url}/api/v1/operator/tenants", headers={"Accept-Language": "en"}, timeout=15)
        assert cevap.status_code == 401, cevap.text
        assert cevap.json()["hata"] == {"kod": "KIMLIK_GEREKLI", "mesaj": "Authentication is required for this action."}
        cevap = requests.get(f"{url}/api/v1/operator/tenants", timeout=15)
        assert cevap.json()["hata"]["mesaj"] == "Bu işlem için kimlik bilgisi gerekli."

    # Current catalogs are not written again (the image's code folder is read-only to the service).
    once = en_mo.stat().st_mtime_ns
    assert _calistir(ortam, "migrate", "--noinput").returncode == 0
    assert en_mo.stat().st_mtime_ns == once
