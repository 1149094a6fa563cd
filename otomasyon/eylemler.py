"""A rule's or a macro's action on one chat or ticket: each is the chat's or ticket's own action
(its checks, events, webhooks and audit), called with the actor: None for a rule (the system),
the caller for a macro (then every check of that caller's own call applies). A refused action
raises the service's own error (`ApiHatasi`: 400, 404, 409), which the rule records and a macro
answers with."""
from django.utils.translation import gettext as _

from chat import services as chat_services
from chat.models import HazirYanit, Oturum
from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi
from tickets import services as ticket_services
from tickets.models import Ticket


def uygula(eylem: dict, *, tur: str, nesne_id: int, musteri_id: int, kullanici=None) -> None:
    if tur == "chat":
        _chat(eylem, oturum_id=nesne_id, musteri_id=musteri_id, kullanici=kullanici)
    else:
        _ticket(eylem, ticket_id=nesne_id, musteri_id=musteri_id, kullanici=kullanici)


def _yalniz(tur_adi: str) -> DurumCakismasi:
    return DurumCakismasi(_("Bu eylem yalnızca %(tur)s için geçerli.") % {"tur": tur_adi})


def _hazir_yanit(musteri_id: int, hazir_yanit_id) -> HazirYanit:
    hazir = HazirYanit.objects.kapsamda([musteri_id]).filter(pk=hazir_yanit_id).first()
    if hazir is None:
        raise Bulunamadi(_("Hazır yanıt bulunamadı."))
    return hazir


def _chat(eylem: dict, *, oturum_id: int, musteri_id: int, kullanici) -> None:
    # The chat is resolved here, in the rule's (or macro's) tenant, once per action, and handed to
    # the action as the views hand it (issue 40); the action locks it again in its transaction.
    tur = eylem["tur"]
    if tur not in ("ekibe_ata", "operatore_ata", "etiket_ekle", "etiket_kaldir", "hazir_yanit", "not", "kapat",
                   "mesaj"):  # oncelik, durum
        raise _yalniz(_("destek talepleri"))
    oturum = Oturum.objects.kapsamda([musteri_id]).filter(pk=oturum_id).first()
    if oturum is None:
        raise Bulunamadi()
    if tur == "ekibe_ata":
        chat_services.chat_ekibe_aktar(oturum=oturum, ekip_id=eylem["ekip_id"], aktor=kullanici)
    elif tur == "operatore_ata":
        chat_services.chat_operatore_ata(oturum=oturum, operator_id=eylem["operator_id"], aktor=kullanici)
    elif tur in ("etiket_ekle", "etiket_kaldir"):
        chat_services.chat_etiketleri_ayarla(kullanici=kullanici, oturum=oturum, etiket_idleri=_etiketler(oturum, eylem))
    elif tur == "hazir_yanit":
        chat_services.chat_otomatik_yanit(oturum=oturum, icerik=_hazir_yanit(musteri_id, eylem["hazir_yanit_id"]).icerik)
    elif tur == "not":
        chat_services.chat_operator_not_yaz(kullanici=kullanici, oturum=oturum, icerik=eylem["icerik"])
    elif tur == "kapat":
        if kullanici is None:
            chat_services.chat_sistem_kapat(oturum=oturum)
        else:
            chat_services.chat_operator_kapat(kullanici=kullanici, oturum=oturum)
    else:  # mesaj
        chat_services.chat_operator_mesaj_gonder(kullanici=kullanici, oturum=oturum, icerik=eylem["icerik"])


def _etiketler(nesne: Oturum | Ticket, eylem: dict) -> list[int]:
    mevcut = list(nesne.etiketler.values_list("id", flat=True))
    if eylem["tur"] == "etiket_ekle":
        return [*mevcut, eylem["etiket_id"]] if eylem["etiket_id"] not in mevcut else mevcut
    return [i for i in mevcut if i != eylem["etiket_id"]]


def _ticket(eylem: dict, *, ticket_id: int, musteri_id: int, kullanici) -> None:
    tur = eylem["tur"]
    ticket = Ticket.objects.kapsamda([musteri_id]).filter(pk=ticket_id).first()
    if ticket is None:
        raise Bulunamadi()
    if tur == "ekibe_ata":
        ticket_services.ticket_ekibe_ata(ticket=ticket, ekip_id=eylem["ekip_id"], aktor=kullanici)
    elif tur == "operatore_ata":
        ticket_services.ticket_duzenle(ticket=ticket, kullanici=kullanici, operator_id=eylem["operator_id"])
    elif tur == "oncelik":
        ticket_services.ticket_duzenle(ticket=ticket, kullanici=kullanici, oncelik=eylem["oncelik"])
    elif tur in ("etiket_ekle", "etiket_kaldir"):
        ticket_services.ticket_etiketleri_ayarla(ticket=ticket, kullanici=kullanici,
                                                 etiket_idleri=_etiketler(ticket, eylem))
    elif tur == "hazir_yanit":
        hazir = _hazir_yanit(musteri_id, eylem["hazir_yanit_id"])
        icerik = chat_services.hazir_yanit_doldur(hazir.icerik, {
            "ziyaretci_adi": ticket.ad, "ziyaretci_email": ticket.email,
            "operator_adi": str(chat_services.OTOMATIK_YANIT), "firma_adi": hazir.musteri.firma_adi})
        ticket_services.ticket_otomatik_yanitla(ticket=ticket, icerik=icerik)
    elif tur == "not":
        ticket_services.ticket_not_yaz(ticket=ticket, kullanici=kullanici, icerik=eylem["icerik"])
    elif tur == "durum":
        ticket_services.ticket_durum_ayarla(ticket=ticket, durum=eylem["durum"], kullanici=kullanici)
    elif tur == "mesaj":
        ticket_services.ticket_operator_yanitla(ticket=ticket, kullanici=kullanici, icerik=eylem["icerik"])
    else:  # kapat
        raise _yalniz(_("sohbetler"))
