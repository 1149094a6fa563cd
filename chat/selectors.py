"""Reads of the chat app, always scoped in the query: to the visitor (widget) or to the
operator's tenants (`musteri_idleri`), starting from the models' `ziyaretcinin` / `kapsamda`."""
from datetime import datetime, timedelta
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import (
    Avg,
    Case,
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    prefetch_related_objects,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from supportdesk.core import varlik
from supportdesk.core.derlenmis_sorgu import DerlenmisSorgu
from supportdesk.core.dil import dilde
from supportdesk.core.erteleme import ERTELENMIS
from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import ID_MAX, gecerli_id_mi, id_coz
from supportdesk.core.katlama import katla
from supportdesk.core.metrikler import durum_sayilari
from tenants.ekipler import ekip_suzgeci_q
from tenants.models import Kullanici

from .models import OTOMATIK_YANIT, HazirYanit, Mesaj, Oturum

CEVRIMICI_DURUMLAR = (Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL)


_OKU = object()  # "read the presence store now"


def cevrimici_operatorler(ulasilabilir=_OKU):
    """Operators that count as online (CONTRACT 11, "Presence"): status `cevrimici` or `mesgul`,
    active, and reachable now (an open operator socket, or a REST call within the window). When
    the presence store cannot be read (`ulasilabilir` None), the stored status alone decides."""
    if ulasilabilir is _OKU:
        ulasilabilir = varlik.ulasilabilir_idler()
    qs = Kullanici.objects.filter(durum__in=CEVRIMICI_DURUMLAR, is_active=True)
    if ulasilabilir is None:
        return qs
    return qs.filter(id__herhangi=ulasilabilir if isinstance(ulasilabilir, list) else sorted(ulasilabilir))
# `sira_no` counts at most this many chats ahead: a visitor deep in a long queue costs one short
# index range scan, not a count of everyone ahead (a deeper place reads as SIRA_NO_SINIRI).
SIRA_NO_SINIRI = 100
TICKET_MESAJ_MAX = 20000  # CONTRACT 4: a ticket's message


class _Say(Subquery):
    """COUNT(*) of a (sliced) subquery: how many rows it has, up to its LIMIT."""

    template = "(SELECT COUNT(*) FROM (%(subquery)s) _say)"
    output_field = IntegerField()


def _kuyruk_bilgisi(qs: QuerySet[Oturum], ulasilabilir=_OKU) -> QuerySet[Oturum]:
    """Annotate `_sira_no` (place in the tenant's queue while waiting, else null) and
    `_cevrimici_operator` (any member online or busy), in the same statement as the chat."""
    onde = Oturum.objects.filter(
        Q(baslangic__lt=OuterRef("baslangic")) | Q(baslangic=OuterRef("baslangic"), id__lt=OuterRef("id")),
        musteri_id=OuterRef("musteri_id"),
        durum=Oturum.Durum.BEKLIYOR,
    ).order_by().values("id")[: SIRA_NO_SINIRI - 1]
    return qs.annotate(
        _sira_no=Case(When(durum=Oturum.Durum.BEKLIYOR, then=_Say(onde) + 1), default=None),
        _cevrimici_operator=Exists(
            cevrimici_operatorler(ulasilabilir).filter(uyelikler__musteri_id=OuterRef("musteri_id"))
        ),
    )


# The widget's poll reads its chat with queue info on every call: built and compiled once per
# process (supportdesk.core.derlenmis_sorgu), run with the request's values. With `sonra` (a poll
# asking for messages after an id) the same statement also says whether there is any
# (`_yeni_mesaj`), so an idle poll, the most common request of all, is this one statement.
def _ziyaretci_oturumu(musteri_id, ziyaretci_id, oturum_id, ulasilabilir, sonra=None):
    qs = _kuyruk_bilgisi(
        Oturum.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id, pk=oturum_id), ulasilabilir
    )
    if sonra is not None:
        # A visitor's poll: internal notes (CONTRACT 16) are not "new messages" for it.
        qs = qs.annotate(_yeni_mesaj=Exists(Mesaj.objects.gorunur().filter(oturum_id=OuterRef("pk"), id__gt=sonra)))
        if connection.vendor == "postgresql":
            # For the poll's snapshot (chat.yoklama): the members online by their stored status,
            # so a later poll can tell "anyone online" from the presence sets alone.
            qs = qs.annotate(_uygun_idler=ArraySubquery(
                Kullanici.objects.filter(uyelikler__musteri_id=OuterRef("musteri_id"), durum__in=CEVRIMICI_DURUMLAR,
                                         is_active=True).order_by("id").values("id")
            ))
    return qs


