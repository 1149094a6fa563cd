"""Who may get a chat or a ticket of a tenant now (CONTRACT 15, "Automatic assignment"), in the
order the tenant's `atama_modu` gives them. The chat and ticket apps say what a member's load is
(its `aktif` chats, its open tickets) and write the assignment; this module only chooses.

Eligible: a member of the tenant whose account is active, whose status is `cevrimici` (not
`mesgul`), who is reachable now (presence, CONTRACT 11: an open operator socket or a REST call
within the window; when the presence store cannot be read the stored status alone decides), who
has not muted the tenant, and (chats) whose load is below its `max_chat_per_tenant` (null: no cap,
as for an accept).

Order: `sirayla` the member assigned longest ago (never assigned first, then lowest user id);
`en_az_yuklu` the lowest load, ties as `sirayla`.
"""
from django.db.models import Expression, F, Q, QuerySet

from supportdesk.core import varlik

from .models import Kullanici, Musteri, Uyelik

OTOMATIK_MODLAR = (Musteri.AtamaModu.SIRAYLA, Musteri.AtamaModu.EN_AZ_YUKLU)
SON_ATAMA = "son_atama"  # chats
SON_TICKET_ATAMA = "son_ticket_atama"  # tickets


def otomatik_mi(atama_modu: str) -> bool:
    return atama_modu in OTOMATIK_MODLAR


def uygun_uyelikler(
    *, musteri_id: int, atama_modu: str, yuk: Expression, sinirli: bool, son_alan: str = SON_ATAMA,
    haric: tuple[int, ...] = (), ulasilabilir=None,
) -> QuerySet[Uyelik]:
    """The eligible memberships of the tenant, best first, annotated with `_yuk` (the member's
    load in this tenant, `yuk`: an expression over the membership's `kullanici_id`/`musteri_id`).
    `sinirli`: the member's `max_chat_per_tenant` caps `_yuk` (chats). `haric`: user ids left out
    (the operator a chat is being taken from). `ulasilabilir`: the reachable ids when the caller
    has read them already (else read now)."""
    if ulasilabilir is None:
        ulasilabilir = varlik.ulasilabilir_idler()
    qs = Uyelik.objects.filter(
        musteri_id=musteri_id, sessize_alindi=False,
        kullanici__is_active=True, kullanici__durum=Kullanici.Durum.CEVRIMICI,
    )
    if ulasilabilir is not None:
        qs = qs.filter(kullanici__id__herhangi=sorted(ulasilabilir))
    if haric:
        qs = qs.exclude(kullanici_id__in=list(haric))
    qs = qs.annotate(_yuk=yuk)
    if sinirli:
        qs = qs.filter(Q(max_chat_per_tenant__isnull=True) | Q(_yuk__lt=F("max_chat_per_tenant")))
    sira = [F(son_alan).asc(nulls_first=True), "kullanici_id"]
    if atama_modu == Musteri.AtamaModu.EN_AZ_YUKLU:
        sira.insert(0, "_yuk")
    return qs.order_by(*sira)


def atandi_isaretle(*, uyelik_id: int, an, son_alan: str = SON_ATAMA) -> None:
    """The member just got a chat (or a ticket): it goes to the back of the `sirayla` line. One
    UPDATE (no signal: this is no change of the membership's settings)."""
    Uyelik.objects.filter(pk=uyelik_id).update(**{son_alan: an})
