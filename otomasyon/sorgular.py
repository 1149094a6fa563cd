"""The rules' statement the ORM cannot write (issue 42): PostgreSQL only, with its own test
(otomasyon/tests/test_sorgular.py); the caller keeps an ORM path for other databases.

`kosul_tutmadi_yaz`: runs whose conditions did not hold, of any number of events, in one INSERT with
three array parameters, one element per event (its rules' ids as one text, its target, its time),
unnested in PostgreSQL: the ORM's multi-row INSERT built one model instance and prepared five
values per row in Python, and a row per rule would still adapt three values per rule. A row whose
rule was deleted meanwhile is left out (the join), so a
batch written after the events (`otomasyon.biriktir`) never fails on a rule deleted since.

Table, column and type names come from the models' `_meta`, and the values are prepared by the
fields themselves (`get_db_prep_save`), so a model change reaches this statement as it reaches
the ORM's; the SQL text is built once per process."""
from collections.abc import Sequence
from datetime import datetime
from functools import cache

from django.db import connection

from .models import Kural, KuralCalismasi


@cache
def _kosul_tutmadi_sql() -> str:
    q = connection.ops.quote_name
    m = KuralCalismasi._meta
    kolon = {ad: q(m.get_field(ad).column) for ad in ("kural", "zaman", "hedef", "sonuc", "ayrinti")}
    tur = {ad: m.get_field(ad).db_type(connection) for ad in ("kural", "zaman", "hedef", "sonuc", "ayrinti")}
    kural_tablo, kural_id = q(Kural._meta.db_table), q(Kural._meta.pk.column)
    # Only identifiers and types from the models' _meta are formatted in; every value is a parameter.
    return (
        f"INSERT INTO {q(m.db_table)} ({kolon['kural']}, {kolon['zaman']}, {kolon['hedef']}, {kolon['sonuc']}, "  # noqa: S608
        f"{kolon['ayrinti']}) "
        f"SELECT r.k, e.z, e.h, CAST(%s AS {tur['sonuc']}), CAST(%s AS {tur['ayrinti']}) "
        f"FROM unnest(CAST(%s AS text[]), CAST(%s AS {tur['zaman']}[]), CAST(%s AS {tur['hedef']}[])) "
        f"WITH ORDINALITY AS e(idler, z, h, n) "
        f"CROSS JOIN LATERAL unnest(CAST(string_to_array(e.idler, ',') AS {tur['kural']}[])) WITH ORDINALITY AS r(k, s) "
        f"JOIN {kural_tablo} ON {kural_tablo}.{kural_id} = r.k ORDER BY e.n, r.s"
    )


def kosul_tutmadi_yaz(olaylar: list[tuple[Sequence[int], str, datetime]]) -> None:
    """For each `(rule ids, target, time)` (an event), one `kosul_tutmadi` run per rule, empty
    `ayrinti`, in this order. PostgreSQL only."""
    olaylar = [o for o in olaylar if o[0]]
    if not olaylar:
        return
    alan = KuralCalismasi._meta.get_field
    zaman, hedef = alan("zaman"), alan("hedef")
    with connection.cursor() as imlec:
        imlec.execute(_kosul_tutmadi_sql(), [
            KuralCalismasi.Sonuc.KOSUL_TUTMADI.value,
            alan("ayrinti").get_db_prep_save([], connection),
            [",".join(map(str, o[0])) for o in olaylar],
            [zaman.get_db_prep_save(o[2], connection) for o in olaylar],
            [hedef.get_db_prep_save(o[1], connection) for o in olaylar],
        ])
