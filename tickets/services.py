"""Writes of tickets. Each is atomic, validates before saving, and emits its webhook event
inside the same transaction (CONTRACT 4, 7). Attachments are uploads of the `dosyalar` app."""
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from dosyalar.selectors import dosya_list_by_ids, operator_dosya_list_by_ids
from supportdesk.core.exceptions import DurumCakismasi, GecersizIstek
from supportdesk.core.olaylar import yayinla
from tenants.atama import SON_TICKET_ATAMA, atandi_isaretle, otomatik_mi, uygun_uyelikler
from tenants.models import Musteri

from . import sla
from .models import Ticket, TicketYanit


def ticket_olustur(
    *, musteri, ziyaretci_id: str, konu: str, mesaj: str, ad: str = "", email: str = "",
    oncelik: str = Ticket.Oncelik.NORMAL, ek_idleri: list[int] | None = None, kanal: str = Ticket.Kanal.WIDGET,
) -> Ticket:
    ekler = dosya_list_by_ids(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya_idleri=ek_idleri or [])
    simdi = timezone.now()
    with transaction.atomic():
        ticket = Ticket(
            musteri=musteri, ziyaretci_id=ziyaretci_id, konu=konu, ad=ad, email=email, oncelik=oncelik,
            kanal=kanal, olusturulma=simdi, guncellenme=simdi,
        )
        sla.olusturuldu(ticket, sla.baglam(musteri, simdi=simdi))
        ticket.save(force_insert=True)
        yanit = TicketYanit.objects.create(ticket=ticket, gonderen=TicketYanit.Gonderen.ZIYARETCI, icerik=mesaj, zaman=simdi)
        if ekler:
            yanit.ekler.set(ekler)
        if otomatik_mi(musteri.atama_modu):
            _otomatik_ata(ticket)
        yayinla("yeni_ticket", musteri_id=musteri.id, veri={
            "ticket_id": ticket.id, "musteri_id": musteri.id, "ziyaretci_id": ziyaretci_id,
            "konu": konu, "oncelik": oncelik,
        })
        _ticket_yayinla(ticket, olay="ticket_yeni")
    return ticket


def ticket_ziyaretci_yanitla(*, ticket: Ticket, icerik: str, ek_idleri: list[int] | None = None) -> TicketYanit:
    """A visitor's reply reopens a `cozuldu` or `beklemede` ticket; `kapandi` is terminal (CONTRACT 4)."""
    ekler = dosya_list_by_ids(musteri=ticket.musteri, ziyaretci_id=ticket.ziyaretci_id, dosya_idleri=ek_idleri or [])
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yanit = _yanit_ekle(kilitli, gonderen=TicketYanit.Gonderen.ZIYARETCI, icerik=icerik, ekler=ekler)
        b = sla.baglam(kilitli.musteri, simdi=yanit.zaman)
        onceki = kilitli.durum
        if kilitli.durum in (Ticket.Durum.COZULDU, Ticket.Durum.BEKLEMEDE):
            kilitli.durum = Ticket.Durum.ACIK
            sla.durum_degisti(kilitli, b, onceki)
        sla.ziyaretci_yanitladi(kilitli, b)
        kilitli.guncellenme = yanit.zaman
        kilitli.save(update_fields=["durum", "guncellenme", *sla.ALANLAR])
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
        b = sla.baglam(kilitli.musteri, simdi=yanit.zaman)
        if not yanit.ozel:  # a note is no response (CONTRACT 16, 17)
            sla.operator_yanitladi(kilitli, b)
        if durum is not None:
            _durum_degistir(kilitli, durum=durum, operator=operator, b=b)
        kilitli.save(update_fields=["durum", "guncellenme", *sla.ALANLAR])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return yanit


