"""Automatic assignment and re-routing of chats (CONTRACT 15), for tenants whose `atama_modu` is
`sirayla` or `en_az_yuklu`; `manuel` tenants are never touched here.

- A new chat is assigned in its start's transaction (`yeni_oturumu_ata`, called by
  `chat.services.chat_baslat` when the tenant is open at the start's instant).
- When a place frees (a close, a transfer, a member coming online, its cap rising, unmuting) the
  tenant's oldest waiting chats are assigned (`kuyrugu_doldur`), after that change's commit.
- An operator no longer reachable hands its `aktif` chats back to routing (`operator_erisilemez`).
- `yeniden_atama_dk`: a chat whose visitor wrote last and got no operator answer for that long is
  given to another eligible member (`yeniden_atamalari_isle`, the periodic `chat.atama_taramasi`,
  which also catches anything the after-commit hooks missed: a killed process, a lost event).

Each assignment is an accept by that operator (`adimlar.kabul_kaydet`: `aktif`, `operator_id`,
the `sistem` line, the events, `chat_atandi`); a chat nobody else can take goes back to the queue
by `adimlar.siraya_al`, as a transfer to the queue does.

Race safety (PostgreSQL, every process agrees through row locks): one lock order everywhere,
tenant row (`FOR NO KEY UPDATE`: no FK check of an inserted chat or message waits on it) ->
membership row -> chat row. Every automatic move of a tenant holds its tenant row, so they run
one at a time per tenant and the `sirayla` order is exact; an accept, a transfer and a claiming
answer take the membership and then the chat (chat.services), so the cap is counted under the
membership lock by whoever assigns, and a waiting chat is taken with `skip_locked` (a chat being
accepted meanwhile is passed over, never waited for). A chat is assigned by the conditional
UPDATE of the accept (`WHERE durum = 'bekliyor'`), so never twice.
"""
import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Count, Min, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy

from supportdesk.core import varlik
from supportdesk.core.olaylar import yayinla
from tenants.atama import etkin_mod, otomatik_kayit_q, otomatik_mi, otomatik_musteri_q, uygun_uyelikler
from tenants.models import Ekip, Kullanici, Musteri, Uyelik
from tenants.takvim import Takvim

from . import adimlar, selectors
from .models import Mesaj, Oturum

logger = logging.getLogger("supportdesk.atama")

ADAY_SINIRI = 5  # candidates tried per assignment (the first one almost always takes it)

# Written in the chat's language (`adimlar.sistem_metni`): these run in periodic tasks and
# presence hooks, with no visitor's request behind them (CONTRACT 19).
SISTEM_METINLERI = {
    # presence lost the operator (its sockets and calls stopped) ...
    "erisilemez_aktarildi": gettext_lazy("Temsilcinin bağlantısı koptu; {ad} sohbete katıldı."),
    "erisilemez_sirada": gettext_lazy("Temsilcinin bağlantısı koptu; sohbet yeniden sıraya alındı, ilk uygun temsilci "
                                      "size yanıt verecek."),
    # ... or it chose "Çevrimdışı" (or logged out): no "disconnected" to the visitor (issue 39)
    "cevrimdisi_aktarildi": gettext_lazy("Temsilci çevrimdışı oldu; {ad} sohbete katıldı."),
    "cevrimdisi_sirada": gettext_lazy("Temsilci çevrimdışı oldu; sohbet yeniden sıraya alındı, ilk uygun temsilci "
                                      "size yanıt verecek."),
    "yeniden_atandi": gettext_lazy("Sohbet yanıt bekliyordu; {ad} sohbete katıldı."),
}


def _yuk():
    """A membership's load: its user's `aktif` chats in that tenant (one indexed count)."""
    return Coalesce(Subquery(
        Oturum.objects.filter(musteri_id=OuterRef("musteri_id"), operator_id=OuterRef("kullanici_id"),
                              durum=Oturum.Durum.AKTIF)
        .order_by().values("operator_id").annotate(n=Count("id")).values("n")[:1]
    ), 0)


