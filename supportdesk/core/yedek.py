"""Backup and restore of the service (docs/production.md, "Backups"): the PostgreSQL database
with `pg_dump`/`pg_restore` (custom format) and the uploaded files of MEDIA_ROOT as a tar.gz, in
one folder with a manifest (`yedek.json`: what, when, sizes and sha256 of each part).
(ceviri: dosya yok: its messages are for whoever runs the service, through the management commands.)

Used by `manage.py yedek_al --hedef DIR` and `manage.py yedek_yukle --kaynak DIR`. Uploads on
S3 (AWS_STORAGE_BUCKET_NAME) are not copied here: the bucket keeps its own versions (see the guide).
"""
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection

MANIFEST = "yedek.json"
VERITABANI = "veritabani.dump"
DOSYALAR = "dosyalar.tar.gz"
SURUM = 1


class YedekHatasi(Exception):
    pass


def _pg_ortami() -> tuple[list[str], dict]:
    """Connection arguments for pg_dump / pg_restore; the password goes in the environment, never argv."""
    d = connection.settings_dict
    if d["ENGINE"] != "django.db.backends.postgresql":
        raise YedekHatasi("Yedekleme PostgreSQL ister (DATABASE_URL=postgres://...); SQLite dosyası kopyalanarak yedeklenir.")
    args = ["--host", d.get("HOST") or "127.0.0.1", "--port", str(d.get("PORT") or 5432), "--dbname", d["NAME"]]
    if d.get("USER"):
        args += ["--username", d["USER"]]
    ortam = {**os.environ}
    if d.get("PASSWORD"):
        ortam["PGPASSWORD"] = d["PASSWORD"]
    return args, ortam


def _arac(ad: str) -> str:
    yol = shutil.which(ad)
    if not yol:
        raise YedekHatasi(f"{ad} bulunamadı: PostgreSQL istemci araçlarını kurun (Debian: postgresql-client).")
    return yol


def _calistir(komut: list[str], ortam: dict) -> None:
    sonuc = subprocess.run(komut, env=ortam, capture_output=True, text=True)
    if sonuc.returncode != 0:
        raise YedekHatasi(f"{Path(komut[0]).name} başarısız ({sonuc.returncode}): {sonuc.stderr.strip()[-2000:]}")


def _sha256(yol: Path) -> str:
    h = hashlib.sha256()
    with open(yol, "rb") as f:
        for parca in iter(lambda: f.read(1 << 20), b""):
            h.update(parca)
    return h.hexdigest()


def _yerel_dosyalar() -> bool:
    return settings.STORAGES["default"]["BACKEND"] == "django.core.files.storage.FileSystemStorage"


def yedek_al(hedef: Path) -> dict:
    hedef = Path(hedef)
    if hedef.exists() and any(hedef.iterdir()):
        raise YedekHatasi(f"{hedef} boş değil: her yedek kendi klasörüne alınır.")
    args, ortam = _pg_ortami()
    pg_dump = _arac("pg_dump")
    hedef.mkdir(parents=True, exist_ok=True)
    _calistir([pg_dump, "--format=custom", "--no-owner", "--no-privileges", "--file", str(hedef / VERITABANI), *args], ortam)
    manifest = {
        "surum": SURUM,
        "zaman": datetime.now(UTC).isoformat(timespec="seconds"),
        "veritabani": {"dosya": VERITABANI, "boyut": (hedef / VERITABANI).stat().st_size,
                       "sha256": _sha256(hedef / VERITABANI)},
    }
    if _yerel_dosyalar():
        kok = Path(settings.MEDIA_ROOT)
        adet = 0
        with tarfile.open(hedef / DOSYALAR, "w:gz") as tar:
            if kok.is_dir():
                for yol in sorted(kok.rglob("*")):
                    if yol.is_file() and not yol.is_symlink():
                        tar.add(yol, arcname=str(yol.relative_to(kok)), recursive=False)
                        adet += 1
        manifest["dosyalar"] = {"dosya": DOSYALAR, "adet": adet, "boyut": (hedef / DOSYALAR).stat().st_size,
                                "sha256": _sha256(hedef / DOSYALAR)}
    else:
        manifest["dosyalar"] = {"depolama": settings.STORAGES["default"]["BACKEND"],
                                "not": "Yüklenen dosyalar nesne deposunda; kovanın kendi sürümleri/kopyası yedektir."}
    (hedef / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
    return manifest


def _bos_veritabani() -> bool:
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        return c.fetchone()[0] == 0


def yedek_yukle(kaynak: Path, *, uzerine_yaz: bool = False) -> dict:
    kaynak = Path(kaynak)
    try:
        manifest = json.loads((kaynak / MANIFEST).read_text())
    except (OSError, ValueError) as hata:
        raise YedekHatasi(f"{kaynak / MANIFEST} okunamadı: {hata}") from None
    if manifest.get("surum") != SURUM:
        raise YedekHatasi(f"Bilinmeyen yedek sürümü: {manifest.get('surum')!r}")
    for parca in (manifest["veritabani"], manifest["dosyalar"]):
        if "dosya" in parca and _sha256(kaynak / parca["dosya"]) != parca["sha256"]:
            raise YedekHatasi(f"{parca['dosya']}: sha256 tutmuyor, yedek bozuk.")
    args, ortam = _pg_ortami()
    pg_restore = _arac("pg_restore")
    if not _bos_veritabani() and not uzerine_yaz:
        raise YedekHatasi(f"{connection.settings_dict['NAME']} veritabanı boş değil: boş bir veritabanına yükleyin "
                          "ya da --uzerine-yaz verin (mevcut tablolar silinir).")
    kok = Path(settings.MEDIA_ROOT)
    if "dosya" in manifest["dosyalar"] and kok.is_dir() and any(kok.iterdir()) and not uzerine_yaz:
        raise YedekHatasi(f"{kok} (MEDIA_ROOT) boş değil: boş bir klasöre yükleyin ya da --uzerine-yaz verin.")
    connection.close()  # pg_restore --clean must be able to drop what this connection may hold
    temizle = ["--clean", "--if-exists"] if uzerine_yaz else []
    _calistir([pg_restore, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", *temizle, *args,
               str(kaynak / VERITABANI)], ortam)
    if "dosya" in manifest["dosyalar"]:
        kok.mkdir(parents=True, exist_ok=True)
        with tarfile.open(kaynak / DOSYALAR, "r:gz") as tar:
            tar.extractall(kok, filter="data")  # no absolute paths, no `..`, no links out
    return manifest
