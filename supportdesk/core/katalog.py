"""The compiled translation catalogs (`locale/*/LC_MESSAGES/*.mo`, CONTRACT 19; issue 37).
(ceviri: dosya yok: its lines are for whoever runs the service.)

The `.mo` files are built, not kept in git. A checkout started without building them (the
Procfile's release phase and `gunicorn`, systemd units after a `git pull`) served every English
user in Turkish without a word in any log. So:

- `eksikleri_derle()` builds every catalog that is missing or older than its `.po`, in Python (no
  GNU gettext needed: the runtime image and most platforms have no `msgfmt`), and `migrate` calls
  it (`migrate_sonrasi`, on `post_migrate`): the release phase of every topology compiles what it
  ships. A catalog already current (the image compiles them at build time) is not written again,
  so a read-only code folder is fine; one that cannot be written is logged and left to the check.
- `check --deploy` refuses a missing or stale catalog (`supportdesk/core/checks.py`).
"""
import array
import ast
import logging
import os
import struct
import tempfile
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)


def kataloglar() -> list[tuple[Path, Path]]:
    """(`.po`, `.mo`) of every catalog of the project's LOCALE_PATHS."""
    return [(po, po.with_suffix(".mo")) for kok in settings.LOCALE_PATHS
            for po in sorted(Path(kok).glob("*/LC_MESSAGES/*.po"))]


def derlenmesi_gerekenler() -> list[tuple[Path, Path]]:
    """The catalogs whose `.mo` is missing or older than its `.po`."""
    return [(po, mo) for po, mo in kataloglar()
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime]


def eksikleri_derle() -> list[Path]:
    """Compile what `derlenmesi_gerekenler` names; returns the `.mo` files written. A folder that
    cannot be written is logged (the deployment check then names the catalog), never raised: a
    migration must not fail over a translation."""
    yazilan = []
    for po, mo in derlenmesi_gerekenler():
        try:
            derle(po, mo)
        except OSError as hata:
            logger.error("Çeviri kataloğu derlenemedi: %s (%s)", mo, hata)
        else:
            yazilan.append(mo)
    return yazilan


def migrate_sonrasi(sender=None, verbosity=1, **kwargs) -> None:
    for mo in eksikleri_derle():
        if verbosity:
            print(f"Çeviri kataloğu derlendi: {mo}")


# --- .po -> .mo, as GNU msgfmt (and CPython's Tools/i18n/msgfmt.py) write it ---------------------
def derle(po: Path, mo: Path) -> None:
    """Write `mo` from `po` atomically (a reader never sees half a file; two processes compiling
    at once each write the same bytes)."""
    veri = mo_baytlari(po_oku(po.read_text(encoding="utf-8")))
    fd, gecici = tempfile.mkstemp(dir=mo.parent, prefix=".derleniyor-", suffix=".mo")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(veri)
        os.chmod(gecici, 0o644)
        os.replace(gecici, mo)
    except BaseException:
        Path(gecici).unlink(missing_ok=True)
        raise


def _dize(satir: str) -> str:
    # A .po string is a C string literal; Python reads the escapes the catalogs use alike.
    return ast.literal_eval(satir)


def po_oku(metin: str) -> dict[bytes, bytes]:
    """The translated entries of a `.po` file (UTF-8): key `msgid` (`msgctxt\\x04msgid`, plurals
    `msgid\\0msgid_plural`) → `msgstr` (plurals joined by `\\0`). Fuzzy and untranslated entries
    are left out, as msgfmt leaves them; the header (msgid "") is kept, fuzzy or not."""
    girdiler: dict[bytes, bytes] = {}
    girdi: dict = {}
    bulanik = False
    alan = None

    def bitir():
        nonlocal girdi, bulanik
        if "msgid" in girdi:
            ceviriler = girdi.get("msgstr", {})
            anahtar = girdi["msgid"]
            if "msgid_plural" in girdi:
                anahtar += "\0" + girdi["msgid_plural"]
            if "msgctxt" in girdi:
                anahtar = girdi["msgctxt"] + "\x04" + anahtar
            degerler = [ceviriler[i] for i in sorted(ceviriler)]
            baslik = girdi["msgid"] == "" and "msgctxt" not in girdi
            if any(degerler) and (baslik or not bulanik):
                girdiler[anahtar.encode()] = "\0".join(degerler).encode()
        girdi, bulanik = {}, False

    for satir in metin.splitlines():
        satir = satir.strip()
        if satir.startswith("#"):
            if satir.startswith("#,") and "fuzzy" in satir:
                if "msgid" in girdi:
                    bitir()
                bulanik = True
            continue
        if not satir:
            continue
        anahtar, _, deger = satir.partition(" ")
        if satir.startswith('"'):
            if alan is None:
                raise ValueError(f"Beklenmeyen satır: {satir!r}")
            ad, sira = alan
            if sira is None:
                girdi[ad] += _dize(satir)
            else:
                girdi[ad][sira] += _dize(satir)
            continue
        if anahtar in ("msgctxt", "msgid") and "msgstr" in girdi:
            bitir()
        if anahtar in ("msgctxt", "msgid", "msgid_plural"):
            girdi[anahtar] = _dize(deger)
            alan = (anahtar, None)
        elif anahtar.startswith("msgstr"):
            sira = int(anahtar[len("msgstr["):-1]) if anahtar != "msgstr" else 0
            girdi.setdefault("msgstr", {})[sira] = _dize(deger)
            alan = ("msgstr", sira)
        else:
            raise ValueError(f"Beklenmeyen satır: {satir!r}")
    bitir()
    return girdiler


def mo_baytlari(girdiler: dict[bytes, bytes]) -> bytes:
    """The GNU `.mo` layout: header, the key and value offset tables (sorted keys), then the
    strings; no hash table (gettext readers do not need it). Native byte order, as msgfmt writes it
    (readers tell the order by the magic number)."""
    anahtarlar = sorted(girdiler)
    kimlikler = degerler = b""
    konumlar = []
    for k in anahtarlar:
        konumlar.append((len(kimlikler), len(k), len(degerler), len(girdiler[k])))
        kimlikler += k + b"\0"
        degerler += girdiler[k] + b"\0"
    anahtar_basi = 7 * 4 + 16 * len(anahtarlar)
    deger_basi = anahtar_basi + len(kimlikler)
    k_tablo, d_tablo = [], []
    for k_konum, k_uzunluk, d_konum, d_uzunluk in konumlar:
        k_tablo += [k_uzunluk, k_konum + anahtar_basi]
        d_tablo += [d_uzunluk, d_konum + deger_basi]
    bas = struct.pack("Iiiiiii", 0x950412DE, 0, len(anahtarlar), 7 * 4, 7 * 4 + len(anahtarlar) * 8, 0, 0)
    return bas + array.array("i", k_tablo + d_tablo).tobytes() + kimlikler + degerler