def _musteri_kilitle(musteri_id: int) -> Musteri | None:
    """The tenant's row, locked, when it routes automatically, itself or in one of its teams
    (CONTRACT 22; a `manuel` tenant without such a team: None, nothing locked). Only the fields
    routing reads (its calendar among them: `_acik_mi`)."""
    qs = Musteri.objects.select_for_update(no_key=True).filter(otomatik_musteri_q(), pk=musteri_id)
    return qs.only("id", "atama_modu", "yeniden_atama_dk", "saat_dilimi", "calisma_saatleri", "tatiller").first()


def _acik_mi(musteri: Musteri) -> bool:
    """CONTRACT 15 (wave 4): no automatic assignment while the tenant is closed (outside its hours,
    on a holiday). Read under the tenant's lock, at the moment of the assignment: a queue drained
    or a chat re-routed while closed waits (or goes back to the queue) until someone takes it by hand,
    or the tenant opens and the periodic sweep (`atama_taramasi`) drains the queue."""
    return Takvim.musteriden(musteri).acik_mi(timezone.now())


def _yer_var(uyelik: Uyelik) -> bool:
    return (uyelik.max_chat_per_tenant is None
            or selectors.aktif_chat_sayisi(kullanici_id=uyelik.kullanici_id, musteri_id=uyelik.musteri_id)
            < uyelik.max_chat_per_tenant)


def _aday_kilitle(musteri: Musteri, *, mod: str | None = None, ekip_id: int | None = None,
                  haric: tuple[int, ...] = (), ulasilabilir=None) -> Uyelik | None:
    """The best eligible member, its membership locked and its cap counted again under the lock
    (an accept of its own may have committed since the candidates were read). `ekip_id`: among
    that team's members only, in `mod` (the team's mode, else the tenant's; CONTRACT 22)."""
    adaylar = list(uygun_uyelikler(musteri_id=musteri.pk, atama_modu=mod or musteri.atama_modu, yuk=_yuk(),
                                   sinirli=True, haric=haric, ulasilabilir=ulasilabilir, ekip_id=ekip_id)
                   .values_list("pk", flat=True)[:ADAY_SINIRI])
    for pk in adaylar:
        uyelik = (Uyelik.objects.select_for_update(of=("self",)).select_related("kullanici")
                  .filter(pk=pk, kullanici__is_active=True).first())
        if uyelik is not None and _yer_var(uyelik):
            return uyelik
    return None


# --- a new chat ------------------------------------------------------------------------------
def yeni_oturumu_ata(*, oturum_id: int, musteri_id: int, ekip_id: int | None = None) -> bool:
    """In the start's transaction: give the new waiting chat to the best eligible member. One
    statement (finding nothing, locking nothing) for a `manuel` tenant. True when assigned.

    The start decided once, at its request's instant, whether the tenant is open (`chat_baslat`'s
    `simdi`, CONTRACT 15 wave 4) and calls this only when it was: no second reading of the
    calendar a moment later. `ekip_id`: the chat's team (CONTRACT 22): its members only, in its mode."""
    musteri = _musteri_kilitle(musteri_id)
    if musteri is None:
        return False  # a `manuel` tenant: it waits
    mod = etkin_mod(musteri_modu=musteri.atama_modu, ekip_id=ekip_id)
    if not otomatik_mi(mod):
        return False  # a `manuel` team (or a team-less chat of a `manuel` tenant): it waits
    uyelik = _aday_kilitle(musteri, mod=mod, ekip_id=ekip_id)
    if uyelik is None:
        return False  # it waits; the next place that frees takes the oldest waiting chat
    # The row is this transaction's own (just inserted): the accept's conditional UPDATE needs no read.
    oturum = Oturum(pk=oturum_id, musteri_id=musteri_id)
    adimlar.kabul_kaydet(oturum=oturum, kullanici=uyelik.kullanici, uyelik=uyelik,
                           neden=adimlar.ATAMA_OTOMATIK, limit=False, sira_degisti=False)
    return True


