"""Reads of contacts (CONTRACT 25), scoped in the query to the caller's tenants (`kapsamda`).

Contacts' own rows only: the contact's figures over chats and tickets (`ilk_gorulme`,
`oturum_sayisi`, ...) are composed above chat and tickets, in `context.kisi_ozeti`."""
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.katlama import katla

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


def ziyaretci_kisisi(*, musteri_id: int, ziyaretci_id: str) -> Kisi | None:
    """The contact a visitor id belongs to, if it has one yet (the visitor profile, CONTRACT 16)."""
    bag = (KisiZiyaretci.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id)
           .select_related("kisi").first())
    return bag.kisi if bag else None
