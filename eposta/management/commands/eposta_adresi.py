"""`python manage.py eposta_adresi [--musteri ID]`: the inbound address of a project (mail to it
opens a ticket with `kanal` `eposta`), or of every active project, one per line."""
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from eposta.tokenlar import musteri_gelen_adresi
from supportdesk.core.dil import dilde, kabuk_dili
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
        with dilde(kabuk_dili()):  # `make run` prints it between its own lines: the shell's language
            for m in Musteri.objects.filter(aktif=True).order_by("id"):
                self.stdout.write(_("proje #%(id)s %(firma)s: %(adres)s") % {
                    "id": m.id, "firma": m.firma_adi, "adres": musteri_gelen_adresi(m.id)})
