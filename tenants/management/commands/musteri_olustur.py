from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.komut import ProvisionCommand
from tenants.models import Kullanici
from tenants.services import musteri_olustur


class Command(ProvisionCommand):
    help = "Bir proje (müşteri) ve anahtarlarını oluşturur."

    def add_command_arguments(self, parser):
        parser.add_argument("--firma-adi", required=True)
        parser.add_argument("--sahip", help="Sahip kullanıcının e-postası (yoksa şifresiz oluşturulur).")
        parser.add_argument("--izinli-origin", action="append", default=[], dest="izinli_origin")
        parser.add_argument("--kimlik-dogrulama-zorunlu", action="store_true")

    @transaction.atomic
    def run(self, *, firma_adi, sahip, izinli_origin, kimlik_dogrulama_zorunlu, **_):
        owner = None
        if sahip:
            email = sahip.strip().lower()
            try:
                validate_email(email)
            except ValidationError:
                raise ValueError(f"Geçersiz e-posta: {sahip}") from None
            # A new owner gets no usable password: `operator_olustur` (or the portal) gives one.
            owner = Kullanici.objects.filter(email=email).first() or Kullanici.objects.create_user(email=email)
        try:
            musteri = musteri_olustur(
                firma_adi=firma_adi, sahip=owner, izinli_originler=izinli_origin,
                kimlik_dogrulama_zorunlu=kimlik_dogrulama_zorunlu,
            )
        except GecersizIstek as exc:
            raise ValueError("; ".join(f"{k}: {v}" for k, v in (exc.alanlar or {}).items())) from None
        result = {"id": musteri.id, "firma_adi": musteri.firma_adi, "api_key": musteri.api_key, "api_secret": musteri.api_secret}
        return result, f"Proje oluşturuldu: #{musteri.id} {musteri.firma_adi}"
