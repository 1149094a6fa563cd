"""Reads of contacts (CONTRACT 25), scoped in the query to the caller's tenants (`kapsamda`).

A page of contacts costs a fixed number of queries whatever its size: the contacts, their visitor
ids, one aggregate of chats and one of tickets grouped by visitor, and the tenants' declarations."""
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, Max, Min, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from chat.models import Oturum
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.katlama import katla
from tickets.models import Ticket

from .models import Kisi, KisiZiyaretci, NitelikTanimi

Q_MAX = 200


def kisi_get(*, musteri_idleri: list[int], kisi_id) -> Kisi:
    """A contact of one of the caller's tenants; the same 404 for missing and another tenant's."""
    kisi = Kisi.objects.kapsamda(musteri_idleri).filter(pk=kisi_id).first() if gecerli_id_mi(kisi_id) else None
    if kisi is None:
        raise Bulunamadi(_("Kişi bulunamadı."))
    return kisi


def kisi_list(*, musteri_idleri: list[int], musteri_id: int | None = None, q: str | None = None) -> QuerySet[Kisi]:
    """The caller's contacts, newest first (the caller pages by `-id`). `q` matches name, e-mail,
    company and phone folded like search (CONTRACT 16: "ozturk" finds "Öztürk"), and visitor ids."""
    qs = Kisi.objects.kapsamda(musteri_idleri)
    if musteri_id is not None:
        qs = qs.filter(musteri_id=musteri_id)
    if q is not None:
        q = " ".join(q.split())
        if not q or len(q) > Q_MAX or "\x00" in q:
            raise GecersizIstek(alanlar={"q": _("1-%(sayi)s karakter olmalı.") % {"sayi": Q_MAX}})
        k = katla(q)
        qs = qs.filter(Q(ad__katli__contains=k) | Q(email__katli__contains=k) | Q(sirket__katli__contains=k)
                       | Q(telefon__contains=q)
                       | Exists(KisiZiyaretci.objects.filter(kisi=OuterRef("pk"), ziyaretci_id__icontains=q)))
    return qs


def nitelik_list(*, musteri_id: int) -> list[NitelikTanimi]:
    return list(NitelikTanimi.objects.kapsamda([musteri_id]).order_by("sira", "id"))


def nitelik_verisi(t: NitelikTanimi) -> dict:
    veri: dict = {"anahtar": t.anahtar, "ad": t.ad, "tur": t.tur}
    if t.tur == NitelikTanimi.Tur.SECIM:
        veri["secenekler"] = list(t.secenekler)
    return veri


@dataclass
class _Ozet:
    ilk: datetime | None = None
    son: datetime | None = None
    oturum: int = 0
    ticket: int = 0


def kisi_verileri(kisiler: list[Kisi]) -> list[dict]:
    """The contacts in the contract's shape, in four more queries at most however many there are."""
    if not kisiler:
        return []
    idler = [k.pk for k in kisiler]
    musteriler = {k.musteri_id for k in kisiler}
    ziyaretciler: dict[int, list[str]] = defaultdict(list)
    for kisi_id, ziyaretci_id in (KisiZiyaretci.objects.filter(kisi_id__in=idler).order_by("id")
                                  .values_list("kisi_id", "ziyaretci_id")):
        ziyaretciler[kisi_id].append(ziyaretci_id)
    tum = {z for zs in ziyaretciler.values() for z in zs}
    ozet: dict[tuple[int, str], _Ozet] = defaultdict(_Ozet)
    if tum:
        for r in (Oturum.objects.filter(musteri_id__in=musteriler, ziyaretci_id__in=tum)
                  .values("musteri_id", "ziyaretci_id").annotate(n=Count("id"), ilk=Min("baslangic"), son=Max("baslangic"))):
            o = ozet[(r["musteri_id"], r["ziyaretci_id"])]
            o.oturum, o.ilk, o.son = r["n"], r["ilk"], r["son"]
        for r in (Ticket.objects.filter(musteri_id__in=musteriler, ziyaretci_id__in=tum)
                  .values("musteri_id", "ziyaretci_id").annotate(n=Count("id"), ilk=Min("olusturulma"), son=Max("guncellenme"))):
            o = ozet[(r["musteri_id"], r["ziyaretci_id"])]
            o.ticket = r["n"]
            o.ilk = min(x for x in (o.ilk, r["ilk"]) if x) if (o.ilk or r["ilk"]) else None
            o.son = max(x for x in (o.son, r["son"]) if x) if (o.son or r["son"]) else None
    tanimli: dict[int, set[str]] = defaultdict(set)
    for musteri_id, anahtar in NitelikTanimi.objects.kapsamda(musteriler).values_list("musteri_id", "anahtar"):
        tanimli[musteri_id].add(anahtar)
    return [_veri(k, ziyaretciler[k.pk], [ozet[(k.musteri_id, z)] for z in ziyaretciler[k.pk] if (k.musteri_id, z) in ozet],
                  tanimli[k.musteri_id]) for k in kisiler]


def _veri(kisi: Kisi, ziyaretci_idleri: list[str], ozetler: list[_Ozet], tanimli: set[str]) -> dict:
    ilkler = [kisi.olusturulma, *(o.ilk for o in ozetler if o.ilk)]
    sonlar = [kisi.olusturulma, *(o.son for o in ozetler if o.son)]
    return {
        "id": kisi.pk, "musteri_id": kisi.musteri_id, "ad": kisi.ad, "email": kisi.email, "telefon": kisi.telefon,
        "sirket": kisi.sirket,
        "nitelikler": {a: d for a, d in kisi.nitelikler.items() if a in tanimli},
        "ziyaretci_idleri": ziyaretci_idleri,
        "ilk_gorulme": min(ilkler), "son_gorulme": max(sonlar),
        "oturum_sayisi": sum(o.oturum for o in ozetler), "ticket_sayisi": sum(o.ticket for o in ozetler),
    }


def kisi_verisi(kisi: Kisi) -> dict:
    return kisi_verileri([kisi])[0]


def ziyaretci_kisisi(*, musteri_id: int, ziyaretci_id: str) -> Kisi | None:
    """The contact a visitor id belongs to, if it has one yet (the visitor profile, CONTRACT 16)."""
    bag = (KisiZiyaretci.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id)
           .select_related("kisi").first())
    return bag.kisi if bag else None
