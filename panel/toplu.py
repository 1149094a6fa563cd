"""Bulk changes (CONTRACT 24, `POST /operator/toplu`): one action over up to TOPLU_EN_COK chats or
tickets, composed here above both feature apps (as the dashboard is).

Each item is changed by the very action its single endpoint calls (the same checks, events,
webhooks and audit), in a transaction of its own: one item refused (another tenant's: 404; a
closed chat: 409) leaves the others changed, and each answer says how its item fared, in the
order given. The request as a whole is checked first (`eylem_dogrula`): a bad action changes
nothing."""
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from chat import selectors as chat_selectors
from chat import services as chat_services
from chat.models import Oturum
from supportdesk.core.erteleme import kadar_coz
from supportdesk.core.exceptions import ApiHatasi, GecersizIstek
from tenants.etiketler import etiketler_coz
from tickets import selectors as ticket_selectors
from tickets import services as ticket_services
from tickets.models import Ticket

TOPLU_EN_COK = 200
TURLER = ("chat", "ticket")
# What each action takes besides its `tur`, and for which kind of item.
EYLEMLER: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "ata": (("operator_id",), TURLER),
    "ekibe_ata": (("ekip_id",), TURLER),
    "etiket_ekle": (("etiket_id",), TURLER),
    "etiket_kaldir": (("etiket_id",), TURLER),
    "oncelik": (("oncelik",), ("ticket",)),
    "durum": (("durum",), ("ticket",)),
    "kapat": ((), ("chat",)),
    "ertele": (("kadar",), TURLER),
}


def _tam_sayi(deger, *, bos_olabilir: bool = False) -> bool:
    if deger is None:
        return bos_olabilir
    return isinstance(deger, int) and not isinstance(deger, bool) and deger >= 1


def istek_dogrula(govde) -> tuple[str, list[int], dict]:
    """(tur, idler, eylem) of a request body, or 400 with `alanlar` naming what is wrong."""
    if not isinstance(govde, dict):
        raise GecersizIstek(alanlar={"genel": _("İstek gövdesi bir JSON nesnesi olmalı.")})
    tur = govde.get("tur")
    if tur not in TURLER:
        raise GecersizIstek(alanlar={"tur": _("Şunlardan biri olmalı: %(degerler)s.") % {"degerler": ", ".join(TURLER)}})
    idler = govde.get("idler")
    if not isinstance(idler, list) or not 1 <= len(idler) <= TOPLU_EN_COK:
        raise GecersizIstek(alanlar={"idler": _("1-%(en_cok)d id içeren bir liste olmalı.") % {"en_cok": TOPLU_EN_COK}})
    if not all(_tam_sayi(i) for i in idler):
        raise GecersizIstek(alanlar={"idler": _("Pozitif tam sayılar olmalı.")})
    return tur, idler, eylem_dogrula(govde.get("eylem"), tur=tur)


def eylem_dogrula(eylem, *, tur: str) -> dict:
    # A list or an object as `tur` is no key of EYLEMLER (a TypeError, not "not in").
    if not isinstance(eylem, dict) or not isinstance(eylem.get("tur"), str) or eylem["tur"] not in EYLEMLER:
        raise GecersizIstek(alanlar={"eylem.tur": _("Şunlardan biri olmalı: %(degerler)s.")
                                     % {"degerler": ", ".join(EYLEMLER)}})
    alanlar, turler = EYLEMLER[eylem["tur"]]
    if tur not in turler:
        raise GecersizIstek(alanlar={"eylem.tur": _("Bu eylem yalnızca şunlar için: %(degerler)s.")
                                     % {"degerler": ", ".join(turler)}})
    fazla = sorted(set(eylem) - {"tur", *alanlar})
    if fazla:
        raise GecersizIstek(alanlar={f"eylem.{fazla[0]}": _("Bu eylemde böyle bir alan yok.")})
    temiz: dict[str, Any] = {"tur": eylem["tur"]}
    for alan in alanlar:
        if alan not in eylem:
            raise GecersizIstek(alanlar={f"eylem.{alan}": _("Zorunlu.")})
        deger = eylem[alan]
        if alan in ("operator_id", "ekip_id", "etiket_id"):
            if not _tam_sayi(deger, bos_olabilir=alan != "etiket_id"):
                raise GecersizIstek(alanlar={f"eylem.{alan}": _("Pozitif bir tam sayı olmalı.")
                                             if alan == "etiket_id" else _("Pozitif bir tam sayı ya da null olmalı.")})
        elif alan in ("oncelik", "durum"):
            degerler = Ticket.Oncelik.values if alan == "oncelik" else Ticket.Durum.values
            if deger not in degerler:
                raise GecersizIstek(alanlar={f"eylem.{alan}": _("Şunlardan biri olmalı: %(degerler)s.")
                                             % {"degerler": ", ".join(degerler)}})
        elif alan == "kadar":
            deger = kadar_coz(eylem, alan="eylem.kadar")
        temiz[alan] = deger
    return temiz


