from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from supportdesk.core.girdi import ID_MAX
from supportdesk.core.komut import ProvisionCommand
from tenants.models import Kullanici, Musteri, Uyelik
from tenants.services import kullanici_olustur, kullanici_profil_guncelle, uyelik_ekle

MAX_CHAT_UST = 2_147_483_647  # the column's range (PositiveIntegerField) on every database


class Command(ProvisionCommand):
    help = "Bir kullanıcı (operatör) oluşturur ya da var olana yeni üyelikler ekler."

    def add_command_arguments(self, parser):
        parser.add_argument("--email", required=True)
        parser.add_argument("--sifre", required=True)
        parser.add_argument("--musteri", action="append", type=int, required=True)
        parser.add_argument("--rol", default=None, choices=Uyelik.Rol.values,
                            help="Yeni üyeliklerde varsayılan operator; var olan üyelikte verilirse değişir.")
        parser.add_argument("--max-chat", type=int, default=None, dest="max_chat")
        parser.add_argument("--ad", default=None, help="Ziyaretçilerin gördüğü ad (verilirse var olanda da değişir).")

    @transaction.atomic
    def run(self, *, email, sifre, musteri, rol, max_chat, ad=None, **_):
        email = email.strip().lower()
        try:
            validate_email(email)
        except ValidationError:
            raise ValueError(f"Geçersiz e-posta: {email}") from None
        if max_chat is not None and not 1 <= max_chat <= MAX_CHAT_UST:
            raise ValueError(f"--max-chat 1 ile {MAX_CHAT_UST} arasında olmalı")
        musteriler = list(Musteri.objects.filter(pk__in=[i for i in musteri if 0 < i <= ID_MAX]))
        missing = sorted(set(musteri) - {m.pk for m in musteriler})
        if missing:
            raise LookupError(f"Proje bulunamadı: {missing}")
        if not sifre:
            raise ValueError("--sifre boş olamaz")
        # Platform admins and automation are trusted here: Django's password validators guard the
        # portal's sign-up, not this command.
        user = Kullanici.objects.filter(email=email).first()
        if user is None:
            user = kullanici_olustur(email=email, sifre=sifre)
        if ad is not None:
            kullanici_profil_guncelle(kullanici=user, ad=ad, avatar=user.avatar)
        elif not user.has_usable_password():
            # An owner created by `musteri_olustur --sahip` gets its first password here.
            user.set_password(sifre)
            user.save(update_fields=["password"])
        by_id = {m.pk: m for m in musteriler}
        existing = {u.musteri_id: u for u in Uyelik.objects.filter(kullanici=user, musteri_id__in=musteri)}
        for musteri_id in dict.fromkeys(musteri):
            uyelik = existing.get(musteri_id)
            # Re-running for an existing membership changes only what was asked for: an owner
            # is never demoted by a default.
            uyelik_ekle(
                kullanici=user, musteri=by_id[musteri_id],
                rol=rol or (uyelik.rol if uyelik else Uyelik.Rol.OPERATOR),
                max_chat_per_tenant=max_chat if max_chat is not None else (uyelik.max_chat_per_tenant if uyelik else None),
            )
        ids = list(user.uyelikler.order_by("sira", "musteri_id").values_list("musteri_id", flat=True))
        return {"id": user.id, "email": user.email, "musteri_idleri": ids}, f"Kullanıcı hazır: {user.email} {ids}"
