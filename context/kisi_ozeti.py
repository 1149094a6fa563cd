"""The contact in the contract's shape (CONTRACT 25): its own fields with its figures over the
chats and tickets of all its visitor ids. Composed here, above chat and tickets, because contacts
sit below them (chat and tickets link visitors to contacts from their actions: `kisiler.services`).

A page of contacts costs a fixed number of queries whatever its size: their visitor ids, one
aggregate of chats and one of tickets grouped by visitor, and the tenants' declarations."""
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Min

from chat.models import Oturum
from kisiler.models import Kisi, KisiZiyaretci, NitelikTanimi
from tickets.models import Ticket


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
