"""What the search index does with domain events (supportdesk.core.olaylar): the row of the chat
or ticket that changed is rebuilt inside the publishing transaction, so it commits (or rolls back)
with the change and a search right after a write finds it. Deleting a chat or ticket removes its
row by the foreign key's cascade; `ziyaretci_silindi` (privacy erasure) removes what is left."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import services


@dinle("oturum_kaydedildi", "mesaj_kaydedildi", islem_icinde=True)
def sohbet(olay: YayinlananOlay) -> None:
    # A chat saved (created, visitor name or e-mail known, closed, deleted) or a message or note
    # written, by any path.
    services.chat_kaydi_yenile(oturum_id=olay.veri["oturum_id"])


@dinle("ticket_yeni", "ticket_guncellendi", islem_icinde=True)
def ticket(olay: YayinlananOlay) -> None:
    # A ticket created, replied to (reply or note), or changed.
    services.ticket_kaydi_yenile(ticket_id=olay.veri["ticket"].pk)


@dinle("ziyaretci_silindi", islem_icinde=True)
def ziyaretci_silindi(olay: YayinlananOlay) -> None:
    services.unut(musteri_id=olay.musteri_id, ziyaretci_id=olay.veri["ziyaretci_id"])
