from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects

from supportdesk.core.erteleme import ERTELENMIS
from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import gecerli_id_mi, id_coz
from supportdesk.core.katlama import katla
from tenants.ekipler import ekip_suzgeci_q

from .models import Ticket, TicketYanit

ACIK_DURUMLAR = [Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE]


def _yanitlar_prefetch(*, notlar: bool) -> Prefetch:
    # A visitor's reads never hold an internal note (CONTRACT 16); operators' hold all.
    # The replying operator is joined (its name and avatar in every reply's shape): no query per reply.
    qs = TicketYanit.objects.order_by("zaman", "id").select_related("operator").prefetch_related("ekler")
    return Prefetch("yanitlar", queryset=qs if notlar else qs.gorunur())


def ziyaretci_ticket_list(*, musteri, ziyaretci_id: str) -> QuerySet[Ticket]:
    return Ticket.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id)


def ziyaretci_ticket_get(*, musteri, ziyaretci_id: str, ticket_id: int, detay: bool = True) -> Ticket:
    qs = ziyaretci_ticket_list(musteri=musteri, ziyaretci_id=ziyaretci_id)
    if detay:
        qs = qs.prefetch_related(_yanitlar_prefetch(notlar=False))
    try:
        return qs.get(pk=id_coz(ticket_id))
    except Ticket.DoesNotExist:
        raise Bulunamadi() from None


def ziyaretci_ticket_yayin_icin(*, ticket: Ticket) -> Ticket | None:
    """The ticket as its visitor reads it (`ziyaretci_ticket_get`), for the widget socket's frame
    after the commit that changed it; None when it is gone meanwhile."""
    try:
        return ziyaretci_ticket_get(musteri=ticket.musteri_id, ziyaretci_id=ticket.ziyaretci_id, ticket_id=ticket.id)
    except Bulunamadi:
        return None


# CONTRACT 24: the ticket views, each the open tickets (`acik`, `beklemede`) of the caller's
# tenants it holds. A snoozed ticket leaves every view but `ertelenen`.
GORUNUMLER = ("acik", "atanmamis", "benim", "ertelenen")


def _gorunum(gorunum: str, *, kullanici_id: int) -> Q:
    acik = Q(durum__in=ACIK_DURUMLAR)
    if gorunum == "ertelenen":
        return acik & ERTELENMIS
    acik &= ~ERTELENMIS
    if gorunum == "atanmamis":
        return acik & Q(operator__isnull=True)
    if gorunum == "benim":
        return acik & Q(operator_id=kullanici_id)
    return acik


def gorunum_sayilari(*, kullanici_id: int, musteri_idleri: list[int]) -> dict[str, int]:
    """How many tickets each view holds for the caller: one query, counted by condition."""
    sayilar = Ticket.objects.kapsamda(musteri_idleri).filter(durum__in=ACIK_DURUMLAR).aggregate(
        **{ad: Count("id", filter=_gorunum(ad, kullanici_id=kullanici_id)) for ad in GORUNUMLER})
    return {ad: sayilar[ad] or 0 for ad in GORUNUMLER}


def operator_ticket_list(
    *, musteri_idleri: list[int], durum: str | None = None, oncelik: str | None = None, musteri_id: int | None = None,
    operator_id: int | None = None, sahipsiz: bool = False, etiket_id: int | None = None, q: str = "",
    gorunum: str | None = None, kullanici_id: int | None = None, ekip: int | str | None = None,
) -> QuerySet[Ticket]:
    """Tickets of the caller's tenants, scoped in the query, with their owner joined and their
    labels to prefetch (`operator_ticketlari_hazirla`). A `musteri_id` filter outside them is a 404,
    like any other tenant's id (CONTRACT 1). `q` looks in the subject and in every reply and note,
    folded on both sides (supportdesk.core.katlama)."""
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = Ticket.objects.kapsamda(musteri_idleri).select_related("operator")
    if gorunum:
        assert kullanici_id is not None  # `benim` is the caller's
        qs = qs.filter(_gorunum(gorunum, kullanici_id=kullanici_id))
    if durum:
        qs = qs.filter(durum=durum)
    if oncelik:
        qs = qs.filter(oncelik=oncelik)
    if sahipsiz:
        qs = qs.filter(operator__isnull=True)
    elif operator_id is not None:
        qs = qs.filter(operator_id=operator_id)
    if etiket_id is not None:
        qs = qs.filter(etiketler__id=etiket_id)
    if ekip is not None:  # CONTRACT 22: an id, `benim`, `yok` (tenants.ekipler.ekip_suzgeci_coz)
        qs = qs.filter(ekip_suzgeci_q(ekip, kullanici_id=kullanici_id))
    if q:
        k = katla(q)
        yanitta = TicketYanit.objects.filter(ticket=OuterRef("pk"), icerik__katli__contains=k)
        qs = qs.filter(Q(konu__katli__contains=k) | Exists(yanitta))
    return qs


