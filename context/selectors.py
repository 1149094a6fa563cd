"""Reads of the context API, scoped in the query to the caller's tenants (`kapsamda`)."""
from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from chat.models import Oturum
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from tenants.ayarlar import bolge
from tenants.models import Musteri
from tickets.models import Ticket

from .banner import banner_olustur
from .models import SAKLANAN_KAYIT, EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci


def ziyaretci_get(*, musteri_idleri: list[int], ziyaretci_id: str, musteri_id: int | None = None) -> Ziyaretci:
    """The visitor `ziyaretci_id` in one of the caller's tenants (CONTRACT 6).

    `musteri_id` picks the tenant; without it the id must name a visitor in exactly one of the
    caller's tenants (several: 400 naming them). Missing, or only in other tenants: the same 404.
    """
    qs = Ziyaretci.objects.kapsamda(musteri_idleri).filter(ziyaretci_id=ziyaretci_id).select_related("musteri")
    if musteri_id is not None:
        qs = qs.filter(musteri_id=musteri_id)
    adaylar = list(qs.order_by("musteri_id")[:20])
    # The same id may also be known from chats or tickets in the caller's other tenants: the
    # visitor "exists" there too, so it counts towards the choice (looked up only in tenants not
    # already found, so a single-tenant caller with a context row costs no extra query).
    bulunan = {z.musteri_id for z in adaylar}
    kalan = [mid for mid in musteri_idleri if mid not in bulunan and (musteri_id is None or mid == musteri_id)]
    if kalan:
        adaylar += _yalniz_oturum_ya_da_ticketta(musteri_idleri=kalan, ziyaretci_id=ziyaretci_id, musteri_id=musteri_id)
        adaylar.sort(key=lambda z: z.musteri_id)
    if not adaylar:
        raise Bulunamadi(_("Ziyaretçi bulunamadı."))
    if len(adaylar) > 1:
        projeler = ", ".join(f"{z.musteri_id} ({z.musteri.firma_adi})" for z in adaylar)
        mesaj = _("Bu ziyaretçi birden çok projenizde var: %(projeler)s. musteri_id parametresiyle birini seçin.") % {
            "projeler": projeler}
        raise GecersizIstek(mesaj, alanlar={"musteri_id": mesaj})
    return adaylar[0]


def _yalniz_oturum_ya_da_ticketta(*, musteri_idleri: list[int], ziyaretci_id: str, musteri_id: int | None) -> list[Ziyaretci]:
    """A visitor who chatted or opened a ticket (e.g. over the API) but sent no context yet.

    The operator opening that chat gets an empty context with the name and e-mail the visitor
    gave, not a 404. Unsaved rows: nothing is written by a read.
    """
    kosul: dict[str, object] = {"ziyaretci_id": ziyaretci_id, "musteri_id__in": musteri_idleri}
    if musteri_id is not None:
        kosul["musteri_id"] = musteri_id
    bilinen = _ziyaretcinin_verdigi(kosul)
    if not bilinen:
        return []
    musteriler = Musteri.objects.filter(id__in=bilinen).order_by("id")
    return [Ziyaretci(musteri=m, ziyaretci_id=ziyaretci_id, ad=bilinen[m.id][0] or "", email=bilinen[m.id][1] or "")
            for m in musteriler]


def _ziyaretcinin_verdigi(kosul: dict) -> dict[int, tuple[str, str]]:
    """Per tenant, the name and e-mail the visitor typed last at chat/start or ticket/create.

    Newest first, so the name given last wins; chats before tickets; a blank does not hide an
    older value. Two short value lists, whatever the number of chats and tickets."""
    bilinen: dict[int, list[str]] = {}
    for model, ad_alani in ((Oturum, "ziyaretci_adi"), (Ticket, "ad")):
        for mid, ad, email in model.objects.filter(**kosul).order_by("-id").values_list("musteri_id", ad_alani, "email")[:50]:
            onceki = bilinen.setdefault(mid, ["", ""])
            onceki[0] = onceki[0] or ad or ""
            onceki[1] = onceki[1] or email or ""
    return {mid: (ad, email) for mid, (ad, email) in bilinen.items()}


