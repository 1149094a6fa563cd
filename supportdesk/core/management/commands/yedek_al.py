"""`python manage.py yedek_al --hedef DIR`: the database (pg_dump, custom format) and the uploaded
files (MEDIA_ROOT as tar.gz) into DIR, with a manifest (supportdesk/core/yedek.py)."""
import json

from django.core.management.base import BaseCommand, CommandError

from supportdesk.core.yedek import YedekHatasi, yedek_al


class Command(BaseCommand):
    help = "Veritabanını ve yüklenen dosyaları bir klasöre yedekler (pg_dump + tar.gz, yedek.json ile)."

    def add_arguments(self, parser):
        parser.add_argument("--hedef", required=True, help="Yedeğin yazılacağı klasör (yok ya da boş olmalı).")
        parser.add_argument("--json", action="store_true", help="Tek bir JSON nesnesi yazdır.")

    def handle(self, *args, hedef, **options):
        try:
            manifest = yedek_al(hedef)
        except YedekHatasi as hata:
            raise CommandError(str(hata)) from None
        if options["json"]:
            self.stdout.write(json.dumps(manifest, ensure_ascii=False))
        else:
            dosyalar = manifest["dosyalar"]
            ozet = f"{dosyalar['adet']} dosya" if "adet" in dosyalar else "dosyalar nesne deposunda (yedeğe girmedi)"
            boyut = manifest["veritabani"]["boyut"]
            self.stdout.write(self.style.SUCCESS(f"Yedek alındı: {hedef} (veritabanı {boyut} bayt, {ozet})"))
