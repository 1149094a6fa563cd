"""Writes that span the chat and tickets apps, composed here above both (neither imports the other)."""
from django.db import transaction

from chat import selectors as chat_selectors
from chat import services as chat_services
from tickets import services as ticket_services


def sohbeti_ticketa_donustur(*, musteri, ziyaretci_id: str, oturum_id, konu: str | None = None,
                             mesaj: str | None = None, ad: str | None = None, email: str | None = None):
    """A waiting chat becomes a ticket (issue 13): the ticket is created with the chat's transcript,
    name and e-mail as defaults for what the visitor left out, then the chat is closed by `sistem`
    naming the ticket. One transaction: `yeni_ticket` and `chat_kapandi`, or neither.
    Returns (ticket, chat)."""
    with transaction.atomic():
        oturum = chat_services.chat_ticketa_donusecek(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
        taslak = chat_selectors.ticket_taslagi(oturum=oturum)
        ticket = ticket_services.ticket_olustur(
            musteri=musteri, ziyaretci_id=ziyaretci_id, konu=konu or taslak["konu"], mesaj=mesaj or taslak["mesaj"],
            ad=ad if ad is not None else taslak["ad"], email=email if email is not None else taslak["email"],
        )
        oturum = chat_services.chat_ticketa_donustu(oturum=oturum, ticket_id=ticket.id)
    return ticket, oturum
