"""Reads across the apps below the widget, composed here so that none of them imports another."""
from chat.models import Oturum
from context.models import Ziyaretci
from dosyalar.models import Dosya
from tickets.models import Ticket


def ziyaretci_verisi_var(*, musteri, ziyaretci_id: str) -> bool:
    """Whether anything is stored for the visitor: a chat, a ticket, an upload or a context record
    (every context write creates the `Ziyaretci` row). CONTRACT 2a: only a visitor without data
    may be bound by an unsigned call; one with data could be someone else's."""
    return any(
        model.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).exists()
        for model in (Oturum, Ticket, Dosya, Ziyaretci)
    )
