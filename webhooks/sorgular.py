"""The one query of the webhooks app the ORM cannot write (HOUSE-STYLE 22): leasing several
deliveries and learning which were leased, in one statement (`UPDATE ... RETURNING`).
PostgreSQL first; SQLite (3.35+) runs it too. Tested in `tests/test_sorgular.py`."""
from datetime import datetime

from django.db import connection

from .models import Teslimat


def teslimatlari_kirala(ids: list[int], *, simdi: datetime, kilit_bitis: datetime) -> set[int]:
    """Lease those of `ids` that are waiting, due at `simdi` and not leased (or whose lease has
    run out) until `kilit_bitis`; returns the ids leased. The conditions are `teslimat_dene`'s."""
    if not ids:
        return set()
    ops = connection.ops
    tablo = ops.quote_name(Teslimat._meta.db_table)
    yer = ", ".join(["%s"] * len(ids))
    an = ops.adapt_datetimefield_value(simdi)
    sql = (f"UPDATE {tablo} SET kilit_bitis = %s WHERE id IN ({yer}) AND durum = %s "  # noqa: S608 (placeholders only)
           "AND sonraki_deneme <= %s AND (kilit_bitis IS NULL OR kilit_bitis < %s) RETURNING id")
    with connection.cursor() as imlec:
        imlec.execute(sql, [ops.adapt_datetimefield_value(kilit_bitis), *(int(i) for i in ids),
                            Teslimat.Durum.BEKLIYOR, an, an])
        return {satir[0] for satir in imlec.fetchall()}
