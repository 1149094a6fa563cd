"""Shared plumbing of the provisioning commands (CONTRACT 10): `--json`, one-line errors."""
import json

from django.core.management.base import BaseCommand, CommandError


class ProvisionCommand(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Tek bir JSON nesnesi yazdır.")
        self.add_command_arguments(parser)

    def add_command_arguments(self, parser):
        pass

    def handle(self, *args, **options):
        try:
            result, summary = self.run(**options)
        except (ValueError, LookupError) as exc:
            raise CommandError(str(exc)) from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        else:
            self.stdout.write(self.style.SUCCESS(summary))

    def run(self, **options) -> tuple[dict, str]:
        raise NotImplementedError
