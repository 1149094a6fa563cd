"""Reads of the mail app."""
from django.db.models import Count

from .models import GidenEposta


def giden_eposta_sayilari_durumlara_gore() -> dict[str, int]:
    """Outgoing mails waiting to be sent (the backlog) and given up on, of every tenant, for the
    `/metrics` gauge (CONTRACT 20): one query on the (durum, sonraki_deneme) index."""
    durumlar = (GidenEposta.Durum.BEKLIYOR, GidenEposta.Durum.BASARISIZ)
    sayilar = dict.fromkeys((str(d) for d in durumlar), 0)
    sayilar.update(GidenEposta.objects.filter(durum__in=durumlar).order_by().values_list("durum").annotate(n=Count("id")))
    return sayilar
