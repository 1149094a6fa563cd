"""Backup and restore of the service (docs/production.md, "Backups"): the PostgreSQL database
with `pg_dump`/`pg_restore` (custom format) and the uploaded files of MEDIA_ROOT as a tar.gz, in
one folder with a manifest (`yedek.json`: what, when, sizes and sha256 of each part).
(ceviri: dosya yok: its messages are for whoever runs the service, through the management commands.)

Used by `manage.py yedek_al --hedef DIR` and `manage.py yedek_yukle --kaynak DIR`, and by the
daily beat job `yedek-al` when YEDEK_KLASORU is set (`zamanli_yedek`: a dated folder, the newest
YEDEK_SAKLA kept), and copied into S3_BACKUP_BUCKET when that is set. Uploads on S3 (S3_BUCKET) are
not copied here: the bucket keeps its own versions (see the guide).

What a restore must be able to trust (issue 37): the manifest records the service's version, the
migrations applied in the dumped database and the PostgreSQL server's version; a restore refuses a
backup whose schema has migrations this code does not know (a newer release's) unless told to; every
file is written 0600 in a 0700 folder (the dump holds password hashes, tokens' secrets, everyone's
chats).
"""
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.storage import storages
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

logger = logging.getLogger(__name__)

MANIFEST = "yedek.json"
VERITABANI = "veritabani.dump"
DOSYALAR = "dosyalar.tar.gz"
# 2: the manifest records `servis_surumu`, `goclar` and `postgresql` (1 is still read).
SURUM = 2
OKUNAN_SURUMLER = (1, 2)
ZAMANLI_AD = re.compile(r"^supportdesk-\d{8}-\d{6}$")


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
    yeni = not hedef.exists()
    hedef.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(hedef, 0o700)
    try:
        return _yedegi_yaz(hedef, pg_dump, args, ortam)
    except BaseException:
        # A half-written backup must not pass for one (nor fill the disk): its folder goes.
        if yeni:
            shutil.rmtree(hedef, ignore_errors=True)
        raise


