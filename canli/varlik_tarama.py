"""The presence sweep (CONTRACT 11, "Presence"): operators whose status says `cevrimici` or
`mesgul` but who are no longer reachable become `cevrimdisi`.

It runs inside every socket (ASGI) process, every CANLI_TARAMA_ARALIGI seconds, from the first
socket that process accepts: `make run` needs no Celery beat for it, and a killed process's
operators are swept by the processes still alive. Two processes sweeping at once agree through
the conditional UPDATE of `tenants.services.operator_erisilemez_yap` (one of them emits, once).
Each goes through `chat.operator_durumu.erisilemez_yap`, which then hands the operator's chats back
to routing (issue 40: an explicit step, not a listener).
"""
import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from chat import operator_durumu
from supportdesk.core import varlik
from tenants.models import Kullanici

logger = logging.getLogger("supportdesk.canli")

_gorev: asyncio.Task | None = None


def erisilemeyenleri_cevrimdisi_yap() -> list[int]:
    """One sweep; returns the ids made `cevrimdisi`."""
    adaylar = Kullanici.objects.filter(
        durum__in=(Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL)
    ).values_list("id", flat=True)
    return [k for k in sorted(varlik.erisilemeyenler(adaylar)) if operator_durumu.erisilemez_yap(kullanici_id=k)]


async def _dongu():
    while True:
        await asyncio.sleep(settings.CANLI_TARAMA_ARALIGI)
        try:
            await database_sync_to_async(erisilemeyenleri_cevrimdisi_yap)()
        except Exception:
            logger.warning("Varlık taraması başarısız.", exc_info=True)


def taramayi_baslat() -> None:
    """Start this process's sweep once (called from a socket's connect, on the running loop)."""
    global _gorev
    if _gorev is None or _gorev.done():
        _gorev = asyncio.get_running_loop().create_task(_dongu())