# --- a place freed: the queue drains, oldest first ----------------------------------------------
def _bir_bekleyeni_ata(musteri_id: int, ulasilabilir) -> bool:
    with transaction.atomic():
        musteri = _musteri_kilitle(musteri_id)
        if musteri is None or not _acik_mi(musteri):
            return False
        # A snoozed waiting chat keeps its state until it wakes (CONTRACT 24): routing passes it by.
        bekleyenler = Oturum.objects.filter(musteri_id=musteri_id, durum=Oturum.Durum.BEKLIYOR,
                                            ertelendi_kadar__isnull=True, ertelendi_ziyaretci=False)
        # CONTRACT 22: each team's chats (and the team-less ones) form a queue of their own, routed
        # among the team's members in the team's mode. The queue whose oldest chat waited longest
        # goes first; a queue nobody of its team can take now is passed over, not waited for.
        gruplar = list(bekleyenler.order_by().values("ekip_id").annotate(_ilk=Min("baslangic"), _ilk_id=Min("id"))
                       .order_by("_ilk", "_ilk_id").values_list("ekip_id", flat=True))
        if not gruplar:
            return False
        ekip_modlari = (dict(Ekip.objects.filter(musteri_id=musteri_id, pk__in=[g for g in gruplar if g])
                             .values_list("id", "atama_modu")) if any(gruplar) else {})
        for ekip_id in gruplar:
            mod = (ekip_modlari.get(ekip_id) if ekip_id else None) or musteri.atama_modu
            if not otomatik_mi(mod):
                continue
            uyelik = _aday_kilitle(musteri, mod=mod, ekip_id=ekip_id, ulasilabilir=ulasilabilir)
            if uyelik is None:
                continue
            oturum = (bekleyenler.filter(ekip_id=ekip_id).order_by("baslangic", "id")
                      .select_for_update(skip_locked=True).first())
            if oturum is None:
                continue
            adimlar.kabul_kaydet(oturum=oturum, kullanici=uyelik.kullanici, uyelik=uyelik,
                                 neden=adimlar.ATAMA_OTOMATIK, limit=False)
            return True
        return False


def kuyrugu_doldur(musteri_id: int, *, en_cok: int | None = None) -> int:
    """Assign the tenant's waiting chats, oldest first, while anyone is eligible (each in its own
    transaction, so accepts and closes interleave). Returns how many were assigned."""
    ulasilabilir = varlik.ulasilabilir_idler()
    n = 0
    while en_cok is None or n < en_cok:
        if not _bir_bekleyeni_ata(musteri_id, ulasilabilir):
            break
        n += 1
    return n


def commit_sonrasi_doldur(musteri_id: int) -> None:
    """A change that may have made room (a chat closed or handed on, a member gone, a cap raised,
    a member unmuted, a routing mode or a team changed) asks for the tenant's queue to drain after
    its commit: each assignment then runs in a transaction of its own, after the change is
    visible, and a rollback asks for nothing. The change's action calls this itself (issue 40), as
    one of its steps. A failure is logged and does not reach the caller: the change is saved, and
    the periodic `atama_taramasi` drains what was missed."""
    transaction.on_commit(lambda: kuyrugu_doldur(musteri_id), robust=True)


def kuyruklari_doldur(musteri_idleri) -> int:
    """Several tenants' queues, one chat of each in turn (an operator of three tenants gets work
    from all three, not the first tenant's whole queue first)."""
    kalan, toplam = list(dict.fromkeys(musteri_idleri)), 0
    while kalan:
        kalan = [m for m in kalan if kuyrugu_doldur(m, en_cok=1)]
        toplam += len(kalan)
    return toplam


def operator_uygun_oldu(kullanici_id: int) -> int:
    """An operator came online (or `mesgul` -> `cevrimici`): its automatic tenants' queues drain."""
    idler = (Uyelik.objects.filter(otomatik_musteri_q("musteri__"), kullanici_id=kullanici_id)
             .order_by("sira", "musteri_id").values_list("musteri_id", flat=True))
    return kuyruklari_doldur(list(idler))


def commit_sonrasi_uygun(kullanici_id: int) -> None:
    """An operator's status became `cevrimici`: after the commit that made it so, its automatic
    tenants' queues drain (`operator_uygun_oldu`; logged on failure, as `commit_sonrasi_doldur`)."""
    transaction.on_commit(lambda: operator_uygun_oldu(kullanici_id), robust=True)


