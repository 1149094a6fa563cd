"""The platform admin's way to a visitor's export or erasure (CONTRACT 18), without a membership:

    python manage.py ziyaretci_verisi disa-aktar --musteri 3 --ziyaretci z_abc --cikti ziyaretci.zip
    python manage.py ziyaretci_verisi sil --musteri 3 --ziyaretci z_abc
    python manage.py ziyaretci_verisi saklama            # the retention job, now
    python manage.py ziyaretci_verisi supurge            # files left by a crash, now
"""
import json
import shutil

from django.core.management.base import BaseCommand, CommandError

from gizlilik import services
from tenants.models import Musteri


class Command(BaseCommand):
    help = "Ziyaretçi verisini dışa aktarır ya da siler; saklama süresini ve dosya süpürmesini çalıştırır."

    def add_arguments(self, parser):
        parser.add_argument("islem", choices=["disa-aktar", "sil", "saklama", "supurge"])
        parser.add_argument("--musteri", type=int, help="proje (müşteri) kimliği")
        parser.add_argument("--ziyaretci", help="ziyaretçi kimliği")
        parser.add_argument("--cikti", help="disa-aktar: zip dosyasının yolu")

    def handle(self, *args, islem, musteri=None, ziyaretci=None, cikti=None, **options):
        if islem == "saklama":
            self.stdout.write(json.dumps({"silinen": services.saklama_uygula(musteri_id=musteri)}))
            return
        if islem == "supurge":
            self.stdout.write(json.dumps({"silinen_dosya": services.dosya_supurge()}))
            return
        if musteri is None or not ziyaretci:
            raise CommandError("--musteri ve --ziyaretci gerekli.")
        kayit = Musteri.objects.filter(pk=musteri).first()
        if kayit is None:
            raise CommandError(f"Proje bulunamadı: {musteri}")
        if islem == "sil":
            self.stdout.write(json.dumps({"silinen": services.ziyaretci_sil(musteri=kayit, ziyaretci_id=ziyaretci)}))
            return
        if not cikti:
            raise CommandError("disa-aktar için --cikti gerekli.")
        arsiv = services.ziyaretci_disa_aktar(musteri=kayit, ziyaretci_id=ziyaretci)
        with open(cikti, "wb") as hedef:
            shutil.copyfileobj(arsiv, hedef)
        self.stdout.write(f"{cikti} yazıldı.")
