"""Reads of the privacy app (CONTRACT 18)."""
from chat.models import Oturum
from context.models import Ziyaretci
from denetim.models import DenetimKaydi
from dosyalar.models import Dosya
from kisiler.models import KisiZiyaretci
from tenants.models import ZiyaretciKimligi
from tickets.models import Ticket

# Where a visitor of a tenant leaves a row, most likely first (each read stops at the first hit).
_IZLER = (Oturum, Ticket, Ziyaretci, Dosya, ZiyaretciKimligi, KisiZiyaretci)


def ziyaretci_bilinir_mi(*, musteri_id: int, ziyaretci_id: str) -> bool:
    """Whether the tenant ever saw this visitor id: a chat, a ticket, a context record, an upload
    a token or a contact of it, or an erasure of it in the audit log (a second erasure answers 200 with
    zeros; an id never seen is 404, CONTRACT 18)."""
    kapsam = {"musteri_id": musteri_id, "ziyaretci_id": ziyaretci_id}
    if any(model._base_manager.filter(**kapsam).exists() for model in _IZLER):
        return True
    return DenetimKaydi.objects.filter(musteri_id=musteri_id, eylem="ziyaretci_silindi",
                                       hedef=f"ziyaretci:{ziyaretci_id}"[:200]).exists()
