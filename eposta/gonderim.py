"""Sending one stored mail, and the sweep that sends what is due (CONTRACT 14).

A mail is a `GidenEposta` row before anything is sent. A task per mail tries it; a failure
keeps the row with its next attempt time (exponential backoff with jitter) until
EPOSTA_MAX_ATTEMPTS, then marks it failed. The periodic sweep sends whatever is due and not
touched for a while (a task that was lost with the broker or a killed worker), so an SMTP server
that is down for a while loses nothing. The row is locked while it is sent and checked to be
still waiting, so two workers (a task and the sweep) never send one mail twice.
"""
import logging
import random
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.utils import timezone

from .icerik import tek_satir
from .models import EpostaDurdurma, GidenEposta

logger = logging.getLogger("supportdesk.eposta")
SUPURME_PARCASI = 200
# Mails that carry a one-time secret link (an invitation, a password reset, a sign-up's confirmation): their body leaves the
# database once it is sent or given up, so the outbox is no copy of live links (tenants.Davet keeps
# only a hash for the same reason).
HASSAS_TURLER = (GidenEposta.Tur.DAVET, GidenEposta.Tur.SIFRE_SIFIRLAMA, GidenEposta.Tur.KAYIT_ONAY)
HASSAS_NOT = "(Tek kullanımlık bağlantı içerdiği için içerik gönderildikten sonra saklanmaz.)"  # ceviri: yok


def eposta_gonder(*, eposta_id: int) -> float | None:
    """Try one mail now. Returns the seconds until its next attempt when it failed and will be
    retried, else None (sent, failed for good, stopped, gone, or not waiting)."""
    with transaction.atomic():
        eposta = GidenEposta.objects.select_for_update().filter(pk=eposta_id).first()
        if eposta is None or eposta.durum != GidenEposta.Durum.BEKLIYOR:
            return None
        if _durduruldu(eposta):
            eposta.durum = GidenEposta.Durum.DURDURULDU
            eposta.save(update_fields=["durum"])
            return None
        eposta.deneme += 1
        try:
            _mesaj(eposta).send(fail_silently=False)
        except Exception as exc:  # noqa: BLE001  (SMTP refusals, timeouts, DNS: all retried the same way)
            return _basarisiz(eposta, exc)
        eposta.durum, eposta.gonderilme, eposta.hata = GidenEposta.Durum.GONDERILDI, timezone.now(), ""
        _hassassa_temizle(eposta)
        eposta.save(update_fields=["durum", "gonderilme", "hata", "deneme", "metin", "html"])
        return None


def _hassassa_temizle(eposta: GidenEposta) -> None:
    if eposta.tur in HASSAS_TURLER:
        eposta.metin = eposta.html = HASSAS_NOT


def vadesi_gelenleri_gonder() -> int:
    """Send every waiting mail whose attempt is due and whose own task had its chance."""
    sinir = timezone.now() - timedelta(seconds=settings.EPOSTA_SWEEP_GRACE_SECONDS)
    idler = list(GidenEposta.objects.filter(durum=GidenEposta.Durum.BEKLIYOR, sonraki_deneme__lte=sinir)
                 .order_by("sonraki_deneme", "id").values_list("id", flat=True)[:SUPURME_PARCASI])
    gonderilen = 0
    for eposta_id in idler:
        if eposta_gonder(eposta_id=eposta_id) is None:
            gonderilen += 1
    return gonderilen


def _durduruldu(eposta: GidenEposta) -> bool:
    kapsam = eposta.durdurma_kapsami
    return bool(kapsam) and EpostaDurdurma.objects.filter(musteri_id=eposta.musteri_id, kapsam=kapsam).exists()


def _mesaj(eposta: GidenEposta) -> EmailMultiAlternatives:
    # One line each again here: rows written before services made them so were refused by Django
    # (BadHeaderError) at every attempt.
    basliklar = {ad: tek_satir(deger) for ad, deger in eposta.basliklar.items()}
    kimden = basliklar.pop("From", settings.DEFAULT_FROM_EMAIL)
    reply_to = basliklar.pop("Reply-To", None)
    mesaj = EmailMultiAlternatives(
        subject=tek_satir(eposta.konu), body=eposta.metin, from_email=kimden, to=[eposta.alici],
        reply_to=[reply_to] if reply_to else None, headers={**basliklar, "Message-ID": eposta.message_id},
        connection=get_connection(fail_silently=False),
    )
    mesaj.attach_alternative(eposta.html, "text/html")
    return mesaj


def _basarisiz(eposta: GidenEposta, exc: Exception) -> float | None:
    eposta.hata = f"{type(exc).__name__}: {exc}"[:2000]
    logger.warning("E-posta %s gönderilemedi (deneme %s): %s", eposta.pk, eposta.deneme, eposta.hata)
    if eposta.deneme >= settings.EPOSTA_MAX_ATTEMPTS:
        eposta.durum = GidenEposta.Durum.BASARISIZ
        _hassassa_temizle(eposta)
        eposta.save(update_fields=["durum", "hata", "deneme", "metin", "html"])
        return None
    bekleme = settings.EPOSTA_BACKOFF_BASE_SECONDS * settings.EPOSTA_BACKOFF_FACTOR ** (eposta.deneme - 1)
    bekleme *= 1 + random.uniform(-settings.EPOSTA_BACKOFF_JITTER, settings.EPOSTA_BACKOFF_JITTER)
    eposta.sonraki_deneme = timezone.now() + timedelta(seconds=bekleme)
    eposta.save(update_fields=["hata", "deneme", "sonraki_deneme"])
    return bekleme