_ZIYARETCI_OTURUMU = DerlenmisSorgu(
    _ziyaretci_oturumu,
    parametreler={"musteri_id": int, "ziyaretci_id": str, "oturum_id": int, "ulasilabilir": list},
)
_ZIYARETCI_OTURUMU_YENI = DerlenmisSorgu(
    _ziyaretci_oturumu,
    parametreler={"musteri_id": int, "ziyaretci_id": str, "oturum_id": int, "ulasilabilir": list, "sonra": int},
)


# --- sessions ------------------------------------------------------------------------------
def ziyaretci_oturum_get(*, musteri, ziyaretci_id: str, oturum_id, kuyruk_bilgisi: bool = False,
                         yeni_mesaj_sonra: int | None = None) -> Oturum:
    """A chat of this visitor of this tenant; the same 404 for missing and someone else's.

    `kuyruk_bilgisi` adds `sira_no` and `cevrimici_operator` in the same query (the widget's
    poll path); `yeni_mesaj_sonra` also whether any message has an id above it, which
    `mesaj_sayfasi` then trusts (no second query when there is none).
    """
    oturum_id = id_coz(oturum_id)
    ulasilabilir = varlik.ulasilabilir_idler() if kuyruk_bilgisi else None
    if ulasilabilir is not None:
        degerler = {"musteri_id": musteri.pk, "ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id,
                    "ulasilabilir": sorted(ulasilabilir)}
        if yeni_mesaj_sonra is not None and 0 <= yeni_mesaj_sonra < ID_MAX:
            satirlar = _ZIYARETCI_OTURUMU_YENI(**degerler, sonra=yeni_mesaj_sonra)
            for oturum in satirlar:
                oturum._yeni_mesaj_esigi = yeni_mesaj_sonra
        else:
            satirlar = _ZIYARETCI_OTURUMU(**degerler)
        oturum = satirlar[0] if satirlar else None
    else:
        qs: QuerySet[Oturum] = Oturum.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id)
        if kuyruk_bilgisi:
            qs = _kuyruk_bilgisi(qs, None)
        oturum = qs.filter(pk=oturum_id).first()
    if oturum is None:
        raise Bulunamadi()
    return oturum


def ziyaretci_acik_oturum(*, musteri, ziyaretci_id: str, kuyruk_bilgisi: bool = False) -> Oturum | None:
    # At most one open chat per visitor (the partial unique index `oturum_acik_tekil`).
    qs = Oturum.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).filter(durum__in=Oturum.ACIK_DURUMLAR)
    return (_kuyruk_bilgisi(qs) if kuyruk_bilgisi else qs).first()


def _guncel_oturum(musteri_id, ziyaretci_id, kapanis_siniri, ulasilabilir):
    qs = Oturum.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id).filter(
        Q(durum__in=Oturum.ACIK_DURUMLAR) | Q(bitis_zamani__gte=kapanis_siniri)
    ).order_by(Case(When(durum__in=Oturum.ACIK_DURUMLAR, then=0), default=1), "-id")
    return _kuyruk_bilgisi(qs, ulasilabilir)[:1]


def _cevrimici_uye(musteri_id, ulasilabilir):
    return cevrimici_operatorler(ulasilabilir).filter(uyelikler__musteri_id=musteri_id).order_by().only("id")[:1]


# Widget init runs on every page view of a tenant's site: its one or two statements are built and
# compiled once per process too (the ORM would spend ~3 ms a call building them).
_GUNCEL_OTURUM = DerlenmisSorgu(
    _guncel_oturum,
    parametreler={"musteri_id": int, "ziyaretci_id": str, "kapanis_siniri": datetime, "ulasilabilir": list},
)
_CEVRIMICI_UYE = DerlenmisSorgu(_cevrimici_uye, parametreler={"musteri_id": int, "ulasilabilir": list})