def ticket_yayin_icin(*, ticket_id: int) -> Ticket | None:
    """A ticket as committed, for a socket frame after the commit (None when gone meanwhile)."""
    return Ticket.objects.filter(pk=ticket_id).first()


def operator_ticketlari_hazirla(ticketlar) -> None:
    """The labels of a page of tickets in one query (the operator shape's `etiketler`)."""
    prefetch_related_objects(list(ticketlar), "etiketler")


def operator_ticket_get(*, musteri_idleri: list[int], ticket_id: int, detay: bool = True) -> Ticket:
    qs = Ticket.objects.kapsamda(musteri_idleri).select_related("operator").prefetch_related("etiketler")
    if detay:
        qs = qs.prefetch_related(_yanitlar_prefetch(notlar=True))
    try:
        return qs.get(pk=id_coz(ticket_id))
    except Ticket.DoesNotExist:
        raise Bulunamadi() from None


def acik_ticket_sayilari(*, musteri_idleri: list[int]) -> dict[int, int]:
    """Open tickets (not `cozuldu`/`kapandi`) per tenant, every given tenant present (0 when none)."""
    sayilar = dict.fromkeys(musteri_idleri, 0)
    rows = (
        Ticket.objects.kapsamda(musteri_idleri).filter(durum__in=ACIK_DURUMLAR)
        .values("musteri_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in rows:
        sayilar[row["musteri_id"]] = row["n"]
    return sayilar



def ticket_raporu(*, musteri_id: int, bas, son) -> dict:
    """Tickets opened in [bas, son) and how many of those are solved (`cozuldu` or `kapandi`) now;
    one aggregate query (reports, CONTRACT 13)."""
    return Ticket.objects.kapsamda([musteri_id]).filter(olusturulma__gte=bas, olusturulma__lt=son).aggregate(
        acilan=Count("id"), cozulen=Count("id", filter=~Q(durum__in=ACIK_DURUMLAR)))


SLA_KARSILANDI = ("karsilandi",)
SLA_IHLAL = ("ihlal", "gecikti")


def sla_raporu(*, musteri_id: int, bas, son) -> dict:
    """CONTRACT 17 in the reports: of the tickets opened in [bas, son), how many met and how many
    breached each target, in all and per owner (`operator`); one aggregate query each."""
    qs = Ticket.objects.kapsamda([musteri_id]).filter(olusturulma__gte=bas, olusturulma__lt=son)
    sayimlar = {}
    for saat in ("ilk", "sonraki", "cozum"):
        sayimlar[f"{saat}_karsilandi"] = Count("id", filter=Q(**{f"sla_{saat}_durum__in": SLA_KARSILANDI}))
        sayimlar[f"{saat}_ihlal"] = Count("id", filter=Q(**{f"sla_{saat}_durum__in": SLA_IHLAL}))
    toplam = qs.aggregate(**sayimlar)
    operatorler = list(qs.filter(operator__isnull=False).values("operator_id", "operator__email")
                       .annotate(**sayimlar).order_by("operator__email"))
    return {"toplam": toplam, "operatorler": operatorler}


def gecmis_ticket_list(*, musteri_id: int, q: str = "", bas=None, son=None) -> QuerySet[Ticket]:
    """The tenant's tickets, newest first, matching `q` in subject, visitor, e-mail or any reply."""
    qs = Ticket.objects.kapsamda([musteri_id])
    if bas is not None:
        qs = qs.filter(olusturulma__gte=bas)
    if son is not None:
        qs = qs.filter(olusturulma__lt=son)
    if q:
        # Folded on both sides (supportdesk.core.katlama): "sifre" finds "Şifre" on any database.
        k = katla(q)
        yanitta = TicketYanit.objects.filter(ticket=OuterRef("pk"), icerik__katli__contains=k)
        qs = qs.filter(Q(konu__katli__contains=k) | Q(ziyaretci_id__katli__contains=k) | Q(ad__katli__contains=k)
                       | Q(email__katli__contains=k) | Exists(yanitta))
    return qs


def gecmis_ticket_get(*, musteri_id: int, ticket_id: int) -> Ticket:
    ticket = (gecmis_ticket_list(musteri_id=musteri_id).filter(pk=ticket_id).first()
              if gecerli_id_mi(ticket_id) else None)
    if ticket is None:
        raise Bulunamadi()
    return ticket


def ticket_yanitlari(*, ticket: Ticket) -> QuerySet[TicketYanit]:
    return TicketYanit.objects.filter(ticket=ticket).select_related("operator").prefetch_related("ekler").order_by(
        "zaman", "id")
