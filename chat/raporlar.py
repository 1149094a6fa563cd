"""Report figures of a tenant's chats for a time range (CONTRACT 13, `/portal/raporlar`).

Aggregate queries only: the number of queries is the same for any range and any amount of data
(chats 5 and tickets 1 on PostgreSQL; on SQLite each of the two medians takes two, see
`supportdesk.core.istatistik`, so 8).
"""
from datetime import datetime, timedelta, tzinfo

from django.db.models import Avg, Count, F, OuterRef, Q, Subquery
from django.db.models.functions import TruncDate
from django.utils import timezone

from supportdesk.core.istatistik import SaniyeFarki, medyan

from .models import Mesaj, Oturum

PUANLAR = (1, 2, 3, 4, 5)


def _aralik(musteri_id: int, bas: datetime, son: datetime):
    return Oturum.objects.kapsamda([musteri_id]).filter(baslangic__gte=bas, baslangic__lt=son)


def _ilk_yanit():
    """When the first operator message of the chat was written (start → first answer)."""
    ilk = (Mesaj.objects.gorunur().filter(oturum=OuterRef("pk"), gonderen=Mesaj.Gonderen.OPERATOR)
           .order_by("zaman", "id").values("zaman")[:1])
    return Subquery(ilk)


def oturum_raporu(*, musteri_id: int, bas: datetime, son: datetime, tz: tzinfo) -> dict:
    """Chats started in [bas, son): per local day, totals, ratings, medians, per operator."""
    qs = _aralik(musteri_id, bas, son)
    gunluk = dict(qs.annotate(gun=TruncDate("baslangic", tzinfo=tz)).values("gun").annotate(n=Count("id"))
                  .order_by("gun").values_list("gun", "n"))
    ozet = qs.aggregate(
        toplam=Count("id"), kapanan=Count("id", filter=Q(bitis_zamani__isnull=False)),
        puanli=Count("puan"), puan_ortalama=Avg("puan"),
        **{f"puan_{p}": Count("id", filter=Q(puan=p)) for p in PUANLAR},
    )
    ilk_yanit = medyan(qs.annotate(sure=SaniyeFarki(_ilk_yanit(), F("baslangic"))), "sure")
    cozum = medyan(qs.filter(bitis_zamani__isnull=False).annotate(sure=SaniyeFarki(F("bitis_zamani"), F("baslangic"))),
                   "sure")
    operatorler = list(
        qs.filter(operator__isnull=False).values("operator_id", "operator__email").annotate(
            sohbet=Count("id"), kapanan=Count("id", filter=Q(bitis_zamani__isnull=False)),
            puan_ortalama=Avg("puan"), puanli=Count("puan"),
            ilk_yanit_ortalama=Avg(SaniyeFarki(_ilk_yanit(), F("baslangic"))),
        ).order_by("-sohbet", "operator__email")
    )
    return {"gunluk": gunluk, "ozet": ozet, "medyan_ilk_yanit": ilk_yanit, "medyan_cozum": cozum,
            "operatorler": operatorler}


def ilk_yanit_sla_raporu(*, musteri_id: int, bas: datetime, son: datetime, hedef_sn: int | None) -> dict | None:
    """CONTRACT 17: chats started in [bas, son) whose first response (`ilk_yanit_zamani`: the first
    operator message that is not a note) came within `hedef_sn` seconds, and those that did not
    (answered late, or unanswered for longer than the target); None without a target. One query."""
    if not hedef_sn:
        return None
    sinir = timedelta(seconds=hedef_sn)
    qs = _aralik(musteri_id, bas, son).annotate(sure=F("ilk_yanit_zamani") - F("baslangic"))
    return qs.aggregate(
        karsilandi=Count("id", filter=Q(ilk_yanit_zamani__isnull=False, sure__lte=sinir)),
        ihlal=Count("id", filter=Q(ilk_yanit_zamani__isnull=False, sure__gt=sinir)
                    | Q(ilk_yanit_zamani__isnull=True, baslangic__lt=timezone.now() - sinir)),
    )