def ziyaretci_guncel_oturum(*, musteri, ziyaretci_id: str, kapanis_siniri) -> Oturum | None:
    """The visitor's open chat, else its newest chat closed since `kapanis_siniri` (issue 13: a
    reload still shows the chat that just ended, to read and rate), with queue place and operators
    online: one query on `oturum_ziyaretci_idx`."""
    ulasilabilir = varlik.ulasilabilir_idler()
    if ulasilabilir is None:  # presence unknown: the stored status alone (another statement's shape)
        return _guncel_oturum(musteri.pk, ziyaretci_id, kapanis_siniri, None).first()
    satirlar = _GUNCEL_OTURUM(musteri_id=musteri.pk, ziyaretci_id=ziyaretci_id, kapanis_siniri=kapanis_siniri,
                              ulasilabilir=sorted(ulasilabilir))
    return satirlar[0] if satirlar else None


def ziyaretci_oturum_var(*, musteri, ziyaretci_id: str, oturum_id) -> bool:
    return Oturum.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).filter(pk=id_coz(oturum_id)).exists()


def oturum_yayin_icin(*, oturum_id: int) -> Oturum | None:
    """A chat as it is now, with `sira_no` and `cevrimici_operator` (the socket fan-out reads it
    after the commit that changed it; the caller already knows it may be told)."""
    return ticket_idli(_kuyruk_bilgisi(Oturum.objects.filter(pk=oturum_id))).prefetch_related("etiketler").first()


def ticket_idli(qs: QuerySet[Oturum]) -> QuerySet[Oturum]:
    """The operator shape's `ticket_id` joined in (CONTRACT 24): no query per row."""
    return qs.annotate(_ticket_id=F("ticket__id"))


def arkadaki_bekleyenler(*, oturum: Oturum) -> list[Oturum]:
    """The waiting chats of the tenant queued behind `oturum` (whose places change when it enters
    or leaves the queue), with their queue info; at most SIRA_NO_SINIRI of them."""
    qs = Oturum.objects.kapsamda([oturum.musteri_id]).filter(
        Q(baslangic__gt=oturum.baslangic) | Q(baslangic=oturum.baslangic, id__gt=oturum.id),
        durum=Oturum.Durum.BEKLIYOR,
    ).exclude(pk=oturum.pk).order_by("baslangic", "id")
    return list(_kuyruk_bilgisi(qs)[:SIRA_NO_SINIRI])


def oturum_get(*, musteri_idleri: list[int], oturum_id, kilitle: bool = False) -> Oturum:
    """A chat of one of the operator's tenants; the same 404 for missing and another tenant's."""
    kapsam: QuerySet[Oturum] = Oturum.objects.kapsamda(musteri_idleri)
    # Locked: the chat row alone (an outer join cannot be locked); read: its ticket joined in.
    qs = kapsam.select_for_update() if kilitle else ticket_idli(kapsam)
    oturum = qs.filter(pk=id_coz(oturum_id)).first()
    if oturum is None:
        raise Bulunamadi()
    return oturum


# CONTRACT 24: the chat views, each the open chats of the caller's tenants it holds. A snoozed
# chat leaves every view but `ertelenen`.
GORUNUMLER = ("acik", "atanmamis", "benim", "ertelenen")


def _gorunum(gorunum: str, *, kullanici, musteri_idleri: list[int]) -> tuple[Q, list[Q]]:
    """(the view's condition, its index-friendly branches, as `oturum_list` gives them)."""
    acik = Oturum.ACIK_DURUMLAR
    if gorunum == "atanmamis":
        return Q(durum=Oturum.Durum.BEKLIYOR) & ~ERTELENMIS, [Q(musteri_id=m, durum=Oturum.Durum.BEKLIYOR)
                                                               for m in musteri_idleri]
    if gorunum == "benim":
        return Q(durum=Oturum.Durum.AKTIF, operator=kullanici) & ~ERTELENMIS, [
            Q(operator=kullanici, durum=Oturum.Durum.AKTIF)]
    dallar = [Q(musteri_id=m, durum=d) for m in musteri_idleri for d in acik]
    if gorunum == "ertelenen":
        return Q(durum__in=acik) & ERTELENMIS, dallar
    return Q(durum__in=acik) & ~ERTELENMIS, dallar


