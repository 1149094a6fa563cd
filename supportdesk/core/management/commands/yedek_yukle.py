"""`python manage.py yedek_yukle --kaynak DIR [--uzerine-yaz] [--yeni-sema]`: restores a backup of
`yedek_al` into the configured database (empty unless --uzerine-yaz) and MEDIA_ROOT, after checking
the manifest's sha256 sums and that this code knows every migration of the backup's schema (a
backup of a newer release is refused unless --yeni-sema). Run `migrate` afterwards when the code is
newer than the backup."""
import json

from django.core.management.base import BaseCommand, CommandError

from supportdesk.core.yedek import YedekHatasi, yedek_yukle


class Command(BaseCommand):
    help = "yedek_al ile alınan yedeği veritabanına ve MEDIA_ROOT'a geri yükler."

    def add_arguments(self, parser):
        parser.add_argument("--kaynak", required=True, help="yedek_al'ın yazdığı klasör.")
        parser.add_argument("--uzerine-yaz", action="store_true",
                            help="Dolu bir veritabanının tablolarını silip yedeği yükle; dosyaları mevcutların üzerine aç.")
        parser.add_argument("--yeni-sema", action="store_true",
                            help="Bu kodun bilmediği göçlerle (daha yeni bir sürümden) alınmış yedeği de yükle.")
        parser.add_argument("--json", action="store_true", help="Tek bir JSON nesnesi yazdır.")

    def handle(self, *args, kaynak, uzerine_yaz=False, yeni_sema=False, **options):
        try:
            manifest = yedek_yukle(kaynak, uzerine_yaz=uzerine_yaz, yeni_sema=yeni_sema)
        except YedekHatasi as hata:
            raise CommandError(str(hata)) from None
        if options["json"]:
            self.stdout.write(json.dumps(manifest, ensure_ascii=False))
        else:
            self.stdout.write(self.style.SUCCESS(f"Yedek yüklendi: {kaynak} ({manifest['zaman']} tarihli)"))
