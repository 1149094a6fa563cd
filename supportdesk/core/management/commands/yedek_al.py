"""`python manage.py yedek_al --hedef DIR`: the database (pg_dump, custom format) and the uploaded
files (MEDIA_ROOT as tar.gz) into DIR, with a manifest (supportdesk/core/yedek.py)."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from supportdesk.core.yedek import YedekHatasi, kovaya_gonder, yedek_al


class Command(BaseCommand):
    help = "Veritabanını ve yüklenen dosyaları bir klasöre yedekler (pg_dump + tar.gz, yedek.json ile)."

    def add_arguments(self, parser):
        parser.add_argument("--hedef", required=True, help="Yedeğin yazılacağı klasör (yok ya da boş olmalı).")
        parser.add_argument("--json", action="store_true", help="Tek bir JSON nesnesi yazdır.")
        parser.add_argument("--kovaya", action="store_true",
                            help="Yedeği S3_BACKUP_BUCKET kovasına da kopyala (klasörün adıyla).")

    def handle(self, *args, hedef, **options):
        if options["kovaya"] and not settings.S3_BACKUP_BUCKET:
            raise CommandError("--kovaya için S3_BACKUP_BUCKET ayarlanmalı.")
        try:
            manifest = yedek_al(hedef)
            if options["kovaya"]:
                kovaya_gonder(Path(hedef))
        except YedekHatasi as hata:
            raise CommandError(str(hata)) from None
        if options["json"]:
            self.stdout.write(json.dumps(manifest, ensure_ascii=False))
        else:
            dosyalar = manifest["dosyalar"]
            ozet = f"{dosyalar['adet']} dosya" if "adet" in dosyalar else "dosyalar nesne deposunda (yedeğe girmedi)"
            boyut = manifest["veritabani"]["boyut"]
            self.stdout.write(self.style.SUCCESS(f"Yedek alındı: {hedef} (veritabanı {boyut} bayt, {ozet})"))
