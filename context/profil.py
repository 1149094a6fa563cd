"""The visitor profile of the operators' inbox (CONTRACT 16): who the visitor is in one tenant,
figures over its whole history, and its newest chats and tickets in the operators' shapes.

A fixed number of queries whatever the history's size: the visitor (`selectors.ziyaretci_get`,
CONTRACT 6's choice of tenant), one aggregate per kind, one page per kind with its labels
prefetched (and the owners of the tickets joined).

It reads from the visitor's contact (CONTRACT 25) when it has one: the name and e-mail an operator
gave the contact, and the figures, chats and tickets of all the contact's visitor ids (a person
on a phone and a laptop is one history). Without a contact (a visitor known only from context) it
is the visitor id's own."""
from dataclasses import dataclass

from django.db.models import Avg, Count, Max, Min, prefetch_related_objects

from chat.models import Oturum
from chat.selectors import ticket_idli
from kisiler.selectors import ziyaretci_kisisi
from tickets.models import Ticket

from .kisi_ozeti import kisi_verileri
from .models import SayfaGoruntuleme, Ziyaretci
from .selectors import _verdigiyle_tamamla, ziyaretci_get

SON_KAYIT = 20  # the newest chats and tickets shown


@dataclass
class ZiyaretciProfili:
    ziyaretci: Ziyaretci
    ozet: dict
    oturumlar: list[Oturum]
    ticketlar: list[Ticket]
    kisi: dict | None = None


def ziyaretci_profili_get(*, musteri_idleri: list[int], ziyaretci_id: str, musteri_id: int | None) -> ZiyaretciProfili:
    ziyaretci = ziyaretci_get(musteri_idleri=musteri_idleri, ziyaretci_id=ziyaretci_id, musteri_id=musteri_id)
    _verdigiyle_tamamla(ziyaretci)
    kisi = ziyaretci_kisisi(musteri_id=ziyaretci.musteri_id, ziyaretci_id=ziyaretci.ziyaretci_id)
    kisi_verisi = kisi_verileri([kisi])[0] if kisi else None
    idler = kisi_verisi["ziyaretci_idleri"] if kisi_verisi else [ziyaretci.ziyaretci_id]
    kosul = {"musteri_id": ziyaretci.musteri_id, "ziyaretci_id__in": idler}
    sohbet = Oturum.objects.filter(**kosul).aggregate(
        n=Count("id"), ilk=Min("baslangic"), son=Max("baslangic"), son_bitis=Max("bitis_zamani"), puan=Avg("puan"))
    talep = Ticket.objects.filter(**kosul).aggregate(n=Count("id"), ilk=Min("olusturulma"), son=Max("guncellenme"))
    son_sayfa = (SayfaGoruntuleme.objects.filter(ziyaretci=ziyaretci).aggregate(son=Max("zaman"))["son"]
                 if ziyaretci.pk else None)
    anlar = [ziyaretci.olusturulma if ziyaretci.pk else None, sohbet["ilk"], talep["ilk"]]
    sonlar = [ziyaretci.guncellenme if ziyaretci.pk else None, son_sayfa, sohbet["son"], sohbet["son_bitis"], talep["son"]]
    oturumlar = list(ticket_idli(Oturum.objects.filter(**kosul)).order_by("-baslangic", "-id")[:SON_KAYIT])
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
    if kisi_verisi:
        ozet["ilk_gorulme"] = min(a for a in (ozet["ilk_gorulme"], kisi_verisi["ilk_gorulme"]) if a)
    return ZiyaretciProfili(ziyaretci=ziyaretci, ozet=ozet, oturumlar=oturumlar, ticketlar=ticketlar, kisi=kisi_verisi)
