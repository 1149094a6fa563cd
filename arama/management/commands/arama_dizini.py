"""Rebuild the operators' search index (`arama.AramaKaydi`) from the chats and tickets: after the
first deployment of issue 27 on an install with history, or whenever the index is suspected to
have drifted. Idempotent; safe while the service runs."""
from django.core.management.base import BaseCommand

from arama.services import dizini_yeniden_olustur


class Command(BaseCommand):
    help = "Arama dizinini sohbet ve ticketlardan yeniden oluşturur (mevcut kurulumlar için bir kez)."

    def add_arguments(self, parser):
        parser.add_argument("--musteri", type=int, help="Yalnızca bu müşterinin (proje) kayıtları.")

    def handle(self, *args, musteri=None, **options):
        yaz = self.stdout.write if options["verbosity"] > 1 else None
        chatler, ticketlar = dizini_yeniden_olustur(musteri_id=musteri, yaz=yaz)
        self.stdout.write(f"Arama dizini: {chatler} sohbet, {ticketlar} ticket yeniden oluşturuldu.")