def toplu_uygula(*, kullanici, musteri_idleri: list[int], tur: str, idler: list[int], eylem: dict,
                 ip: str | None = None) -> list[dict]:
    """Apply the checked `eylem` to each item, each in its own transaction; one result per id, in
    order: `{"id", "basarili", "hata": null | {"kod", "mesaj"}}`."""
    uygula = (_chat_eylemi if tur == "chat" else _ticket_eylemi)(kullanici=kullanici, musteri_idleri=musteri_idleri,
                                                                  eylem=eylem, ip=ip)
    sonuclar = []
    for nesne_id in idler:
        try:
            with transaction.atomic():
                uygula(nesne_id)
        except ApiHatasi as hata:
            sonuclar.append({"id": nesne_id, "basarili": False, "hata": {"kod": hata.kod, "mesaj": str(hata.mesaj)}})
        else:
            sonuclar.append({"id": nesne_id, "basarili": True, "hata": None})
    return sonuclar


def _chat_eylemi(*, kullanici, musteri_idleri: list[int], eylem: dict, ip: str | None) -> Callable[[int], Any]:
    # Each item's chat is resolved here, in the caller's tenants (the same 404 for a missing chat
    # and another tenant's), and handed to the action as its view hands it (issue 40).
    def oturum(oturum_id: int, *, kilitle: bool = False) -> Oturum:
        return chat_selectors.oturum_get(musteri_idleri=musteri_idleri, oturum_id=oturum_id, kilitle=kilitle)

    ad = eylem["tur"]
    if ad == "ata":
        def ata(oturum_id: int):
            # "To me" of a waiting chat is its accept; anything else is a transfer (to nobody: the queue).
            gorulen = oturum(oturum_id)
            if eylem["operator_id"] == kullanici.pk and gorulen.durum == Oturum.Durum.BEKLIYOR:
                return chat_services.chat_kabul_et(kullanici=kullanici, oturum=gorulen)
            return chat_services.chat_aktar(kullanici=kullanici, oturum=gorulen, hedef_operator_id=eylem["operator_id"])
        return ata
    if ad == "ekibe_ata":
        # The team action checks the team's tenant, not the caller's membership: the lookup does.
        return lambda oturum_id: chat_services.chat_ekibe_aktar(oturum=oturum(oturum_id), ekip_id=eylem["ekip_id"],
                                                                aktor=kullanici)
    if ad in ("etiket_ekle", "etiket_kaldir"):
        def etiket(oturum_id: int):
            # Locked: the list is read and set under the chat's lock (the action takes it again).
            kilitli = oturum(oturum_id, kilitle=True)
            idler = _etiketler(kilitli, ad, eylem["etiket_id"])
            return chat_services.chat_etiketleri_ayarla(kullanici=kullanici, oturum=kilitli, etiket_idleri=idler, ip=ip)
        return etiket
    if ad == "kapat":
        return lambda oturum_id: chat_services.chat_operator_kapat(kullanici=kullanici, oturum=oturum(oturum_id))
    assert ad == "ertele"
    return lambda oturum_id: chat_services.chat_ertele(kullanici=kullanici, oturum=oturum(oturum_id),
                                                       kadar=eylem["kadar"])


def _ticket_eylemi(*, kullanici, musteri_idleri: list[int], eylem: dict, ip: str | None) -> Callable[[int], Any]:
    ad = eylem["tur"]

    def uygula(ticket_id: int):
        ticket = ticket_selectors.operator_ticket_get(musteri_idleri=musteri_idleri, ticket_id=ticket_id, detay=False)
        if ad == "ata":
            return ticket_services.ticket_duzenle(ticket=ticket, kullanici=kullanici, ip=ip,
                                                  operator_id=eylem["operator_id"])
        if ad == "oncelik":
            return ticket_services.ticket_duzenle(ticket=ticket, kullanici=kullanici, ip=ip, oncelik=eylem["oncelik"])
        if ad == "ekibe_ata":
            return ticket_services.ticket_ekibe_ata(ticket=ticket, ekip_id=eylem["ekip_id"], aktor=kullanici)
        if ad in ("etiket_ekle", "etiket_kaldir"):
            idler = _etiketler(ticket, ad, eylem["etiket_id"])
            return ticket_services.ticket_etiketleri_ayarla(ticket=ticket, kullanici=kullanici, etiket_idleri=idler,
                                                            ip=ip)
        if ad == "durum":
            return ticket_services.ticket_durum_ayarla(ticket=ticket, durum=eylem["durum"], kullanici=kullanici)
        assert ad == "ertele"
        return ticket_services.ticket_ertele(ticket=ticket, kullanici=kullanici, kadar=eylem["kadar"])

    return uygula


def _etiketler(nesne, ad: str, etiket_id: int) -> list[int]:
    """The labels' one writer sets the whole list (CONTRACT 16): the new list is the item's with
    this label added or taken away; a label of another tenant is a 404 either way."""
    etiketler_coz(musteri_id=nesne.musteri_id, etiket_idleri=[etiket_id])
    mevcut = list(nesne.etiketler.values_list("id", flat=True))
    if ad == "etiket_ekle":
        return mevcut if etiket_id in mevcut else [*mevcut, etiket_id]
    return [i for i in mevcut if i != etiket_id]
