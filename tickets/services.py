"""Writes of tickets. Each is atomic, validates before saving, and emits its webhook event
inside the same transaction (CONTRACT 4, 7). Attachments are uploads of the `dosyalar` app."""
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dosyalar.selectors import dosya_list_by_ids, operator_dosya_list_by_ids
from kisiler.services import kisi_ziyaretci_bagla
from supportdesk.core.dil import dil_kodu, widget_dili
from supportdesk.core.erteleme import ertelenmis_mi
from supportdesk.core.exceptions import DurumCakismasi, GecersizIstek
from supportdesk.core.kurallar import kurallari_calistir
from supportdesk.core.olaylar import yayinla
from tenants.atama import SON_TICKET_ATAMA, atandi_isaretle, etkin_mod, otomatik_mi, uygun_uyelikler
from tenants.ekipler import ekip_coz
from tenants.etiketler import etiket_adlari, etiketler_coz
from tenants.models import Musteri
from tenants.selectors import uye_idleri_dogrula

from . import sla
from .models import Ticket, TicketYanit


def ticket_olustur(
    *, musteri, ziyaretci_id: str, konu: str, mesaj: str, ad: str = "", email: str = "",
    oncelik: str = Ticket.Oncelik.NORMAL, ek_idleri: list[int] | None = None, kanal: str = Ticket.Kanal.WIDGET,
    dil: str | None = None, ekip_id: int | None = None, oturum_id: int | None = None,
) -> Ticket:
    """`dil`: the ticket's language for good (CONTRACT 19: its visitor mails are written in it): the
    widget's (the view decides it from the request) or the chat's it is made of; when not given
    (e-mail, a server), the tenant's `dil` if `tr` or `en`, else the default. `ekip_id`: the team the
    visitor chose (CONTRACT 22; the view checked it): the owner is chosen among its members.
    `oturum_id`: the chat an operator made it of (CONTRACT 24; one ticket per chat, the caller holds
    the chat's lock)."""
    ekler = dosya_list_by_ids(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya_idleri=ek_idleri or [])
    simdi = timezone.now()
    with transaction.atomic():
        ticket = Ticket(
            musteri=musteri, ziyaretci_id=ziyaretci_id, konu=konu, ad=ad, email=email, oncelik=oncelik,
            kanal=kanal, olusturulma=simdi, guncellenme=simdi, dil=dil_kodu(dil) or widget_dili(musteri),
            ekip_id=ekip_id, oturum_id=oturum_id,
        )
        sla.olusturuldu(ticket, sla.baglam(musteri, simdi=simdi))
        ticket.save(force_insert=True)
        yanit = TicketYanit.objects.create(ticket=ticket, gonderen=TicketYanit.Gonderen.ZIYARETCI, icerik=mesaj, zaman=simdi)
        if ekler:
            yanit.ekler.set(ekler)
        # The visitor's contact (CONTRACT 25): made by its first ticket, one indexed read afterwards.
        kisi_ziyaretci_bagla(musteri_id=musteri.id, ziyaretci_id=ziyaretci_id, ad=ad, email=email)
        if ekip_id is not None or otomatik_mi(musteri.atama_modu):
            _otomatik_ata(ticket)
        yayinla("yeni_ticket", musteri_id=musteri.id, veri={
            "ticket_id": ticket.id, "musteri_id": musteri.id, "ziyaretci_id": ziyaretci_id,
            "konu": konu, "oncelik": oncelik, "etiketler": [],  # CONTRACT 16: a new ticket has no labels yet
            "ekip_id": ticket.ekip_id,
            "ticket": ticket,  # in the process only (the sockets' `ticket_yeni`, search): not in the body
        })
        # CONTRACT 23: the tenant's rules for a new ticket, in this transaction.
        if kurallari_calistir("ticket_olusturuldu", musteri_id=musteri.id, tur="ticket", nesne_id=ticket.id,
                              kurallar_var=musteri.kurallar_var,
                              metin=f"{konu}\n{mesaj}", nesne=ticket):
            ticket.refresh_from_db()
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
        # CONTRACT 24: the visitor's reply wakes a snoozed ticket, in the reply's write.
        uyandi = ertelenmis_mi(kilitli)
        kilitli.ertelendi_kadar, kilitli.ertelendi_ziyaretci = None, False
        kilitli.save(update_fields=["durum", "guncellenme", *sla.ALANLAR,
                                    *(["ertelendi_kadar", "ertelendi_ziyaretci"] if uyandi else [])])
        _ticket_yayinla(kilitli)
        if uyandi:
            _erteleme_yayinla(kilitli, uyandi=True, neden=ERTELEME_ZIYARETCI, aktor_id=None)
        if kurallari_calistir("ziyaretci_mesaji", musteri_id=kilitli.musteri_id, tur="ticket", nesne_id=kilitli.pk,
                              metin=icerik, nesne=kilitli):
            kilitli.refresh_from_db()
    _tazele(ticket, kilitli)
    return yanit