def gorunum_sayilari(*, kullanici, musteri_idleri: list[int]) -> dict[str, int]:
    """How many chats each view holds for the caller (`GET /operator/gorunumler`): one query,
    counted by condition over the open chats of its tenants."""
    kosullar = {ad: _gorunum(ad, kullanici=kullanici, musteri_idleri=musteri_idleri)[0] for ad in GORUNUMLER}
    sayilar = (Oturum.objects.kapsamda(musteri_idleri).filter(durum__in=Oturum.ACIK_DURUMLAR)
               .aggregate(**{ad: Count("id", filter=kosul) for ad, kosul in kosullar.items()}))
    return {ad: sayilar[ad] or 0 for ad in GORUNUMLER}


def oturum_list(
    *, kullanici, musteri_idleri: list[int], durum: str | None = None, musteri_id: int | None = None,
    etiket_id: int | None = None, q: str = "", gorunum: str | None = None,
    ekip: int | str | None = None,
) -> tuple[QuerySet[Oturum], list[Q]]:
    """The combined queue over the caller's tenants, as (rows, index-friendly branches).

    Without `durum`: the live queue, every waiting chat plus the caller's own active ones. A
    `musteri_id` that is not one of the caller's tenants is a 404, like any foreign id.

    The branches split the rows so that each is one range of an index: one per tenant on
    `oturum_kuyruk_idx` (musteri, durum, baslangic, id), and the caller's active chats on
    `oturum_operator_idx`. A page is then the first rows of each branch merged (`sayfala`), not
    a sort of every waiting chat of every tenant.
    """
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = ticket_idli(_oturum_suz(Oturum.objects.kapsamda(musteri_idleri), etiket_id=etiket_id, q=q))
    if ekip is not None:  # CONTRACT 22: an id, `benim`, `yok` (tenants.ekipler.ekip_suzgeci_dogrula)
        qs = qs.filter(ekip_suzgeci_q(ekip, kullanici_id=kullanici.pk))
    if gorunum:
        # A view (CONTRACT 24), combined with the other filters; `durum` narrows it further.
        kosul, dallar = _gorunum(gorunum, kullanici=kullanici, musteri_idleri=musteri_idleri)
        qs = qs.filter(kosul)
        return (qs.filter(durum=durum), dallar) if durum else (qs, dallar)
    if durum:
        return qs.filter(durum=durum), [Q(musteri_id=m, durum=durum) for m in musteri_idleri]
    dallar = [Q(musteri_id=m, durum=Oturum.Durum.BEKLIYOR) for m in musteri_idleri]
    dallar.append(Q(operator=kullanici, durum=Oturum.Durum.AKTIF))
    return qs.filter(Q(durum=Oturum.Durum.BEKLIYOR) | Q(durum=Oturum.Durum.AKTIF, operator=kullanici)), dallar


def _oturum_suz(qs: QuerySet[Oturum], *, etiket_id: int | None, q: str) -> QuerySet[Oturum]:
    """CONTRACT 16's filters of the operators' chat list: a label (the caller's tenants' only: the
    label is looked up by the view), and `q` in the visitor's id, name, e-mail or any message or
    note, folded on both sides (supportdesk.core.katlama)."""
    if etiket_id is not None:
        qs = qs.filter(etiketler__id=etiket_id)
    return _metinde_gecen(qs, q) if q else qs


def _metinde_gecen(qs: QuerySet[Oturum], q: str) -> QuerySet[Oturum]:
    """Chats with `q` in the visitor's id, name, e-mail or any message or note, folded on both
    sides (supportdesk.core.katlama: "ozturk" finds "Öztürk" on any database)."""
    k = katla(q)
    metinde = Mesaj.objects.filter(oturum=OuterRef("pk"), icerik__katli__contains=k)
    return qs.filter(Q(ziyaretci_id__katli__contains=k) | Q(ziyaretci_adi__katli__contains=k)
                     | Q(email__katli__contains=k) | Exists(metinde))


