"""Writes of the portal: sign-up, self-service projects, the active project, widget settings.

The tenant itself is created by `tenants.services.musteri_olustur`, the one way a tenant comes
to exist; the portal adds the self-service rules around it (spec 4.6, 8).
"""
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from supportdesk.core.exceptions import LimitAsildi
from tenants.models import Kullanici, Musteri, Uyelik
from tenants.selectors import uyelik_get
from tenants.services import kullanici_olustur, musteri_olustur

from .models import SelfServisProje
from .selectors import GUNLUK_PROJE_LIMITI, PROJE_PENCERESI, son_projeler

TRIAL_GUN = 14  # spec 4.6.4 and 8
PROJE_LIMITI_MESAJI = "24 saat içinde en çok 3 yeni proje oluşturabilirsiniz. Lütfen daha sonra tekrar deneyin."


@transaction.atomic
def proje_olustur(*, kullanici: Kullanici, firma_adi: str) -> Musteri:
    """A self-service project with a 14-day trial; the owner membership comes in the same transaction."""
    # Two tabs submitting at once must not both see "2 so far": lock the user's row, so the count
    # and the insert of one request finish before the other request counts.
    Kullanici.objects.select_for_update().filter(pk=kullanici.pk).first()
    zamanlar = list(son_projeler(kullanici=kullanici).order_by("olusturulma").values_list("olusturulma", flat=True))
    if len(zamanlar) >= GUNLUK_PROJE_LIMITI:
        bekle = zamanlar[0] + PROJE_PENCERESI - timezone.now()
        raise LimitAsildi(PROJE_LIMITI_MESAJI, retry_after=max(bekle, timedelta(seconds=1)).total_seconds())
    musteri = musteri_olustur(firma_adi=firma_adi, sahip=kullanici, trial_gun=TRIAL_GUN)
    SelfServisProje.objects.create(kullanici=kullanici, musteri=musteri, olusturulma=musteri.olusturulma)
    return musteri


@transaction.atomic
def kayit_ol(*, email: str, sifre: str, firma_adi: str, ad: str = "") -> tuple[Kullanici, Musteri]:
    """Sign-up: the user and a first project (same trial, owner link), or neither.

    The first project is part of the account, not one of the "3 new projects per 24 hours"
    (spec 8) that `POST /portal/projelerim` counts: a new owner may still open three more.
    Account farming is what the sign-up rate limit per IP is for.
    """
    kullanici = kullanici_olustur(email=email.strip().lower(), sifre=sifre, ad=ad)
    musteri = musteri_olustur(firma_adi=firma_adi, sahip=kullanici, trial_gun=TRIAL_GUN)
    return kullanici, musteri


@transaction.atomic
def aktif_proje_sec(*, kullanici: Kullanici, musteri_id: int) -> Uyelik:
    """Spec 4.6.3: the portal's active tenant and the user's `musteri_id` move together.

    Raises `Bulunamadi` for a tenant the user is not (or no longer) a member of; the caller
    stores the id in the session only after this succeeded.
    """
    uyelik = uyelik_get(kullanici=kullanici, musteri_id=musteri_id)
    if kullanici.musteri_id != uyelik.musteri_id:
        Kullanici.objects.filter(pk=kullanici.pk).update(musteri_id=uyelik.musteri_id)
        kullanici.musteri_id = uyelik.musteri_id
    return uyelik


@transaction.atomic
def musteri_kimlik_dogrulama_ayarla(*, musteri: Musteri, zorunlu: bool) -> Musteri:
    """Switch `kimlik_dogrulama_zorunlu` (CONTRACT 6): unsigned customer-info is then refused."""
    if musteri.kimlik_dogrulama_zorunlu != zorunlu:
        musteri.kimlik_dogrulama_zorunlu = zorunlu
        musteri.save(update_fields=["kimlik_dogrulama_zorunlu"])
    return musteri