def ticket_operator_yanitla(*, ticket: Ticket, kullanici, icerik: str, durum: str | None = None,
                            ek_idleri: list[int] | None = None) -> TicketYanit:
    """An operator's reply leaves the status as it is unless `durum` is given (CONTRACT 4).
    Attachments are the operator's own uploads in the ticket's tenant (404 for any other)."""
    ekler = operator_dosya_list_by_ids(musteri_id=ticket.musteri_id, kullanici=kullanici, dosya_idleri=ek_idleri or [])
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yanit = _yanit_ekle(kilitli, gonderen=TicketYanit.Gonderen.OPERATOR, icerik=icerik, operator=kullanici,
                            ekler=ekler)
        yayinla("ticket_operator_yaniti", musteri_id=kilitli.musteri_id, veri={"yanit_id": yanit.id})
        kilitli.guncellenme = yanit.zaman
        b = sla.baglam(kilitli.musteri, simdi=yanit.zaman)
        if not yanit.ozel:  # a note is no response (CONTRACT 16, 17)
            sla.operator_yanitladi(kilitli, b)
        if durum is not None:
            _durum_degistir(kilitli, durum=durum, kullanici=kullanici, b=b)
        kilitli.save(update_fields=["durum", "guncellenme", *sla.ALANLAR])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return yanit


def ticket_not_yaz(*, ticket: Ticket, kullanici, icerik: str, ek_idleri: list[int] | None = None,
                   bahsedilenler: list[int] | None = None) -> TicketYanit:
    """An internal note (CONTRACT 16): in the ticket's timeline for operators only. It changes no
    state and no `guncellenme` (what a visitor's reply would move), is allowed on a `kapandi`
    ticket, sends no mail to the visitor (no `ticket_operator_yaniti`) and no widget frame; the
    mentioned members (404 unless members of the ticket's tenant) hear of it (`bahsedilme`)."""
    ekler = operator_dosya_list_by_ids(musteri_id=ticket.musteri_id, kullanici=kullanici, dosya_idleri=ek_idleri or [])
    anilanlar = uye_idleri_dogrula(musteri_id=ticket.musteri_id, kullanici_idleri=bahsedilenler or [])
    with transaction.atomic():
        kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
        yanit = TicketYanit.objects.create(ticket=kilitli, gonderen=TicketYanit.Gonderen.OPERATOR, icerik=icerik,
                                           operator=kullanici, ozel=True)
        if ekler:
            yanit.ekler.set(ekler)
        yayinla("ticket_guncellendi", musteri_id=kilitli.musteri_id, veri={"ticket": kilitli, "yalniz_operator": True})
        if anilanlar:
            yayinla("bahsedilme", musteri_id=kilitli.musteri_id, veri={
                "yanit": yanit, "musteri_id": kilitli.musteri_id, "ticket_id": kilitli.id,
                "kullanici_idleri": anilanlar, "aktor_id": kullanici.pk,
            })
    _tazele(ticket, kilitli)
    return yanit


