"""Writes of tickets and uploads. Each is atomic, validates before saving, and emits its
webhook event inside the same transaction (CONTRACT 4, 5, 7)."""
import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from supportdesk.core.exceptions import DesteklenmeyenDosya, DosyaCokBuyuk, DurumCakismasi, GecersizIstek
from supportdesk.core.olaylar import olay_yayinla

from .models import Dosya, Ticket, TicketYanit
from .selectors import dosya_list_by_ids
from .yukleme import EN_BUYUK_BOYUT, mime_tipi_bul

logger = logging.getLogger("supportdesk.tickets")

AD_MAX = 255


def dosya_yukle(*, musteri, ziyaretci_id: str, dosya, ad: str | None = None) -> Dosya:
    """Store a visitor's upload through the storage API after checking size and content type."""
    boyut = dosya.size
    if boyut is None or boyut > EN_BUYUK_BOYUT:
        raise DosyaCokBuyuk()
    if boyut == 0:
        raise GecersizIstek("Dosya boş.", alanlar={"dosya": "Boş dosya yüklenemez."})
    mime_tipi = mime_tipi_bul(dosya)
    if mime_tipi is None:
        raise DesteklenmeyenDosya()
    ad = _dosya_adi(ad if ad is not None else getattr(dosya, "name", ""))
    kayit = Dosya(musteri=musteri, ziyaretci_id=ziyaretci_id, ad=ad, boyut=boyut, mime_tipi=mime_tipi)
    # The storage write happens in save(); if the row then fails, the stored file is removed so
    # nothing is left behind on error.
    try:
        with transaction.atomic():
            kayit.dosya.save(ad, dosya, save=False)
            kayit.save()
    except Exception:
        if kayit.dosya.name:
            kayit.dosya.storage.delete(kayit.dosya.name)
        raise
    return kayit


def _dosya_adi(ad: str) -> str:
    # Only the last path component, printable, bounded: the name is shown back to people.
    ad = (ad or "").replace("\\", "/").rsplit("/", 1)[-1]
    ad = "".join(ch for ch in ad if ch.isprintable()).strip()
    return (ad or "dosya")[:AD_MAX]


def ticket_olustur(
    *, musteri, ziyaretci_id: str, konu: str, mesaj: str, ad: str = "", email: str = "",
    oncelik: str = Ticket.Oncelik.NORMAL, ek_idleri: list[int] | None = None,
) -> Ticket:
    ekler = dosya_list_by_ids(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya_idleri=ek_idleri or [])
    simdi = timezone.now()
    with transaction.atomic():
        ticket = Ticket.objects.create(
            musteri=musteri, ziyaretci_id=ziyaretci_id, konu=konu, ad=ad, email=email, oncelik=oncelik,
            olusturulma=simdi, guncellenme=simdi,
        )
        yanit = TicketYanit.objects.create(ticket=ticket, gonderen=TicketYanit.Gonderen.ZIYARETCI, icerik=mesaj, zaman=simdi)
        if ekler:
            yanit.ekler.set(ekler)
        olay_yayinla(musteri_id=musteri.id, olay="yeni_ticket", veri={
            "ticket_id": ticket.id, "musteri_id": musteri.id, "ziyaretci_id": ziyaretci_id,
            "konu": konu, "oncelik": oncelik,
        })
    return ticket


def ticket_ziyaretci_yanitla(*, ticket: Ticket, icerik: str, ek_idleri: list[int] | None = None) -> TicketYanit:
    """A visitor's reply reopens a `cozuldu` or `beklemede` ticket; `kapandi` is terminal (CONTRACT 4)."""
    ekler = dosya_list_by_ids(musteri=ticket.musteri, ziyaretci_id=ticket.ziyaretci_id, dosya_idleri=ek_idleri or [])
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yanit = _yanit_ekle(kilitli, gonderen=TicketYanit.Gonderen.ZIYARETCI, icerik=icerik, ekler=ekler)
        if kilitli.durum in (Ticket.Durum.COZULDU, Ticket.Durum.BEKLEMEDE):
            kilitli.durum = Ticket.Durum.ACIK
        kilitli.guncellenme = yanit.zaman
        kilitli.save(update_fields=["durum", "guncellenme"])
    _tazele(ticket, kilitli)
    return yanit