# --- back to routing: an unreachable operator, an unanswered visitor ---------------------------
def _yonlendir(*, oturum_id: int, musteri_id: int, eski_operator_id: int, kosul, metin,
               siraya_alinabilir: bool, sirada_metni=SISTEM_METINLERI["erisilemez_sirada"]) -> bool:
    """Take an `aktif` chat from `eski_operator_id` and route it: to the best other eligible
    member, or (`siraya_alinabilir`) back to `bekliyor`. `kosul(oturum)` is checked again under the
    chat's lock, so a racing answer, transfer or close wins. True when the chat moved."""
    with transaction.atomic():
        musteri = _musteri_kilitle(musteri_id)
        if musteri is None:
            return False
        # CONTRACT 22: inside the chat's team, in its mode (checked again under the chat's lock).
        ekip_id = Oturum.objects.filter(pk=oturum_id).values_list("ekip_id", flat=True).first()
        mod = etkin_mod(musteri_modu=musteri.atama_modu, ekip_id=ekip_id)
        if not otomatik_mi(mod):
            return False
        # Closed: nobody else is given the chat (it goes back to the queue, or stays where it is).
        uyelik = (_aday_kilitle(musteri, mod=mod, ekip_id=ekip_id, haric=(eski_operator_id,))
                  if _acik_mi(musteri) else None)
        if uyelik is None and not siraya_alinabilir:
            return False
        oturum = (Oturum.objects.select_for_update()
                  .filter(pk=oturum_id, durum=Oturum.Durum.AKTIF, operator_id=eski_operator_id, ekip_id=ekip_id)
                  .first())
        if oturum is None or not kosul(oturum):
            return False
        commit_sonrasi_doldur(musteri_id)
        if uyelik is None:
            adimlar.siraya_al(oturum, metin=sirada_metni, neden=adimlar.ATAMA_YENIDEN)
            return True
        simdi = timezone.now()
        oturum.operator_id, oturum.kabul_zamani = uyelik.kullanici_id, simdi
        oturum.okunmamis = max(oturum.okunmamis, 1)  # it reaches its new operator unread (CONTRACT 3a)
        oturum.save(update_fields=["durum", "operator", "kabul_zamani", "okunmamis"])
        adimlar.mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM,
                           icerik=adimlar.sistem_metni(oturum, metin, ad=adimlar.gorunen_ad(uyelik.kullanici)))
        # The sockets' side is a transfer's (`chat_guncellendi` to the tenant and the visitor).
        yayinla("chat_aktarildi", musteri_id=musteri_id, veri={"oturum_id": oturum.pk, "sira_degisti": False})
        adimlar.atandi_yayinla(oturum, neden=adimlar.ATAMA_YENIDEN, uyelik_id=uyelik.pk, an=simdi)
        return True


def _erisilemez_mi(kullanici_id: int) -> bool:
    return not Kullanici.objects.filter(
        pk=kullanici_id, is_active=True, durum__in=(Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL)
    ).exists()


def operator_erisilemez(kullanici_id: int, *, baglanti_koptu: bool = False) -> int:
    """The operator stopped being reachable (`cevrimdisi`: the presence sweep, its own status,
    logout): each of its `aktif` chats in an automatic tenant goes to another eligible member, or
    back to the queue (start order: ahead of every chat that started after it). Checked again per
    chat, so an operator back online meanwhile keeps the rest. `baglanti_koptu`: presence lost it
    (the visitor reads "bağlantısı koptu"); else it went offline itself (its own words)."""
    aktarildi, sirada = (("erisilemez_aktarildi", "erisilemez_sirada") if baglanti_koptu
                         else ("cevrimdisi_aktarildi", "cevrimdisi_sirada"))
    oturumlar = list(Oturum.objects.filter(otomatik_kayit_q(), operator_id=kullanici_id, durum=Oturum.Durum.AKTIF)
                     .order_by("baslangic", "id").values_list("id", "musteri_id"))
    tasinan = 0
    for oturum_id, musteri_id in oturumlar:
        tasinan += _yonlendir(oturum_id=oturum_id, musteri_id=musteri_id, eski_operator_id=kullanici_id,
                              kosul=lambda _o: _erisilemez_mi(kullanici_id),
                              metin=SISTEM_METINLERI[aktarildi], siraya_alinabilir=True,
                              sirada_metni=SISTEM_METINLERI[sirada])
    return tasinan