def sira_no(*, oturum: Oturum) -> int | None:
    """Place in the tenant's queue (1 = next) of a waiting chat, counting at most SIRA_NO_SINIRI."""
    if oturum.durum != Oturum.Durum.BEKLIYOR:
        return None
    if hasattr(oturum, "_sira_no"):
        return oturum._sira_no
    onde = Oturum.objects.filter(
        Q(baslangic__lt=oturum.baslangic) | Q(baslangic=oturum.baslangic, id__lt=oturum.id),
        musteri_id=oturum.musteri_id,
        durum=Oturum.Durum.BEKLIYOR,
    ).order_by()
    return len(onde.values_list("id", flat=True)[: SIRA_NO_SINIRI - 1]) + 1


def cevrimici_operator_var(*, musteri_id: int, oturum: Oturum | None = None, ekip_id: int | None = None) -> bool:
    """Someone of the tenant reachable (CONTRACT 15); `ekip_id`: someone of that team (CONTRACT 22:
    a team with nobody reachable is "nobody reachable" for its chats)."""
    if oturum is not None and hasattr(oturum, "_cevrimici_operator"):
        return oturum._cevrimici_operator
    ulasilabilir = varlik.ulasilabilir_idler()
    if ekip_id is not None:
        return cevrimici_operatorler(ulasilabilir).filter(
            uyelikler__musteri_id=musteri_id, uyelikler__ekipler__id=ekip_id).exists()
    if ulasilabilir is None:
        return _cevrimici_uye(musteri_id, None).exists()
    return bool(_CEVRIMICI_UYE(musteri_id=musteri_id, ulasilabilir=sorted(ulasilabilir)))


def _cevrimici_uye_var():
    """Someone of the chat's tenant online, or of its team when it has one (CONTRACT 22)."""
    return (Q(ekip__isnull=True) & Exists(Kullanici.objects.filter(
        uyelikler__musteri_id=OuterRef("musteri_id"), durum__in=CEVRIMICI_DURUMLAR, is_active=True))) | (
        Q(ekip__isnull=False) & Exists(Kullanici.objects.filter(
            uyelikler__musteri_id=OuterRef("musteri_id"), uyelikler__ekipler__id=OuterRef("ekip_id"),
            durum__in=CEVRIMICI_DURUMLAR, is_active=True)))


def _dakika_ayari(alan: str, alt: int, ust: int, varsayilan: int, *, bos_olur: bool):
    """The tenant's setting in minutes as SQL, read as tenants.ayarlar reads it: a stored value
    out of its range is the default; null stays null where it means "never" (`bos_olur`)."""
    sutun = f"musteri__{alan}"
    kosullar = [When(Q(**{f"{sutun}__isnull": True}), then=Value(None))] if bos_olur else []
    kosullar.append(When(Q(**{f"{sutun}__gte": alt, f"{sutun}__lte": ust}), then=F(sutun)))
    return Case(*kosullar, default=Value(varsayilan), output_field=IntegerField())


def _once(simdi, dakika):
    """`simdi` minus a per-row number of minutes (null: null, which no comparison passes)."""
    return Value(simdi) - ExpressionWrapper(dakika * timedelta(minutes=1), output_field=DurationField())


def ticket_onerilecek_idler(*, simdi, adet: int = 500) -> list[int]:
    """Waiting longer than its tenant's `bekleme_zaman_asimi_dk` (from its start), never offered a
    ticket, and nobody of the tenant online: one statement for every tenant."""
    dakika = _dakika_ayari("bekleme_zaman_asimi_dk", 1, 1440, 10, bos_olur=False)
    return list(
        Oturum.objects.filter(durum=Oturum.Durum.BEKLIYOR, ticket_onerildi__isnull=True)
        .filter(baslangic__lt=_once(simdi, dakika))
        .exclude(_cevrimici_uye_var()).order_by("baslangic").values_list("id", flat=True)[:adet]
    )


def _son_mesaj_zamani():
    # The newest message by the `(oturum, id)` index.
    # Notes (CONTRACT 16) are not conversation: they keep no chat from being silent.
    return Subquery(Mesaj.objects.gorunur().filter(oturum_id=OuterRef("pk")).order_by("-id").values("zaman")[:1])