def _verdigiyle_tamamla(ziyaretci: Ziyaretci) -> None:
    """Fill blanks of a stored profile with what the visitor typed in the widget (docs/context.md 5).

    Precedence: what the tenant's site sent through customer-info always wins, field by field;
    the visitor's own `ad`/`email` only fill what is empty. The e-mail of a verified profile is
    never filled (an operator would read a typed address as the verified one). In memory only:
    a read writes nothing.
    """
    eksik_ad = not (ziyaretci.ad or ziyaretci.soyad)
    eksik_email = not ziyaretci.email and not ziyaretci.identity_dogrulandi
    if ziyaretci.pk is None or not (eksik_ad or eksik_email):
        return
    ad, email = _ziyaretcinin_verdigi(
        {"musteri_id": ziyaretci.musteri_id, "ziyaretci_id": ziyaretci.ziyaretci_id}
    ).get(ziyaretci.musteri_id, ("", ""))
    if eksik_ad:
        ziyaretci.ad = ad
    if eksik_email:
        ziyaretci.email = email


def _kayitlar(model, ziyaretci: Ziyaretci, limit: int) -> QuerySet:
    if ziyaretci.pk is None:  # known from a chat or ticket only: nothing recorded yet
        return model.objects.none()
    return model.objects.kapsamda([ziyaretci.musteri_id]).filter(ziyaretci=ziyaretci).order_by("-id")[:limit]


def sayfa_list(*, ziyaretci: Ziyaretci, limit: int = SAKLANAN_KAYIT) -> QuerySet[SayfaGoruntuleme]:
    return _kayitlar(SayfaGoruntuleme, ziyaretci, limit)


def hata_kaydi_list(*, ziyaretci: Ziyaretci, limit: int = SAKLANAN_KAYIT) -> QuerySet[HataKaydi]:
    return _kayitlar(HataKaydi, ziyaretci, limit)


def ekran_goruntusu_list(*, ziyaretci: Ziyaretci, limit: int = SAKLANAN_KAYIT) -> QuerySet[EkranGoruntusu]:
    return _kayitlar(EkranGoruntusu, ziyaretci, limit)


@dataclass(frozen=True)
class Baglam:
    """What the operator sees of a visitor (spec 2.5); `api.serializers.BaglamSerializer` writes it."""

    ziyaretci: Ziyaretci
    banner: list[dict]
    sayfalar: QuerySet
    hatalar: QuerySet
    ekran_goruntuleri: QuerySet


def baglam_get(*, musteri_idleri: list[int], ziyaretci_id: str, musteri_id: int | None,
               bugun: date | None = None) -> Baglam:
    """The visitor's context in one of the caller's tenants (errors as `ziyaretci_get`); the
    banner's trial days count days of the tenant's zone (`bugun`: today there, unless given)."""
    ziyaretci = ziyaretci_get(musteri_idleri=musteri_idleri, ziyaretci_id=ziyaretci_id, musteri_id=musteri_id)
    _verdigiyle_tamamla(ziyaretci)
    tz = bolge(ziyaretci.musteri)
    bugun = bugun or timezone.localdate(timezone=tz)
    return Baglam(
        ziyaretci=ziyaretci,
        banner=banner_olustur(paket=ziyaretci.paket, kontor=ziyaretci.kontor, ekstra=ziyaretci.ekstra, bugun=bugun,
                              tz=tz),
        sayfalar=sayfa_list(ziyaretci=ziyaretci),
        hatalar=hata_kaydi_list(ziyaretci=ziyaretci),
        ekran_goruntuleri=ekran_goruntusu_list(ziyaretci=ziyaretci),
    )
