"""What the tickets app does with domain events (supportdesk.core.olaylar)."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import sla


@dinle("ticket_guncellendi", islem_icinde=True)
def oncelik_degisti(olay: YayinlananOlay) -> None:
    # CONTRACT 17: a ticket whose priority changed (by any writer that announces the change)
    # takes the new priority's targets, in the same transaction, before the frames are built.
    sla.oncelik_izle(olay.veri["ticket"])
