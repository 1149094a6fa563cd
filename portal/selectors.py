"""Reads of the portal. Tenant data is always asked for by the active tenant's id."""
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from chat.models import Oturum
from chat.selectors import bugun_baslangici
from tenants.ayarlar import bolge
from tenants.models import Kullanici, Musteri, Uyelik
from tickets.selectors import acik_ticket_sayilari

from .models import SelfServisProje

PROJE_PENCERESI = timedelta(hours=24)
GUNLUK_PROJE_LIMITI = 3  # spec 8: new self-service projects per 24 hours


def son_projeler(*, kullanici: Kullanici) -> QuerySet[SelfServisProje]:
    """Self-service projects the user opened inside the rolling 24-hour window (spec 8: 3 per 24 hours)."""
    return SelfServisProje.objects.filter(kullanici=kullanici, olusturulma__gte=timezone.now() - PROJE_PENCERESI)


def proje_hakki_kalan(*, kullanici: Kullanici) -> int:
    return max(0, GUNLUK_PROJE_LIMITI - son_projeler(kullanici=kullanici).count())


def aktif_uyelik_bul(*, uyelikler: list[Uyelik], musteri_id) -> Uyelik | None:
    """The membership of `musteri_id` among the user's current (active-tenant) memberships."""
    return next((u for u in uyelikler if u.musteri_id == musteri_id), None)


def trial_kalan_gun(*, musteri: Musteri) -> int | None:
    """Days left = the trial's end date minus today's date, as the banner counts it (CONTRACT 6)."""
    if musteri.trial_bitis is None:
        return None
    tz = bolge(musteri)  # the tenant's days, wherever the server is
    return (timezone.localdate(musteri.trial_bitis, tz) - timezone.localdate(timezone=tz)).days


def acik_ticket_sayisi(*, musteri_id: int) -> int:
    return acik_ticket_sayilari(musteri_idleri=[musteri_id]).get(musteri_id, 0)


def bugunku_oturum_sayisi(*, musteri: Musteri) -> int:
    """Chats of the project started today (the local day of its zone, as the operator dashboard counts)."""
    return Oturum.objects.kapsamda([musteri.pk]).filter(baslangic__gte=bugun_baslangici(bolge(musteri))).count()