def commit_sonrasi_erisilemez(kullanici_id: int, *, baglanti_koptu: bool = False) -> None:
    """An operator's status became `cevrimdisi`: after the commit that made it so, its chats go
    back to routing (`operator_erisilemez`; logged on failure, as `commit_sonrasi_doldur`)."""
    transaction.on_commit(lambda: operator_erisilemez(kullanici_id, baglanti_koptu=baglanti_koptu), robust=True)


def _son_yazan(oturum_id=None):
    """The chat's last message that asks or answers (no `sistem` line, no internal note); of the
    outer query's chat unless `oturum_id` is given."""
    return Mesaj.objects.gorunur().filter(oturum_id=OuterRef("pk") if oturum_id is None else oturum_id).exclude(
        gonderen=Mesaj.Gonderen.SISTEM).order_by("-id")


def _yanitsiz(oturum: Oturum, *, dk: int, simdi) -> bool:
    """The visitor wrote last, and neither that message nor the chat's assignment to its operator
    is newer than `dk` minutes."""
    son = _son_yazan(oturum.pk).values("gonderen", "zaman").first()
    if son is None or son["gonderen"] != Mesaj.Gonderen.ZIYARETCI:
        return False
    esik = simdi - timedelta(minutes=dk)
    return son["zaman"] <= esik and (oturum.kabul_zamani is None or oturum.kabul_zamani <= esik)


def yeniden_atamalari_isle(*, simdi=None) -> int:
    """`yeniden_atama_dk` (automatic modes): an `aktif` chat whose visitor wrote last and got no
    operator answer for that long (counted from that message, or from the chat's assignment when
    later) goes to another eligible member. When nobody else is eligible it stays (re-checked on
    the next run). Idempotent and safe in two processes: each chat is checked again under locks."""
    simdi = simdi or timezone.now()
    adaylar = (Oturum.objects.filter(otomatik_kayit_q(), durum=Oturum.Durum.AKTIF,
                                     musteri__yeniden_atama_dk__isnull=False, operator__isnull=False)
               .annotate(_son_gonderen=Subquery(_son_yazan().values("gonderen")[:1]),
                         _son_zaman=Subquery(_son_yazan().values("zaman")[:1]))
               .filter(_son_gonderen=Mesaj.Gonderen.ZIYARETCI)
               .values_list("id", "musteri_id", "operator_id", "kabul_zamani", "_son_zaman", "musteri__yeniden_atama_dk")
               .order_by("id"))
    tasinan = 0
    for oturum_id, musteri_id, operator_id, kabul, son_zaman, dk in adaylar:
        esik = simdi - timedelta(minutes=dk)
        if son_zaman > esik or (kabul is not None and kabul > esik):
            continue

        def kosul(oturum, dk=dk):
            return _yanitsiz(oturum, dk=dk, simdi=timezone.now())

        tasinan += _yonlendir(oturum_id=oturum_id, musteri_id=musteri_id, eski_operator_id=operator_id,
                              kosul=kosul, metin=SISTEM_METINLERI["yeniden_atandi"], siraya_alinabilir=False)
    return tasinan


# --- the periodic sweep ------------------------------------------------------------------------
def atama_taramasi(*, simdi=None) -> dict[str, int]:
    """The timed rule (`chat.atama_taramasi`, CELERY_BEAT_SCHEDULE): re-routing after
    `yeniden_atama_dk`, chats still held by operators that are no longer online, and the waiting
    chats of automatic tenants that someone could take now (what an after-commit hook missed)."""
    birakilan = 0
    erisilemeyenler = (Oturum.objects.filter(otomatik_kayit_q(), durum=Oturum.Durum.AKTIF)
                       .exclude(operator__durum__in=(Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL),
                                operator__is_active=True)
                       .exclude(operator__isnull=True)
                       .values_list("operator_id", flat=True).distinct())
    for kullanici_id in list(erisilemeyenler):
        birakilan += operator_erisilemez(kullanici_id)
    yeniden = yeniden_atamalari_isle(simdi=simdi)
    musteriler = (Oturum.objects.filter(otomatik_kayit_q(), durum=Oturum.Durum.BEKLIYOR,
                                        ertelendi_kadar__isnull=True, ertelendi_ziyaretci=False)
                  .values_list("musteri_id", flat=True).distinct())
    atanan = kuyruklari_doldur(sorted(musteriler))
    return {"erisilemez": birakilan, "yeniden": yeniden, "atanan": atanan}