def ticket_duzenle_dogrula(*, ticket: Ticket, **alanlar) -> None:
    """`ticket_duzenle`'s checks of its input, changing nothing (the Django admin's form asks them
    first); the closed state is checked again under the row lock."""
    if "oncelik" in alanlar and alanlar["oncelik"] not in Ticket.Oncelik.values:
        raise GecersizIstek(alanlar={"oncelik": _gecerli_degerler(Ticket.Oncelik.values)})
    if alanlar.get("operator_id") is not None:
        uye_idleri_dogrula(musteri_id=ticket.musteri_id, kullanici_idleri=[alanlar["operator_id"]])
    if ticket.durum == Ticket.Durum.KAPANDI:
        raise DurumCakismasi(KAPANMIS_MESAJI)


def ticket_duzenle(*, ticket: Ticket, kullanici, ip: str | None = None, **alanlar) -> Ticket:
    """`PATCH /operator/ticket/{id}` (CONTRACT 16): the owner (`operator_id`: an active member of
    the ticket's tenant, else 404; or None) and/or `oncelik`. A closed ticket is terminal (409).
    `ekip_id` (CONTRACT 22): the team first (`ticket_ekibe_ata`: its routing chooses the owner), then
    an owner given in the same call wins."""
    ekip_id = alanlar.pop("ekip_id", _YOK)
    ticket_duzenle_dogrula(ticket=ticket, **alanlar)
    with transaction.atomic():
        if ekip_id is not _YOK:
            ticket_ekibe_ata(ticket=ticket, ekip_id=ekip_id, aktor=kullanici)
        kilitli = _kilitle(ticket)
        degisen = [a for a in ("operator_id", "oncelik") if a in alanlar and getattr(kilitli, a) != alanlar[a]]
        for alan in degisen:
            setattr(kilitli, alan, alanlar[alan])
        if degisen:
            kilitli.guncellenme = timezone.now()
            # CONTRACT 17: a new priority moves the running clocks to its targets, in this write.
            sla_alanlari = sla.ALANLAR if "oncelik" in degisen and sla.oncelik_izle(
                kilitli, sla.baglam(kilitli.musteri, simdi=kilitli.guncellenme)) else []
            kilitli.save(update_fields=[*degisen, "guncellenme", *sla_alanlari])
            _ticket_yayinla(kilitli)
    return kilitli


def ticket_ekibe_ata(*, ticket: Ticket, ekip_id: int | None, aktor=None) -> Ticket:
    """Give a ticket to a team (CONTRACT 22), or to the whole tenant (None): "back to that team's
    routing". The team must be of the ticket's tenant (else 400 with `alanlar.ekip_id`); a closed
    ticket is terminal (409). When the team actually changes, the owner is chosen again as for a
    new ticket: among the team's members in the team's mode (else the tenant's), or none in
    `manuel`. The same team again changes nothing. The caller's membership is the views' to check;
    `aktor` is who did it (None: the service, a rule)."""
    ekip = ekip_coz(musteri_id=ticket.musteri_id, ekip_id=ekip_id)
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yeni_id = ekip.pk if ekip is not None else None
        if kilitli.ekip_id != yeni_id:
            kilitli.ekip_id, kilitli.operator_id = yeni_id, None
            kilitli.guncellenme = timezone.now()
            kilitli.save(update_fields=["ekip", "operator", "guncellenme"])
            _otomatik_ata(kilitli)
            _ticket_yayinla(kilitli)
    ticket.ekip_id, ticket.operator_id, ticket.guncellenme = kilitli.ekip_id, kilitli.operator_id, kilitli.guncellenme
    return kilitli


