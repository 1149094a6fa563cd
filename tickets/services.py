"""Writes of tickets. Each is atomic, validates before saving, and emits its webhook event
inside the same transaction (CONTRACT 4, 7). Attachments are uploads of the `dosyalar` app."""
from django.db import transaction
from django.utils import timezone

from dosyalar.selectors import dosya_list_by_ids, operator_dosya_list_by_ids
from supportdesk.core.exceptions import DurumCakismasi, GecersizIstek
from supportdesk.core.olaylar import yayinla
from tenants.etiketler import etiket_adlari, etiketler_coz
from tenants.selectors import uye_idleri_dogrula

from .models import Ticket, TicketYanit


def ticket_olustur(
    *, musteri, ziyaretci_id: str, konu: str, mesaj: str, ad: str = "", email: str = "",
    oncelik: str = Ticket.Oncelik.NORMAL, ek_idleri: list[int] | None = None, kanal: str = Ticket.Kanal.WIDGET,
) -> Ticket:
    ekler = dosya_list_by_ids(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya_idleri=ek_idleri or [])
    simdi = timezone.now()
    with transaction.atomic():
        ticket = Ticket.objects.create(
            musteri=musteri, ziyaretci_id=ziyaretci_id, konu=konu, ad=ad, email=email, oncelik=oncelik,
            kanal=kanal, olusturulma=simdi, guncellenme=simdi,
        )
        yanit = TicketYanit.objects.create(ticket=ticket, gonderen=TicketYanit.Gonderen.ZIYARETCI, icerik=mesaj, zaman=simdi)
        if ekler:
            yanit.ekler.set(ekler)
        yayinla("yeni_ticket", musteri_id=musteri.id, veri={
            "ticket_id": ticket.id, "musteri_id": musteri.id, "ziyaretci_id": ziyaretci_id,
            "konu": konu, "oncelik": oncelik, "etiketler": [],  # CONTRACT 16: a new ticket has no labels yet
        })
        _ticket_yayinla(ticket, olay="ticket_yeni")
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
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return yanit


def ticket_operator_yanitla(*, ticket: Ticket, operator, icerik: str, durum: str | None = None,
                            ek_idleri: list[int] | None = None) -> TicketYanit:
    """An operator's reply leaves the status as it is unless `durum` is given (CONTRACT 4).
    Attachments are the operator's own uploads in the ticket's tenant (404 for any other)."""
    ekler = operator_dosya_list_by_ids(musteri_id=ticket.musteri_id, kullanici=operator, dosya_idleri=ek_idleri or [])
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yanit = _yanit_ekle(kilitli, gonderen=TicketYanit.Gonderen.OPERATOR, icerik=icerik, operator=operator,
                            ekler=ekler)
        yayinla("ticket_operator_yaniti", musteri_id=kilitli.musteri_id, veri={"yanit_id": yanit.id})
        kilitli.guncellenme = yanit.zaman
        if durum is not None:
            _durum_degistir(kilitli, durum=durum, operator=operator)
        kilitli.save(update_fields=["durum", "guncellenme"])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return yanit


def ticket_not_yaz(*, ticket: Ticket, operator, icerik: str, ek_idleri: list[int] | None = None,
                   bahsedilenler: list[int] | None = None) -> TicketYanit:
    """An internal note (CONTRACT 16): in the ticket's timeline for operators only. It changes no
    state and no `guncellenme` (what a visitor's reply would move), is allowed on a `kapandi`
    ticket, sends no mail to the visitor (no `ticket_operator_yaniti`) and no widget frame; the
    mentioned members (404 unless members of the ticket's tenant) hear of it (`bahsedilme`)."""
    ekler = operator_dosya_list_by_ids(musteri_id=ticket.musteri_id, kullanici=operator, dosya_idleri=ek_idleri or [])
    anilanlar = uye_idleri_dogrula(musteri_id=ticket.musteri_id, kullanici_idleri=bahsedilenler or [])
    with transaction.atomic():
        kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
        yanit = TicketYanit.objects.create(ticket=kilitli, gonderen=TicketYanit.Gonderen.OPERATOR, icerik=icerik,
                                           operator=operator, ozel=True)
        if ekler:
            yanit.ekler.set(ekler)
        yayinla("ticket_guncellendi", musteri_id=kilitli.musteri_id, veri={"ticket": kilitli, "yalniz_operator": True})
        if anilanlar:
            yayinla("bahsedilme", musteri_id=kilitli.musteri_id, veri={
                "yanit": yanit, "musteri_id": kilitli.musteri_id, "ticket_id": kilitli.id,
                "kullanici_idleri": anilanlar, "yazan_id": operator.pk,
            })
    _tazele(ticket, kilitli)
    return yanit


