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

from .models import Ekip, Kullanici, Musteri, Uyelik

OTOMATIK_MODLAR = (Musteri.AtamaModu.SIRAYLA, Musteri.AtamaModu.EN_AZ_YUKLU)
SON_ATAMA = "son_atama"  # chats
SON_TICKET_ATAMA = "son_ticket_atama"  # tickets


def otomatik_mi(atama_modu: str | None) -> bool:
    return atama_modu in OTOMATIK_MODLAR


def etkin_mod(*, musteri_modu: str, ekip_id: int | None) -> str:
    """The routing mode of a chat or ticket (CONTRACT 22): its team's `atama_modu`, or the
    tenant's when it has no team or the team's is null (one small read only with a team)."""
    if ekip_id is None:
        return musteri_modu
    mod = Ekip.objects.filter(pk=ekip_id).values_list("atama_modu", flat=True).first()
    return mod or musteri_modu


def otomatik_musteri_q(onek: str = "") -> Q:
    """Tenants where anything may route automatically: the tenant's own mode, or one of its teams'
    (a team in `sirayla` routes its chats inside a `manuel` tenant). `onek`: the path to the tenant
    from the queried model (`"musteri__"`), empty for Musteri itself."""
    ekipli = Ekip.objects.filter(atama_modu__in=OTOMATIK_MODLAR).values("musteri_id")
    kimlik = "musteri_id__in" if onek == "musteri__" else f"{onek}pk__in"
    return Q(**{f"{onek}atama_modu__in": OTOMATIK_MODLAR}) | Q(**{kimlik: ekipli})


def otomatik_kayit_q() -> Q:
    """Chats or tickets whose own mode (`etkin_mod`) is automatic, as a filter over their rows."""
    return (Q(ekip__atama_modu__in=OTOMATIK_MODLAR)
            | Q(ekip__atama_modu__isnull=True, musteri__atama_modu__in=OTOMATIK_MODLAR))


def uygun_uyelikler(
    *, musteri_id: int, atama_modu: str, yuk: Expression, sinirli: bool, son_alan: str = SON_ATAMA,
    haric: tuple[int, ...] = (), ulasilabilir=None, ekip_id: int | None = None,
) -> QuerySet[Uyelik]:
    """The eligible memberships of the tenant, best first, annotated with `_yuk` (the member's
    load in this tenant, `yuk`: an expression over the membership's `kullanici_id`/`musteri_id`).
    `sinirli`: the member's `max_chat_per_tenant` caps `_yuk` (chats). `haric`: user ids left out
    (the operator a chat is being taken from). `ulasilabilir`: the reachable ids when the caller
    has read them already (else read now). `ekip_id`: only the members of that team (CONTRACT 22:
    routing runs inside the chat's or ticket's team; the caller passes the team's mode)."""
    if ulasilabilir is None:
        ulasilabilir = varlik.ulasilabilir_idler()
    qs = Uyelik.objects.filter(
        musteri_id=musteri_id, sessize_alindi=False,
        kullanici__is_active=True, kullanici__durum=Kullanici.Durum.CEVRIMICI,
    )
    if ulasilabilir is not None:
        qs = qs.filter(kullanici__id__herhangi=sorted(ulasilabilir))
    if ekip_id is not None:
        qs = qs.filter(ekipler__id=ekip_id)
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