def _gizli_dosya(yol: Path) -> Path:
    """Create `yol` empty, readable by its owner only, before anything is written into it."""
    os.close(os.open(yol, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    os.chmod(yol, 0o600)  # whatever the umask
    return yol


def _goclar() -> dict[str, list[str]]:
    """The migrations applied in the database, per app (the schema the dump holds)."""
    goclar: dict[str, list[str]] = {}
    for app, ad in sorted(MigrationRecorder(connection).applied_migrations()):
        goclar.setdefault(app, []).append(ad)
    return goclar


def _postgresql_surumu() -> str:
    with connection.cursor() as c:
        c.execute("SHOW server_version")
        return c.fetchone()[0]


def servis_surumu() -> str:
    """The service's version: the API's (docs/api.md), and the build's revision when the deploy
    names one (SENTRY_RELEASE)."""
    surum = settings.SPECTACULAR_SETTINGS["VERSION"]
    yayin = os.environ.get("SENTRY_RELEASE", "").strip()
    return f"{surum}+{yayin}" if yayin else surum


def _yedegi_yaz(hedef: Path, pg_dump: str, args: list[str], ortam: dict) -> dict:
    goclar, pg_surumu = _goclar(), _postgresql_surumu()
    _calistir([pg_dump, "--format=custom", "--no-owner", "--no-privileges",
               "--file", str(_gizli_dosya(hedef / VERITABANI)), *args], ortam)
    manifest = {
        "surum": SURUM,
        "zaman": datetime.now(UTC).isoformat(timespec="seconds"),
        "servis_surumu": servis_surumu(),
        "postgresql": {"sunucu": pg_surumu},
        "goclar": goclar,
        "veritabani": {"dosya": VERITABANI, "boyut": (hedef / VERITABANI).stat().st_size,
                       "sha256": _sha256(hedef / VERITABANI)},
    }
    if _yerel_dosyalar():
        kok = Path(settings.MEDIA_ROOT)
        adet = 0
        with tarfile.open(_gizli_dosya(hedef / DOSYALAR), "w:gz") as tar:
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
    _gizli_dosya(hedef / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
    return manifest


def zamanli_yedek(*, simdi: datetime | None = None) -> dict | None:
    """The beat job (`yedek-al`): a backup into YEDEK_KLASORU/supportdesk-YYYYMMDD-HHMMSS, then
    only the newest YEDEK_SAKLA of those folders are kept; with S3_BACKUP_BUCKET the same folder is
    copied into that bucket too (`kovaya_gonder`), and without YEDEK_KLASORU it is made in a
    temporary folder for that alone (hosts with short-lived disks). Off (None) while neither is set."""
    if not settings.YEDEK_KLASORU and not settings.S3_BACKUP_BUCKET:
        return None
    simdi = simdi or datetime.now(UTC)
    ad = f"supportdesk-{simdi:%Y%m%d-%H%M%S}"
    if not settings.YEDEK_KLASORU:
        with tempfile.TemporaryDirectory(prefix="yedek-") as gecici:
            manifest = yedek_al(Path(gecici) / ad)
            kovaya_gonder(Path(gecici) / ad)
        return manifest
    klasor = Path(settings.YEDEK_KLASORU)
    manifest = yedek_al(klasor / ad)
    eskiler = sorted(y for y in klasor.iterdir() if y.is_dir() and ZAMANLI_AD.match(y.name) and (y / MANIFEST).exists())
    for eski in eskiler[:-max(settings.YEDEK_SAKLA, 1)]:
        shutil.rmtree(eski)
        logger.info("Eski yedek silindi: %s", eski)
    if settings.S3_BACKUP_BUCKET:
        kovaya_gonder(klasor / ad)
    return manifest


def kovaya_gonder(klasor: Path) -> list[str]:
    """Copies a backup folder into S3_BACKUP_BUCKET under the folder's name, the manifest last (a
    prefix with a manifest is a whole backup, as a folder is), then keeps the newest YEDEK_SAKLA
    dated backups there. Returns the object names written. To restore: copy a prefix into an empty
    folder (`aws s3 cp --recursive`) and run `yedek_yukle` on it."""
    depo = storages["yedekler"]
    adlar = []
    for dosya in sorted(klasor.iterdir(), key=lambda y: y.name == MANIFEST):
        with open(dosya, "rb") as f:
            adlar.append(depo.save(f"{klasor.name}/{dosya.name}", File(f)))
    klasorler, _ = depo.listdir("")
    tamamlar = sorted(k for k in klasorler if ZAMANLI_AD.match(k) and depo.exists(f"{k}/{MANIFEST}"))
    for eski in tamamlar[:-max(settings.YEDEK_SAKLA, 1)]:
        for dosya_adi in depo.listdir(eski)[1]:
            depo.delete(f"{eski}/{dosya_adi}")
        logger.info("Kovadaki eski yedek silindi: %s", eski)
    return adlar


def _bos_veritabani() -> bool:
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        return c.fetchone()[0] == 0


def _bilinmeyen_goclar(manifest: dict) -> list[str]:
    """Migrations applied in the backed-up database that this code does not have: the backup comes
    from a newer release, whose schema this code cannot be trusted to read (nor `migrate` to undo)."""
    bilinen = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return [f"{app}.{ad}" for app, adlar in sorted(manifest.get("goclar", {}).items()) for ad in adlar
            if (app, ad) not in bilinen]


def yedek_yukle(kaynak: Path, *, uzerine_yaz: bool = False, yeni_sema: bool = False) -> dict:
    kaynak = Path(kaynak)
    try:
        manifest = json.loads((kaynak / MANIFEST).read_text())
    except (OSError, ValueError) as hata:
        raise YedekHatasi(f"{kaynak / MANIFEST} okunamadı: {hata}") from None
    if manifest.get("surum") not in OKUNAN_SURUMLER:
        raise YedekHatasi(f"Bilinmeyen yedek sürümü: {manifest.get('surum')!r}")
    if (bilinmeyen := _bilinmeyen_goclar(manifest)) and not yeni_sema:
        ornek = ", ".join(bilinmeyen[:5]) + (" …" if len(bilinmeyen) > 5 else "")
        raise YedekHatasi(
            f"Yedek bu koddan daha yeni bir şemadan ({manifest.get('servis_surumu', '?')}): bu kodun bilmediği "
            f"{len(bilinmeyen)} göç uygulanmış ({ornek}). Yedeği alan sürümü kurup yükleyin ya da bilerek "
            "--yeni-sema verin.")
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
