"""The rules' runs whose conditions did not hold, written and pruned (issue 42), the same on
PostgreSQL and SQLite (the embedded default), with their own test (otomasyon/tests/test_sorgular.py).

`kosul_tutmadi_yaz`: the runs of any number of events in one INSERT of one `TutmayanCalismalar`
row per event (its tenant, its rules' ids, its target, its time), through the ORM's `_insert`, not
`bulk_create` (outside a transaction that wraps its statement in BEGIN/COMMIT: two more round
trips; the rows' ids are never read back). Before this, a row per rule per event (50 rows, 50 index
entries and 50 foreign-key checks for a message against 50 rules) cost PostgreSQL about as much as
the message's own write.

`gosterilmeyenleri_sil`: the daily prune's delete of the event rows no rule shows any more."""
from collections.abc import Sequence
from datetime import datetime

from .models import TutmayanCalismalar

Olay = tuple[Sequence[int], str, datetime, int]  # (rule ids, target, time, tenant id)


def kosul_tutmadi_yaz(olaylar: list[Olay]) -> None:
    """For each `(rule ids, target, time, tenant id)` (an event), one row; none for an event
    without rules."""
    satirlar = [TutmayanCalismalar(kural_idleri=list(idler), hedef=hedef, zaman=zaman, musteri_id=musteri_id)
                for idler, hedef, zaman, musteri_id in olaylar if idler]
    if not satirlar:
        return
    alanlar = [f for f in TutmayanCalismalar._meta.concrete_fields if not f.primary_key]
    TutmayanCalismalar.objects._insert(satirlar, fields=alanlar)  # type: ignore[attr-defined]


def gosterilmeyenleri_sil(*, musteri_id: int, sinirlar: dict[int, datetime | None], parti: int) -> int:
    """Delete the tenant's event rows that no rule shows: a row stays when a rule it names is in
    `sinirlar` (the tenant's rules) with no limit (it shows all its runs) or a limit not after the
    row's time (its oldest shown run). Rows naming only deleted rules go. Read in id order, deleted
    in batches of `parti` (a statement each); returns how many went."""

    def gosteren_var(idler: list[int], zaman: datetime) -> bool:
        for kural_id in idler:
            if kural_id in sinirlar:
                sinir = sinirlar[kural_id]
                if sinir is None or zaman >= sinir:
                    return True
        return False

    satirlar = (TutmayanCalismalar.objects.filter(musteri_id=musteri_id).order_by("id")
                .values_list("id", "kural_idleri", "zaman"))
    silinecek = [pk for pk, idler, zaman in satirlar.iterator(chunk_size=2000) if not gosteren_var(idler, zaman)]
    for i in range(0, len(silinecek), parti):
        TutmayanCalismalar.objects.filter(pk__in=silinecek[i:i + parti]).delete()
    return len(silinecek)