def ticket_operator_yanitla(*, ticket: Ticket, operator, icerik: str, durum: str | None = None) -> TicketYanit:
    """An operator's reply leaves the status as it is unless `durum` is given (CONTRACT 4)."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yanit = _yanit_ekle(kilitli, gonderen=TicketYanit.Gonderen.OPERATOR, icerik=icerik, operator=operator)
        kilitli.guncellenme = yanit.zaman
        if durum is not None:
            _durum_degistir(kilitli, durum=durum, operator=operator)
        kilitli.save(update_fields=["durum", "guncellenme"])
    _tazele(ticket, kilitli)
    return yanit


def ticket_durum_ayarla(*, ticket: Ticket, durum: str, operator) -> Ticket:
    """Any status may be set, except out of `kapandi` (terminal: 409)."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        _durum_degistir(kilitli, durum=durum, operator=operator)
        kilitli.guncellenme = timezone.now()
        kilitli.save(update_fields=["durum", "guncellenme"])
    _tazele(ticket, kilitli)
    return ticket


def _kilitle(ticket: Ticket) -> Ticket:
    # The row lock orders concurrent replies and status changes, so a reply can never land on a
    # ticket that another request has just closed.
    kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
    if kilitli.durum == Ticket.Durum.KAPANDI:
        raise DurumCakismasi("Kapanmış bir ticket değiştirilemez.")
    return kilitli


def _durum_degistir(ticket: Ticket, *, durum: str, operator) -> None:
    if durum not in Ticket.Durum.values:
        raise GecersizIstek(alanlar={"durum": f"Geçerli değerler: {', '.join(Ticket.Durum.values)}."})
    onceki, ticket.durum = ticket.durum, durum
    if durum == Ticket.Durum.COZULDU and onceki != Ticket.Durum.COZULDU:
        olay_yayinla(musteri_id=ticket.musteri_id, olay="ticket_cozuldu", veri={
            "ticket_id": ticket.id, "musteri_id": ticket.musteri_id, "operator_id": operator.id if operator else None,
        })


def _yanit_ekle(ticket: Ticket, *, gonderen: str, icerik: str, operator=None, ekler=()) -> TicketYanit:
    yanit = TicketYanit.objects.create(ticket=ticket, gonderen=gonderen, icerik=icerik, operator=operator)
    if ekler:
        yanit.ekler.set(ekler)
    return yanit


def _tazele(ticket: Ticket, kilitli: Ticket) -> None:
    ticket.durum, ticket.guncellenme = kilitli.durum, kilitli.guncellenme


def sahipsiz_dosyalari_temizle(*, gun: int = 7) -> int:
    """Delete uploads older than `gun` days that no ticket reply or chat message uses, with their
    stored files. Abandoned uploads (the visitor never sent the form) would otherwise pile up."""
    from django.db.models import Exists, OuterRef

    from chat.models import Mesaj

    sinir = timezone.now() - timedelta(days=gun)
    sahipsiz = Dosya.objects.filter(olusturulma__lt=sinir).exclude(ticket_yanitlari__isnull=False).exclude(
        Exists(Mesaj.objects.filter(ek_id=OuterRef("pk")))
    )
    silinen = 0
    for dosya in sahipsiz.iterator(chunk_size=500):
        with transaction.atomic():
            adi = dosya.dosya.name
            dosya.delete()
            # The stored bytes go only after the row is gone for good.
            transaction.on_commit(lambda adi=adi, depo=dosya.dosya.storage: depo.delete(adi))
        silinen += 1
    logger.info("Sahipsiz %s dosya silindi.", silinen)
    return silinen
