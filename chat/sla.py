"""A chat's first-response clock (CONTRACT 17, 24): measured against the tenant's
`chat_ilk_yanit_sn` (its SLA policy, tickets.sla), from the chat's start to its first operator
message that is not a note (accepting is no response).

The clock is stored on the chat row (`Oturum.sla_ilk_*`), as a ticket's are, so the operator shape's
`sla` needs no query and the sweep finds what is due by indexed range scans. States as for tickets
(tickets.sla): `bekliyor`, `gecikti` (breach announced; shown `ihlal`), `karsilandi`, `ihlal`, and
`duraklatildi` while the chat is snoozed (CONTRACT 24), keeping the time it had left (`kalan_sn`).
Each warning and breach is announced once: the sweep claims due rows with
`select_for_update(skip_locked=True)` and clears what it claimed in the same transaction; the first
response locks the same row (the message's transaction), so it never races the sweep.
"""
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from supportdesk.core.fields import utc_iso
from supportdesk.core.olaylar import yayinla
from tenants.etiketler import etiket_adlari
from tickets import sla as politika_sla

from .models import Oturum

BEKLIYOR, GECIKTI, KARSILANDI, IHLAL, DURAKLATILDI = (
    politika_sla.BEKLIYOR, politika_sla.GECIKTI, politika_sla.KARSILANDI, politika_sla.IHLAL, politika_sla.DURAKLATILDI)
CALISAN = (BEKLIYOR, GECIKTI)
BORCLU = (*CALISAN, DURAKLATILDI)  # a response is still owed
HEDEF = "ilk_yanit"
ALANLAR = ["sla_ilk_durum", "sla_ilk_vade", "sla_ilk_uyari", "sla_ilk_kalan_sn"]


def hedef_sn(p) -> int | None:
    """The tenant's first-response target of chats in seconds, or None (policy off, or none set)."""
    sn = p.chat_ilk_yanit_sn
    return sn if p.aktif and type(sn) is int and sn > 0 else None


def baslat(oturum: Oturum, musteri) -> None:
    """A new chat (not saved yet): its clock runs from `baslangic` (by the tenant's calendar with
    `mesai_icinde`)."""
    b = politika_sla.baglam(musteri, simdi=oturum.baslangic)
    sn = hedef_sn(b.politika)
    if sn is None:
        return
    vade = b.vade(oturum.baslangic, sn)  # None: the calendar never opens (never due)
    oturum.sla_ilk_durum, oturum.sla_ilk_vade = BEKLIYOR, vade
    oturum.sla_ilk_uyari = None if vade is None else b.uyari(vade)


def yanitlandi(*, oturum_id: int, zaman: datetime) -> None:
    """The chat's first response at `zaman` (its row locked by the message's transaction): met or
    late; late and not yet announced by the sweep, the breach is announced here, once."""
    oturum = Oturum.objects.only("id", "musteri_id", "operator_id", "ekip_id", *ALANLAR).filter(pk=oturum_id).first()
    if oturum is None or oturum.sla_ilk_durum not in BORCLU:
        return
    _bitir(oturum, zaman)
    oturum.save(update_fields=ALANLAR)


def kapandi(oturum: Oturum) -> None:
    """A chat closed with its clock running (the caller saves `ALANLAR`): nothing is owed any more,
    so it stops without a verdict, unless it is late already (then it stays breached)."""
    if oturum.sla_ilk_durum == DURAKLATILDI:  # snoozed in time: nothing owed any more
        oturum.sla_ilk_durum, oturum.sla_ilk_kalan_sn = "", None
        return
    if oturum.sla_ilk_durum not in CALISAN:
        return
    simdi = oturum.bitis_zamani or timezone.now()
    if oturum.sla_ilk_durum == GECIKTI or (oturum.sla_ilk_vade is not None and oturum.sla_ilk_vade < simdi):
        _bitir(oturum, simdi)
    else:
        oturum.sla_ilk_durum, oturum.sla_ilk_vade, oturum.sla_ilk_uyari = "", None, None


def durdur(oturum: Oturum, *, simdi: datetime | None = None) -> None:
    """The chat was snoozed (the caller saves `ALANLAR`): a clock running and not yet due pauses,
    keeping the time it has left (by the tenant's calendar with `mesai_icinde`). One already late
    stays breached."""
    simdi = simdi or timezone.now()
    vade = oturum.sla_ilk_vade
    if oturum.sla_ilk_durum != BEKLIYOR or vade is None or vade <= simdi:
        return
    b = politika_sla.baglam(oturum.musteri, simdi=simdi)
    oturum.sla_ilk_kalan_sn = max(1, int(b.gecen(simdi, vade)))
    oturum.sla_ilk_durum, oturum.sla_ilk_vade, oturum.sla_ilk_uyari = DURAKLATILDI, None, None


def surdur(oturum: Oturum, *, simdi: datetime | None = None) -> None:
    """The chat woke (the caller saves `ALANLAR`): a paused clock runs again with the time it had
    left; a warning already due then goes out with the sweep's next run."""
    if oturum.sla_ilk_durum != DURAKLATILDI:
        return
    simdi = simdi or timezone.now()
    b = politika_sla.baglam(oturum.musteri, simdi=simdi)
    vade = b.vade(simdi, oturum.sla_ilk_kalan_sn or 0)
    oturum.sla_ilk_durum, oturum.sla_ilk_vade, oturum.sla_ilk_kalan_sn = BEKLIYOR, vade, None
    oturum.sla_ilk_uyari = None if vade is None else b.uyari(vade)