def sessiz_aktif_idler(*, simdi, adet: int = 500) -> list[int]:
    """Active chats of tenants with a silent close (`sessiz_kapatma_dk` not null), accepted longer
    ago than it and whose newest message is older than it too: one statement for every tenant."""
    dakika = _dakika_ayari("sessiz_kapatma_dk", 5, 10080, 30, bos_olur=True)
    return list(
        Oturum.objects.filter(durum=Oturum.Durum.AKTIF).annotate(_sinir=_once(simdi, dakika), _son=_son_mesaj_zamani())
        .filter(kabul_zamani__lt=F("_sinir")).filter(Q(_son__lt=F("_sinir")) | Q(_son__isnull=True))
        .order_by("id").values_list("id", flat=True)[:adet]
    )


def sessiz_mi(*, oturum: Oturum, sinir) -> bool:
    son = Mesaj.objects.gorunur().filter(oturum_id=oturum.pk).order_by("-id").values_list("zaman", flat=True).first()
    return (oturum.kabul_zamani is None or oturum.kabul_zamani < sinir) and (son is None or son < sinir)


def ticket_taslagi(*, oturum: Oturum) -> dict:
    """A ticket made of a chat: subject, the transcript as its first message, the chat's name and
    e-mail (issue 13). The widget shows it for editing; `widget/chat/ticket` uses it as defaults.
    Its words are the chat's language (CONTRACT 19), as the ticket made of it is."""
    with dilde(oturum.dil):
        return _ticket_taslagi(oturum)


def _ticket_taslagi(oturum: Oturum) -> dict:
    satirlar = []
    ad = oturum.ziyaretci_adi or _("Ziyaretçi")
    # The draft is shown to the visitor: never an internal note (CONTRACT 16).
    for m in Mesaj.objects.gorunur().filter(oturum_id=oturum.pk).annotate(_operator_adi=F("operator__ad")).order_by("id"):
        if m.gonderen == Mesaj.Gonderen.SISTEM and not m.otomatik:
            continue  # a rule's canned response stays: the visitor read it (CONTRACT 23)
        if m.otomatik:
            kim = str(OTOMATIK_YANIT)
        elif m.gonderen == Mesaj.Gonderen.ZIYARETCI:
            kim = ad
        else:
            kim = (m._operator_adi or "").strip() or _("Temsilci")
        satirlar.append(f"[{timezone.localtime(m.zaman):%H:%M}] {kim}: {m.icerik}")
    metin = _("Sohbet #%(id)s üzerinden oluşturuldu.") % {"id": oturum.pk} + "\n\n" + "\n".join(satirlar)
    if len(metin) > TICKET_MESAJ_MAX:  # keep the end of a very long chat
        metin = "…" + metin[-(TICKET_MESAJ_MAX - 1):]
    ilk = next((s.split(": ", 1)[1] for s in satirlar), "")
    konu = " ".join(ilk.split())[:80] or _("Sohbet #%(id)s") % {"id": oturum.pk}
    return {"konu": konu, "mesaj": metin, "ad": oturum.ziyaretci_adi, "email": oturum.email}


def aktif_chat_sayisi(*, kullanici_id: int, musteri_id: int) -> int:
    return Oturum.objects.kapsamda([musteri_id]).filter(operator_id=kullanici_id, durum=Oturum.Durum.AKTIF).count()


# --- messages ------------------------------------------------------------------------------
def mesaj_sayfasi(*, oturum: Oturum, sonra: int = 0, adet: int, notlar: bool = False) -> list[Mesaj]:
    """Up to `adet` messages of a chat already resolved within its scope, `id > sonra`, oldest
    first, each with its operator's display name and avatar (`_operator_adi`, `_operator_avatar`)
    joined: one query on the
    `(oturum, id)` index, whatever the number of operators, and a second for the attachments
    (`ek`) only when a message of the page has one. Internal notes (CONTRACT 16) only with
    `notlar` (the operators' read): a visitor's page never holds one."""
    if sonra >= ID_MAX:
        return []  # no id is larger (and SQLite cannot even bind such a number)
    if getattr(oturum, "_yeni_mesaj_esigi", None) == sonra and not getattr(oturum, "_yeni_mesaj", False):
        return []  # the chat's own statement found none (ziyaretci_oturum_get)
    mesajlar = (_MESAJ_SAYFASI_NOTLU if notlar else _MESAJ_SAYFASI)(oturum_id=oturum.pk, sonra=sonra, adet=adet)
    prefetch_related_objects(mesajlar, "ek")  # no query when no message has an attachment
    return mesajlar