def ticket_durum_ayarla(*, ticket: Ticket, durum: str, operator) -> Ticket:
    """Any status may be set, except out of `kapandi` (terminal: 409)."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        kilitli.guncellenme = timezone.now()
        _durum_degistir(kilitli, durum=durum, operator=operator, b=sla.baglam(kilitli.musteri, simdi=kilitli.guncellenme))
        kilitli.save(update_fields=["durum", "guncellenme", *sla.ALANLAR])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return ticket


def _kilitle(ticket: Ticket) -> Ticket:
    # The row lock orders concurrent replies and status changes, so a reply can never land on a
    # ticket that another request has just closed.
    kilitli = Ticket.objects.select_for_update(of=("self",)).select_related("musteri").get(pk=ticket.pk)
    if kilitli.durum == Ticket.Durum.KAPANDI:
        raise DurumCakismasi("Kapanmış bir talep değiştirilemez.")
    return kilitli


def _durum_degistir(ticket: Ticket, *, durum: str, operator, b: "sla.Baglam") -> None:
    if durum not in Ticket.Durum.values:
        raise GecersizIstek(alanlar={"durum": f"Geçerli değerler: {', '.join(Ticket.Durum.values)}."})
    onceki, ticket.durum = ticket.durum, durum
    sla.durum_degisti(ticket, b, onceki)
    if durum == Ticket.Durum.COZULDU and onceki != Ticket.Durum.COZULDU:
        yayinla("ticket_cozuldu", musteri_id=ticket.musteri_id, veri={
            "ticket_id": ticket.id, "musteri_id": ticket.musteri_id, "operator_id": operator.id if operator else None,
        })


def _yanit_ekle(ticket: Ticket, *, gonderen: str, icerik: str, operator=None, ekler=()) -> TicketYanit:
    yanit = TicketYanit.objects.create(ticket=ticket, gonderen=gonderen, icerik=icerik, operator=operator)
    if ekler:
        yanit.ekler.set(ekler)
    return yanit


def _tazele(ticket: Ticket, kilitli: Ticket) -> None:
    ticket.durum, ticket.guncellenme = kilitli.durum, kilitli.guncellenme
    for alan in sla.ALANLAR:
        setattr(ticket, alan, getattr(kilitli, alan))



def _ticket_yayinla(ticket: Ticket, *, olay: str = "ticket_guncellendi") -> None:
    # The socket event (CONTRACT 11) carries the ticket as committed; sent after commit.
    yayinla(olay, musteri_id=ticket.musteri_id, veri={"ticket": ticket})


def _acik_ticket_yuku():
    """A membership's load for tickets: its user's open tickets (not `cozuldu`/`kapandi`) there."""
    return Coalesce(Subquery(
        Ticket.objects.filter(musteri_id=OuterRef("musteri_id"), operator_id=OuterRef("kullanici_id"))
        .exclude(durum__in=(Ticket.Durum.COZULDU, Ticket.Durum.KAPANDI))
        .order_by().values("operator_id").annotate(n=Count("id")).values("n")[:1]
    ), 0)


def _otomatik_ata(ticket: Ticket) -> None:
    """CONTRACT 16: a new ticket of a tenant in an automatic mode gets an owner as a chat would
    (tenants.atama: eligible members, `sirayla` / `en_az_yuklu`), counting open tickets and with
    no cap. Under the tenant's row lock (the order of chat.atama), so racing creations follow the
    `sirayla` line exactly. Nobody eligible: the ticket stays without an owner."""
    musteri = Musteri.objects.select_for_update(no_key=True).only("id", "atama_modu").get(pk=ticket.musteri_id)
    if not otomatik_mi(musteri.atama_modu):
        return
    uyelik = uygun_uyelikler(musteri_id=musteri.pk, atama_modu=musteri.atama_modu, yuk=_acik_ticket_yuku(),
                             sinirli=False, son_alan=SON_TICKET_ATAMA).first()
    if uyelik is None:
        return
    ticket.operator_id = uyelik.kullanici_id
    ticket.save(update_fields=["operator"])
    atandi_isaretle(uyelik_id=uyelik.pk, an=timezone.now(), son_alan=SON_TICKET_ATAMA)