def uyandi(*, oturum_id: int) -> None:
    """`surdur` for a chat woken by the visitor's message (chat.sorgular's one statement, which
    cannot compute a due time): its own short transaction under the row lock."""
    with transaction.atomic():
        oturum = Oturum.objects.select_for_update(of=("self",)).select_related("musteri").filter(
            pk=oturum_id, sla_ilk_durum=DURAKLATILDI).first()
        if oturum is not None:
            surdur(oturum)
            oturum.save(update_fields=ALANLAR)


def _bitir(oturum: Oturum, zaman: datetime) -> None:
    if oturum.sla_ilk_durum == DURAKLATILDI:  # answered while snoozed: it paused in time
        oturum.sla_ilk_durum, oturum.sla_ilk_kalan_sn = KARSILANDI, None
        return
    vade = oturum.sla_ilk_vade
    gec = oturum.sla_ilk_durum == GECIKTI or (vade is not None and vade < zaman)
    if oturum.sla_ilk_durum == BEKLIYOR and gec:
        _yayinla("chat_sla_ihlal", oturum)
    oturum.sla_ilk_durum, oturum.sla_ilk_uyari = (IHLAL if gec else KARSILANDI), None


def sla_verisi(oturum: Oturum, *, simdi: datetime | None = None) -> dict:
    """`{"ilk_yanit": ...}` of the operator chat shape, shaped as a ticket's `sla.ilk_yanit`."""
    durum, vade = oturum.sla_ilk_durum, oturum.sla_ilk_vade
    if not durum:
        return {HEDEF: None}
    if durum == DURAKLATILDI:
        return {HEDEF: {"hedef": None, "durum": DURAKLATILDI, "kalan_sn": oturum.sla_ilk_kalan_sn}}
    kalan = None
    if durum in CALISAN and vade is not None:
        kalan = int((vade - (simdi or timezone.now())).total_seconds())
    gorunen = IHLAL if durum == GECIKTI or (durum == BEKLIYOR and kalan is not None and kalan <= 0) else durum
    return {HEDEF: {"hedef": utc_iso(vade), "durum": gorunen, "kalan_sn": kalan}}


def _yayinla(olay: str, oturum: Oturum) -> None:
    # A webhook too (CONTRACT 17 for tickets; for chats the contract is silent, and an integrator
    # expects the same news of a late chat as of a late ticket), shaped as the tickets' body with
    # `oturum_id` for `ticket_id`. No mail: a chat's target is seconds or minutes, the console's
    # toast and sound are the live alarm, and a mail per late chat would bury the members' inbox.
    yayinla(olay, musteri_id=oturum.musteri_id, veri={
        "oturum_id": oturum.id, "musteri_id": oturum.musteri_id, "hedef": HEDEF,
        "son_zaman": utc_iso(oturum.sla_ilk_vade), "operator_id": oturum.operator_id,
        "etiketler": etiket_adlari(oturum),  # CONTRACT 16: a chat event carries its label names
        "ekip_id": oturum.ekip_id})  # CONTRACT 22: and its team


# --- the sweep (the periodic `chat.sla_tara`, beside tickets' `tickets.sla_tara`) -----------------
PARTI = 500
_TARAMA_ALANLARI = ("id", "musteri_id", "operator_id", "ekip_id", *ALANLAR)


def tara(*, simdi: datetime | None = None, parti: int = PARTI) -> dict:
    """Every chat warning due (`chat_sla_uyari`) and breach due (`chat_sla_ihlal`), each once."""
    simdi = simdi or timezone.now()
    sayilar = {"uyari": 0, "ihlal": 0}
    while (n := _parti(simdi, parti, ihlal=False)):
        sayilar["uyari"] += n
    while (n := _parti(simdi, parti, ihlal=True)):
        sayilar["ihlal"] += n
    return sayilar


def _parti(simdi: datetime, parti: int, *, ihlal: bool) -> int:
    if ihlal:
        kosul, sira, degisen = {"sla_ilk_vade__lte": simdi}, "sla_ilk_vade", {"sla_ilk_durum": GECIKTI, "sla_ilk_uyari": None}
    else:
        kosul, sira, degisen = {"sla_ilk_uyari__lte": simdi, "sla_ilk_vade__gt": simdi}, "sla_ilk_uyari", {"sla_ilk_uyari": None}
    with transaction.atomic():
        rows = list(Oturum.objects.select_for_update(skip_locked=True, of=("self",))
                    .filter(sla_ilk_durum=BEKLIYOR, durum__in=Oturum.ACIK_DURUMLAR, **kosul)
                    .only(*_TARAMA_ALANLARI).order_by(sira)[:parti])
        if not rows:
            return 0
        Oturum.objects.filter(pk__in=[o.pk for o in rows]).update(**degisen)
        for o in rows:
            _yayinla("chat_sla_ihlal" if ihlal else "chat_sla_uyari", o)
    return len(rows)
