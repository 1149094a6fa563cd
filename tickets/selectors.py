from django.db.models import Count, Prefetch, QuerySet

from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import ID_MAX, id_coz

from .models import Dosya, Ticket, TicketYanit

ACIK_DURUMLAR = [Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE]


def dosya_get(*, musteri, ziyaretci_id: str, dosya_id) -> Dosya:
    """An upload of this visitor of this tenant; the same 404 for missing, another visitor's and
    another tenant's (CONTRACT 5)."""
    dosya_id = id_coz(dosya_id)
    try:
        return Dosya.objects.get(pk=dosya_id, musteri=musteri, ziyaretci_id=ziyaretci_id)
    except Dosya.DoesNotExist:
        raise Bulunamadi() from None


def dosya_list_by_ids(*, musteri, ziyaretci_id: str, dosya_idleri: list[int]) -> list[Dosya]:
    """All of the given uploads, in the given order, or 404 when any is not this visitor's."""
    istenen = list(dict.fromkeys(dosya_idleri))
    if any(not 0 < i <= ID_MAX for i in istenen):
        # An id no row can have (SQLite would even overflow on it): unknown, like any other.
        raise Bulunamadi("Eklenmek istenen dosya bulunamadı.")
    bulunan = {d.pk: d for d in Dosya.objects.filter(pk__in=istenen, musteri=musteri, ziyaretci_id=ziyaretci_id)}
    if len(bulunan) != len(istenen):
        raise Bulunamadi("Eklenmek istenen dosya bulunamadı.")
    return [bulunan[i] for i in istenen]


def _yanitlar_prefetch() -> Prefetch:
    return Prefetch("yanitlar", queryset=TicketYanit.objects.order_by("zaman", "id").prefetch_related("ekler"))


def ziyaretci_ticket_list(*, musteri, ziyaretci_id: str) -> QuerySet[Ticket]:
    return Ticket.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id)


def ziyaretci_ticket_get(*, musteri, ziyaretci_id: str, ticket_id: int, detay: bool = True) -> Ticket:
    qs = ziyaretci_ticket_list(musteri=musteri, ziyaretci_id=ziyaretci_id)
    if detay:
        qs = qs.prefetch_related(_yanitlar_prefetch())
    try:
        return qs.get(pk=ticket_id)
    except Ticket.DoesNotExist:
        raise Bulunamadi() from None


def operator_ticket_list(
    *, musteri_idleri: list[int], durum: str | None = None, oncelik: str | None = None, musteri_id: int | None = None
) -> QuerySet[Ticket]:
    """Tickets of the caller's tenants, scoped in the query. A `musteri_id` filter outside them is
    a 404, like any other tenant's id (CONTRACT 1)."""
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = Ticket.objects.filter(musteri_id__in=musteri_idleri)
    if durum:
        qs = qs.filter(durum=durum)
    if oncelik:
        qs = qs.filter(oncelik=oncelik)
    return qs


def operator_ticket_get(*, musteri_idleri: list[int], ticket_id: int, detay: bool = True) -> Ticket:
    qs = Ticket.objects.filter(musteri_id__in=musteri_idleri)
    if detay:
        qs = qs.prefetch_related(_yanitlar_prefetch())
    try:
        return qs.get(pk=ticket_id)
    except Ticket.DoesNotExist:
        raise Bulunamadi() from None


def acik_ticket_sayilari(*, musteri_idleri: list[int]) -> dict[int, int]:
    """Open tickets (not `cozuldu`/`kapandi`) per tenant, every given tenant present (0 when none)."""
    sayilar = dict.fromkeys(musteri_idleri, 0)
    rows = (
        Ticket.objects.filter(musteri_id__in=musteri_idleri, durum__in=ACIK_DURUMLAR)
        .values("musteri_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in rows:
        sayilar[row["musteri_id"]] = row["n"]
    return sayilar