def ticket_etiketleri_ayarla(*, ticket: Ticket, kullanici, etiket_idleri: list[int], ip: str | None = None) -> Ticket:
    """Set the whole list of a ticket's labels (CONTRACT 16): its own tenant's only (404 else), in
    any state, without moving `guncellenme`; the operators' consoles get the ticket again."""
    yeni = etiketler_coz(musteri_id=ticket.musteri_id, etiket_idleri=etiket_idleri)
    with transaction.atomic():
        kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
        onceki = set(kilitli.etiketler.values_list("id", flat=True))
        kilitli.etiketler.set(yeni)
        yayinla("etiketler_ayarlandi", musteri_id=kilitli.musteri_id, veri={
            "tur": "ticket", "ticket_id": kilitli.id, "musteri_id": kilitli.musteri_id,
            "etiketler": sorted(e.ad for e in yeni), "aktor_id": kullanici.pk if kullanici else None, "ip": ip,
        })
        yayinla("ticket_guncellendi", musteri_id=kilitli.musteri_id, veri={"ticket": kilitli, "yalniz_operator": True})
        for etiket in yeni:  # CONTRACT 23: each label added is an event the rules may react to
            if etiket.pk not in onceki:
                kurallari_calistir("etiket_eklendi", musteri_id=kilitli.musteri_id, tur="ticket", nesne_id=kilitli.pk,
                                   etiket=etiket.ad)
    return kilitli


def ticket_otomatik_yanitla(*, ticket: Ticket, icerik: str) -> TicketYanit:
    """A canned response sent by a rule (CONTRACT 23): a reply without an operator (shown as
    "Otomatik yanıt"), mailed to the visitor as any reply; it is no operator's response for the
    SLA clocks (CONTRACT 17) and leaves the status as it is."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        yanit = _yanit_ekle(kilitli, gonderen=TicketYanit.Gonderen.OPERATOR, icerik=icerik)
        yayinla("ticket_operator_yaniti", musteri_id=kilitli.musteri_id, veri={"yanit_id": yanit.id})
        kilitli.guncellenme = yanit.zaman
        kilitli.save(update_fields=["guncellenme"])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return yanit


def ticket_durum_ayarla(*, ticket: Ticket, durum: str, kullanici) -> Ticket:
    """Any status may be set, except out of `kapandi` (terminal: 409)."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        kilitli.guncellenme = timezone.now()
        _durum_degistir(kilitli, durum=durum, kullanici=kullanici, b=sla.baglam(kilitli.musteri, simdi=kilitli.guncellenme))
        kilitli.save(update_fields=["durum", "guncellenme", *sla.ALANLAR])
        _ticket_yayinla(kilitli)
    _tazele(ticket, kilitli)
    return ticket


KAPANMIS_MESAJI = gettext_lazy("Kapanmış bir talep değiştirilemez.")
_YOK = object()

# `erteleme_degisti`'s `neden` (CONTRACT 24), as for chats.
ERTELEME_OPERATOR, ERTELEME_ZIYARETCI, ERTELEME_ZAMAN = "operator", "ziyaretci", "zaman"


def _erteleme_yayinla(ticket: Ticket, *, uyandi: bool, neden: str, aktor_id: int | None) -> None:
    yayinla("erteleme_degisti", musteri_id=ticket.musteri_id, veri={
        "tur": "ticket", "ticket_id": ticket.pk, "musteri_id": ticket.musteri_id, "operator_id": ticket.operator_id,
        "uyandi": uyandi, "neden": neden, "aktor_id": aktor_id,
    })


def ticket_ertele(*, ticket: Ticket, kullanici, kadar) -> Ticket:
    """Snooze an open ticket (`acik`, `beklemede`) until `kadar` (checked by
    `erteleme.kadar_coz`), or until the visitor replies (None). Its state, owner and
    `guncellenme` stay; it leaves every view but `ertelenen` (CONTRACT 24)."""
    with transaction.atomic():
        kilitli = _kilitle(ticket)
        if kilitli.durum not in (Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE):
            raise DurumCakismasi(_("Yalnızca açık ya da beklemedeki bir talep ertelenebilir."))
        kilitli.ertelendi_kadar, kilitli.ertelendi_ziyaretci = kadar, kadar is None
        kilitli.save(update_fields=["ertelendi_kadar", "ertelendi_ziyaretci"])
        _erteleme_yayinla(kilitli, uyandi=False, neden=ERTELEME_OPERATOR, aktor_id=kullanici.pk)
    return kilitli


