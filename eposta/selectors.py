"""Reads of the mail app."""
from supportdesk.core.metrikler import durum_sayilari

from .models import GidenEposta


def giden_eposta_sayilari_durumlara_gore() -> dict[str, int]:
    """Outgoing mails waiting to be sent (the backlog) and given up on, of every tenant, for the
    `/metrics` gauge (CONTRACT 20): one query on the (durum, sonraki_deneme) index."""
    return durum_sayilari(GidenEposta.objects, (GidenEposta.Durum.BEKLIYOR, GidenEposta.Durum.BASARISIZ))
