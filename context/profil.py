"""The visitor profile of the operators' inbox (CONTRACT 16): who the visitor is in one tenant,
figures over its whole history, and its newest chats and tickets in the operators' shapes.

A fixed number of queries whatever the history's size: the visitor (`selectors.ziyaretci_get`,
CONTRACT 6's choice of tenant), one aggregate per kind, one page per kind with its labels
prefetched (and the owners of the tickets joined)."""
from dataclasses import dataclass

from django.db.models import Avg, Count, Max, Min, prefetch_related_objects

from chat.models import Oturum
from tickets.models import Ticket

from .models import SayfaGoruntuleme, Ziyaretci
from .selectors import _verdigiyle_tamamla, ziyaretci_get

SON_KAYIT = 20  # the newest chats and tickets shown


@dataclass
class ZiyaretciProfili:
    ziyaretci: Ziyaretci
    ozet: dict
    oturumlar: list[Oturum]
    ticketlar: list[Ticket]


def ziyaretci_profili_get(*, musteri_idleri: list[int], ziyaretci_id: str, musteri_id: int | None) -> ZiyaretciProfili:
    ziyaretci = ziyaretci_get(musteri_idleri=musteri_idleri, ziyaretci_id=ziyaretci_id, musteri_id=musteri_id)
    _verdigiyle_tamamla(ziyaretci)
    kosul = {"musteri_id": ziyaretci.musteri_id, "ziyaretci_id": ziyaretci.ziyaretci_id}
    sohbet = Oturum.objects.filter(**kosul).aggregate(
        n=Count("id"), ilk=Min("baslangic"), son=Max("baslangic"), son_bitis=Max("bitis_zamani"), puan=Avg("puan"))
    talep = Ticket.objects.filter(**kosul).aggregate(n=Count("id"), ilk=Min("olusturulma"), son=Max("guncellenme"))
    son_sayfa = (SayfaGoruntuleme.objects.filter(ziyaretci=ziyaretci).aggregate(son=Max("zaman"))["son"]
                 if ziyaretci.pk else None)
    anlar = [ziyaretci.olusturulma if ziyaretci.pk else None, sohbet["ilk"], talep["ilk"]]
    sonlar = [ziyaretci.guncellenme if ziyaretci.pk else None, son_sayfa, sohbet["son"], sohbet["son_bitis"], talep["son"]]
    oturumlar = list(Oturum.objects.filter(**kosul).order_by("-baslangic", "-id")[:SON_KAYIT])
    ticketlar = list(Ticket.objects.filter(**kosul).select_related("operator").order_by("-olusturulma", "-id")[:SON_KAYIT])
    prefetch_related_objects(oturumlar, "etiketler")
    prefetch_related_objects(ticketlar, "etiketler")
    ozet = {
        "ilk_gorulme": min((a for a in anlar if a), default=None),
        "son_gorulme": max((a for a in sonlar if a), default=None),
        "oturum_sayisi": sohbet["n"],
        "ticket_sayisi": talep["n"],
        "ortalama_puan": round(sohbet["puan"], 2) if sohbet["puan"] is not None else None,
    }
    return ZiyaretciProfili(ziyaretci=ziyaretci, ozet=ozet, oturumlar=oturumlar, ticketlar=ticketlar)