def ticket_duzenle(*, ticket: Ticket, kullanici, ip: str | None = None, **alanlar) -> Ticket:
    """`PATCH /operator/ticket/{id}` (CONTRACT 16): the owner (`operator_id`: an active member of
    the ticket's tenant, else 404; or None) and/or `oncelik`. A closed ticket is terminal (409)."""
    if "oncelik" in alanlar and alanlar["oncelik"] not in Ticket.Oncelik.values:
        raise GecersizIstek(alanlar={"oncelik": f"Geçerli değerler: {', '.join(Ticket.Oncelik.values)}."})
    if alanlar.get("operator_id") is not None:
        uye_idleri_dogrula(musteri_id=ticket.musteri_id, kullanici_idleri=[alanlar["operator_id"]])
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        degisen = [a for a in ("operator_id", "oncelik") if a in alanlar and getattr(kilitli, a) != alanlar[a]]
        for alan in degisen:
            setattr(kilitli, alan, alanlar[alan])
        if degisen:
            kilitli.guncellenme = timezone.now()
            kilitli.save(update_fields=[*degisen, "guncellenme"])
            yayinla("ticket_duzenlendi", musteri_id=kilitli.musteri_id, veri={
                "ticket_id": kilitli.id, "musteri_id": kilitli.musteri_id, "alanlar": degisen,
                "operator_id": kilitli.operator_id, "oncelik": kilitli.oncelik, "kullanici_id": kullanici.pk, "ip": ip,
            })
            _ticket_yayinla(kilitli)
    return kilitli


def ticket_etiketleri_ayarla(*, ticket: Ticket, kullanici, etiket_idleri: list[int], ip: str | None = None) -> Ticket:
    """Set the whole list of a ticket's labels (CONTRACT 16): its own tenant's only (404 else), in
    any state, without moving `guncellenme`; the operators' consoles get the ticket again."""
    yeni = etiketler_coz(musteri_id=ticket.musteri_id, etiket_idleri=etiket_idleri)
    with transaction.atomic():
        kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
        kilitli.etiketler.set(yeni)
        yayinla("etiketler_ayarlandi", musteri_id=kilitli.musteri_id, veri={
            "tur": "ticket", "ticket_id": kilitli.id, "musteri_id": kilitli.musteri_id,
            "etiketler": sorted(e.ad for e in yeni), "kullanici_id": kullanici.pk, "ip": ip,
        })
        yayinla("ticket_guncellendi", musteri_id=kilitli.musteri_id, veri={"ticket": kilitli, "yalniz_operator": True})
    return kilitli


def ticket_durum_ayarla(*, ticket: Ticket, durum: str, operator) -> Ticket:
    """Any status may be set, except out of `kapandi` (terminal: 409)."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        _durum_degistir(kilitli, durum=durum, operator=operator)
        kilitli.guncellenme = timezone.now()
        kilitli.save(update_fields=["durum", "guncellenme"])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return ticket


def _kilitle(ticket: Ticket) -> Ticket:
    # The row lock orders concurrent replies and status changes, so a reply can never land on a
    # ticket that another request has just closed.
    kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
    if kilitli.durum == Ticket.Durum.KAPANDI:
        raise DurumCakismasi("Kapanmış bir talep değiştirilemez.")
    return kilitli


def _durum_degistir(ticket: Ticket, *, durum: str, operator) -> None:
    if durum not in Ticket.Durum.values:
        raise GecersizIstek(alanlar={"durum": f"Geçerli değerler: {', '.join(Ticket.Durum.values)}."})
    onceki, ticket.durum = ticket.durum, durum
    if durum == Ticket.Durum.COZULDU and onceki != Ticket.Durum.COZULDU:
        yayinla("ticket_cozuldu", musteri_id=ticket.musteri_id, veri={
            "ticket_id": ticket.id, "musteri_id": ticket.musteri_id, "operator_id": operator.id if operator else None,
            "etiketler": etiket_adlari(ticket),
        })


def _yanit_ekle(ticket: Ticket, *, gonderen: str, icerik: str, operator=None, ekler=()) -> TicketYanit:
    yanit = TicketYanit.objects.create(ticket=ticket, gonderen=gonderen, icerik=icerik, operator=operator)
    if ekler:
        yanit.ekler.set(ekler)
    return yanit


def _tazele(ticket: Ticket, kilitli: Ticket) -> None:
    ticket.durum, ticket.guncellenme = kilitli.durum, kilitli.guncellenme



def _ticket_yayinla(ticket: Ticket, *, olay: str = "ticket_guncellendi") -> None:
    # The socket event (CONTRACT 11) carries the ticket as committed; sent after commit.
    yayinla(olay, musteri_id=ticket.musteri_id, veri={"ticket": ticket})
