"""What the e-mail app does with domain events (supportdesk.core.olaylar): all after the commit,
so a rolled-back ticket or reply sends nothing (CONTRACT 14)."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import services


@dinle("yeni_ticket")
def ticket_olusturuldu(olay: YayinlananOlay) -> None:
    # The visitor's receipt, and the team's notice of a new ticket.
    services.ticket_alindi_gonder(ticket_id=olay.veri["ticket_id"])
    services.yeni_ticket_ekibe_gonder(ticket_id=olay.veri["ticket_id"])


@dinle("ticket_cozuldu")
def ticket_cozuldu(olay: YayinlananOlay) -> None:
    services.ticket_cozuldu_gonder(ticket_id=olay.veri["ticket_id"])


@dinle("ticket_operator_yaniti")
def ticket_operator_yaniti(olay: YayinlananOlay) -> None:
    services.ticket_yaniti_gonder(yanit_id=olay.veri["yanit_id"])


@dinle("chat_operator_mesaji")
def chat_operator_mesaji(olay: YayinlananOlay) -> None:
    # An operator's answer to a visitor who has left (services decides whether to mail).
    services.cevrimdisi_yanit_gonder(mesaj_id=olay.veri["mesaj_id"])


@dinle("sla_ihlal")
def sla_ihlal(olay: YayinlananOlay) -> None:
    # CONTRACT 17: the team hears of a breached target by mail (members with alerts on).
    services.sla_ihlal_ekibe_gonder(ticket_id=olay.veri["ticket_id"], hedef=olay.veri["hedef"])


@dinle("bahsedilme")
def bahsedilme(olay: YayinlananOlay) -> None:
    # A note mentioned members: those with e-mail alerts on get a mail (CONTRACT 16).
    veri = olay.veri
    services.bahsedilme_gonder(
        musteri_id=veri["musteri_id"], kullanici_idleri=veri["kullanici_idleri"], yazan_id=veri["aktor_id"],
        icerik=(veri.get("mesaj") or veri.get("yanit")).icerik,
        oturum_id=veri.get("oturum_id"), ticket_id=veri.get("ticket_id"))