def ticket_uyandir(*, ticket: Ticket, kullanici) -> Ticket:
    """`DELETE .../ertele`: back in the views at once (nothing to do when it is not snoozed)."""
    with transaction.atomic():
        kilitli = Ticket.objects.select_for_update().get(pk=ticket.pk)
        if ertelenmis_mi(kilitli):
            _uyandir(kilitli, neden=ERTELEME_OPERATOR, aktor_id=kullanici.pk)
    return kilitli


def _uyandir(ticket: Ticket, *, neden: str, aktor_id: int | None = None) -> None:
    # The caller holds the ticket's row lock.
    ticket.ertelendi_kadar, ticket.ertelendi_ziyaretci = None, False
    ticket.save(update_fields=["ertelendi_kadar", "ertelendi_ziyaretci"])
    _erteleme_yayinla(ticket, uyandi=True, neden=neden, aktor_id=aktor_id)


def ertelenen_ticketlari_uyandir(*, simdi=None) -> int:
    """The periodic wake (`tickets.ertelenenleri_uyandir`): open tickets whose `kadar` has come,
    each re-checked under its row lock (a racing reply or a new snooze wins)."""
    simdi = simdi or timezone.now()
    acik = (Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE)
    idler = list(Ticket.objects.filter(ertelendi_kadar__lte=simdi, durum__in=acik)
                 .order_by("ertelendi_kadar", "id").values_list("id", flat=True)[:1000])
    uyanan = 0
    for ticket_id in idler:
        with transaction.atomic():
            kilitli = Ticket.objects.select_for_update().filter(
                pk=ticket_id, ertelendi_kadar__lte=simdi, durum__in=acik).first()
            if kilitli is not None:
                _uyandir(kilitli, neden=ERTELEME_ZAMAN)
                uyanan += 1
    return uyanan


def _kilitle(ticket: Ticket) -> Ticket:
    # The row lock orders concurrent replies and status changes, so a reply can never land on a
    # ticket that another request has just closed.
    kilitli = Ticket.objects.select_for_update(of=("self",)).select_related("musteri").get(pk=ticket.pk)
    if kilitli.durum == Ticket.Durum.KAPANDI:
        raise DurumCakismasi(KAPANMIS_MESAJI)
    return kilitli


def _gecerli_degerler(degerler) -> str:
    return _("Geçerli değerler: %(degerler)s.") % {"degerler": ", ".join(degerler)}


def _durum_degistir(ticket: Ticket, *, durum: str, kullanici, b: "sla.Baglam") -> None:
    if durum not in Ticket.Durum.values:
        raise GecersizIstek(alanlar={"durum": _gecerli_degerler(Ticket.Durum.values)})
    onceki, ticket.durum = ticket.durum, durum
    sla.durum_degisti(ticket, b, onceki)
    if durum == Ticket.Durum.COZULDU and onceki != Ticket.Durum.COZULDU:
        yayinla("ticket_cozuldu", musteri_id=ticket.musteri_id, veri={
            "ticket_id": ticket.id, "musteri_id": ticket.musteri_id, "operator_id": kullanici.id if kullanici else None,
            "etiketler": etiket_adlari(ticket), "ekip_id": ticket.ekip_id,
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



def _ticket_yayinla(ticket: Ticket) -> None:
    # The socket event (CONTRACT 11) carries the ticket as committed; sent after commit.
    yayinla("ticket_guncellendi", musteri_id=ticket.musteri_id, veri={"ticket": ticket})


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
    # CONTRACT 22: a ticket of a team goes to one of its members, in the team's mode (else the tenant's).
    mod = etkin_mod(musteri_modu=musteri.atama_modu, ekip_id=ticket.ekip_id)
    if not otomatik_mi(mod):
        return
    uyelik = uygun_uyelikler(musteri_id=musteri.pk, atama_modu=mod, yuk=_acik_ticket_yuku(),
                             sinirli=False, son_alan=SON_TICKET_ATAMA, ekip_id=ticket.ekip_id).first()
    if uyelik is None:
        return
    ticket.operator_id = uyelik.kullanici_id
    ticket.save(update_fields=["operator"])
    atandi_isaretle(uyelik_id=uyelik.pk, an=timezone.now(), son_alan=SON_TICKET_ATAMA)