def onceki_mesaj_idleri(*, mesaj: Mesaj) -> tuple[int | None, int | None]:
    """The message before `mesaj` in its chat, as (any message: the operators' timeline, notes
    included; a message the visitor sees: no note), None at the chat's start. A socket frame
    carries it (`onceki_id`, CONTRACT 11) so that a client sees a frame that came before its
    predecessor and reads with `sonra` instead. Exact after the commit too: every message of a chat
    is written under the chat's row lock, so a chat's message ids are in commit order. One query,
    two backward steps on `mesaj_oturum_idx`. The visitor's write and a note's do not need it
    (issue 41): they take the same answer from the chat's row under its lock
    (`Oturum.son_mesaj_no`, `son_gorunur_mesaj_no`, kept by every message's write); messages
    are only ever deleted with their chat, so neither column names a message that is gone."""
    satirlar = _ONCEKI_MESAJLAR(oturum_id=mesaj.oturum_id, mesaj_id=mesaj.pk)
    return (satirlar[0]._onceki, satirlar[0]._gorunur) if satirlar else (None, None)


# Compiled once (issue 41): every message's socket frame runs it, and building the two subqueries
# cost more than a third of a visitor message's CPU.
_ONCEKI_MESAJLAR = DerlenmisSorgu(
    lambda oturum_id, mesaj_id: Oturum.objects.filter(pk=oturum_id).only("id").annotate(
        _onceki=Subquery(Mesaj.objects.filter(oturum_id=OuterRef("pk"), id__lt=mesaj_id).order_by("-id")
                         .values("id")[:1]),
        _gorunur=Subquery(Mesaj.objects.gorunur().filter(oturum_id=OuterRef("pk"), id__lt=mesaj_id)
                          .order_by("-id").values("id")[:1])),
    parametreler={"oturum_id": int, "mesaj_id": int},
)


_MESAJ_SAYFASI = DerlenmisSorgu(
    lambda oturum_id, sonra, adet: Mesaj.objects.gorunur().filter(oturum_id=oturum_id, id__gt=sonra)
    .annotate(_operator_adi=F("operator__ad"), _operator_avatar=F("operator__avatar")).order_by("id")[:adet],
    parametreler={"oturum_id": int, "sonra": int},
)
_MESAJ_SAYFASI_NOTLU = DerlenmisSorgu(
    lambda oturum_id, sonra, adet: Mesaj.objects.filter(oturum_id=oturum_id, id__gt=sonra)
    .annotate(_operator_adi=F("operator__ad"), _operator_avatar=F("operator__avatar")).order_by("id")[:adet],
    parametreler={"oturum_id": int, "sonra": int},
)


# --- canned responses ----------------------------------------------------------------------
def hazir_yanit_list(*, musteri_idleri: list[int], musteri_id: int | None = None, q: str = "") -> QuerySet[HazirYanit]:
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = HazirYanit.objects.kapsamda(musteri_idleri)
    if q:
        qs = qs.filter(Q(kisayol__icontains=q) | Q(baslik__icontains=q) | Q(icerik__icontains=q))
    return qs


# --- dashboard -----------------------------------------------------------------------------
def bugun_baslangici(tz=None) -> datetime:
    """The start of today in `tz` (a tenant's zone, `tenants.ayarlar.bolge`; None: TIME_ZONE)."""
    simdi = timezone.localtime(timezone=tz)
    return simdi.replace(hour=0, minute=0, second=0, microsecond=0)


