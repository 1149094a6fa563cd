"""Shared plumbing of the provisioning commands (CONTRACT 10): `--json`, one-line errors."""
import json

from django.core.management.base import BaseCommand, CommandError

from .exceptions import ApiHatasi


class ProvisionCommand(BaseCommand):
    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if parser.called_from_command_line:
            # argparse prints the whole usage block before the error; automation reading stderr
            # gets the one line it needs (CONTRACT 10), `--help` still shows the usage.
            def error(message):
                parser.exit(2, f"{parser.prog}: hata: {message}\n")

            parser.error = error
        return parser

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Tek bir JSON nesnesi yazdır.")  # ceviri: yok
        self.add_command_arguments(parser)

    def add_command_arguments(self, parser):
        pass

    def handle(self, *args, **options):
        try:
            result, summary = self.run(**options)
        except (ValueError, LookupError) as exc:
            raise CommandError(_tek_satir(str(exc))) from None
        except ApiHatasi as exc:
            alanlar = "; ".join(f"{k}: {v}" for k, v in (exc.alanlar or {}).items())
            raise CommandError(_tek_satir(alanlar or exc.mesaj)) from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        else:
            self.stdout.write(self.style.SUCCESS(summary))

    def run(self, **options) -> tuple[dict, str]:
        raise NotImplementedError


def _tek_satir(text: str) -> str:
    return " ".join(text.split())
