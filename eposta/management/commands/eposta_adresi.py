"""`python manage.py eposta_adresi [--musteri ID]`: the inbound address of a project (mail to it
opens a ticket with `kanal` `eposta`), or of every active project, one per line."""
from django.core.management.base import BaseCommand, CommandError

from eposta.tokenlar import musteri_gelen_adresi
from tenants.models import Musteri


class Command(BaseCommand):
    help = "Projenin gelen e-posta adresini yazdırır (yeni ticket açar)."  # ceviri: yok

    def add_arguments(self, parser):
        parser.add_argument("--musteri", type=int, help="Proje (müşteri) id'si; verilmezse tüm aktif projeler.")  # ceviri: yok

    def handle(self, *args, musteri=None, **options):
        if musteri is not None:
            if not Musteri.objects.filter(pk=musteri).exists():
                raise CommandError(f"Proje #{musteri} bulunamadı.")  # ceviri: yok
            self.stdout.write(musteri_gelen_adresi(musteri))
            return
        for m in Musteri.objects.filter(aktif=True).order_by("id"):
            self.stdout.write(f"proje #{m.id} {m.firma_adi}: {musteri_gelen_adresi(m.id)}")
