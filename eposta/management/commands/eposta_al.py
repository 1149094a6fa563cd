"""`python manage.py eposta_al < msg.eml`: one raw message from stdin, as an MTA pipe delivers it
(e.g. Postfix `destek: "|/srv/app/.venv/bin/python /srv/app/manage.py eposta_al"`). Exit 0 when
stored, already stored or ignored as automatic (an out-of-office reply, a bounce), non-zero with
a one-line reason on stderr otherwise (an MTA then bounces the mail, so the sender learns it was
not taken)."""
import sys

from django.core.management.base import BaseCommand, CommandError

from eposta.services import gelen_eposta_isle
from supportdesk.core.exceptions import ApiHatasi


class Command(BaseCommand):
    help = "Standart girdiden bir ham e-posta (RFC 822) alır: ticket yanıtı ya da yeni ticket."  # ceviri: yok

    def handle(self, *args, **options):
        ham = sys.stdin.buffer.read()
        try:
            kayit, yeni = gelen_eposta_isle(ham=ham)
        except ApiHatasi as exc:
            raise CommandError(f"{exc.kod}: {exc.mesaj}") from None
        if kayit is None:
            self.stdout.write("E-posta yok sayıldı: otomatik yanıt ya da toplu e-posta.")  # ceviri: yok
            return
        durum = "kaydedildi" if yeni else "zaten alınmıştı"  # ceviri: yok
        self.stdout.write(f"E-posta {durum}: {kayit.get_sonuc_display()}, ticket #{kayit.ticket_id}")