def dashboard_verisi(*, musteri_idleri: list[int], bolgeler: dict | None = None) -> dict[str, Any]:
    """Per tenant: waiting, active, closed today, rating average (30 days), operators online.

    Three grouped queries whatever the data size; "today" is the local day of each tenant's zone
    (`bolgeler`: tenant id -> tzinfo; a tenant missing from it: settings.TIME_ZONE).
    """
    sinir = timezone.now() - timedelta(days=30)
    bolgeler = bolgeler or {}
    bugunler = {mid: bugun_baslangici(bolgeler.get(mid)) for mid in musteri_idleri}
    bugun = min(bugunler.values(), default=bugun_baslangici())
    bugun_kosulu = Q(pk__in=[])
    for mid, baslangic in bugunler.items():
        bugun_kosulu |= Q(musteri_id=mid, bitis_zamani__gte=baslangic)
    satirlar = {
        r["musteri_id"]: r
        for r in Oturum.objects.kapsamda(musteri_idleri)
        .filter(Q(durum__in=Oturum.ACIK_DURUMLAR) | Q(bitis_zamani__gte=min(bugun, sinir)) | Q(puan_zamani__gte=sinir))
        .values("musteri_id")
        .annotate(
            bekleyen=Count("id", filter=Q(durum=Oturum.Durum.BEKLIYOR)),
            aktif=Count("id", filter=Q(durum=Oturum.Durum.AKTIF)),
            bugun_kapanan=Count("id", filter=Q(durum=Oturum.Durum.KAPANDI) & bugun_kosulu),
            puan_ortalama=Avg("puan", filter=Q(puan__isnull=False, puan_zamani__gte=sinir)),
            puan_sayisi=Count("id", filter=Q(puan__isnull=False, puan_zamani__gte=sinir)),
        )
        .order_by()
    }
    cevrimici = {
        r["uyelikler__musteri_id"]: r["n"]
        for r in cevrimici_operatorler().filter(uyelikler__musteri_id__in=musteri_idleri)
        .values("uyelikler__musteri_id")
        .annotate(n=Count("id", distinct=True))
        .order_by()
    }
    toplam_cevrimici = (
        cevrimici_operatorler().filter(uyelikler__musteri_id__in=musteri_idleri)
        .distinct()
        .count()
    )
    sonuc = {}
    for mid in musteri_idleri:
        r = satirlar.get(mid, {})
        sonuc[mid] = {
            "bekleyen_chat": r.get("bekleyen", 0),
            "aktif_chat": r.get("aktif", 0),
            "bugun_kapanan_chat": r.get("bugun_kapanan", 0),
            "ortalama_puan": r.get("puan_ortalama"),
            "puan_sayisi": r.get("puan_sayisi", 0),
            "cevrimici_operator": cevrimici.get(mid, 0),
        }
    return {"musteriler": sonuc, "toplam_cevrimici_operator": toplam_cevrimici}


def hazir_yanit_get(*, musteri_id: int, hazir_yanit_id: int) -> HazirYanit:
    """A canned response of the tenant; the same 404 for missing and another tenant's."""
    yanit = (HazirYanit.objects.kapsamda([musteri_id]).filter(pk=hazir_yanit_id).first()
             if gecerli_id_mi(hazir_yanit_id) else None)
    if yanit is None:
        raise Bulunamadi()
    return yanit


# --- the owners' history (portal, CONTRACT 13) ---------------------------------------------
def gecmis_oturum_list(*, musteri_id: int, q: str = "", bas=None, son=None) -> QuerySet[Oturum]:
    """The tenant's chats, newest first, matching `q` in the visitor's id, name, e-mail or any
    message text; `bas`/`son` bound the start time ([bas, son))."""
    qs = Oturum.objects.kapsamda([musteri_id]).select_related("operator")
    if bas is not None:
        qs = qs.filter(baslangic__gte=bas)
    if son is not None:
        qs = qs.filter(baslangic__lt=son)
    return _metinde_gecen(qs, q) if q else qs


def gecmis_oturum_get(*, musteri_id: int, oturum_id: int) -> Oturum:
    oturum = (gecmis_oturum_list(musteri_id=musteri_id).filter(pk=oturum_id).first()
              if gecerli_id_mi(oturum_id) else None)
    if oturum is None:
        raise Bulunamadi()
    return oturum


def oturum_mesajlari(*, oturum: Oturum) -> QuerySet[Mesaj]:
    return Mesaj.objects.filter(oturum=oturum).select_related("operator", "ek").order_by("id")


def oturum_sayilari_durumlara_gore() -> dict[str, int]:
    """Waiting and active chats of every tenant, for the `/metrics` gauge (CONTRACT 20): one query.
    Platform-wide on purpose: only the platform's metrics scraper reads it."""
    return durum_sayilari(Oturum.objects, Oturum.ACIK_DURUMLAR)
