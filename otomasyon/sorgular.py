"""The rules' statement the ORM cannot write (issue 42): PostgreSQL only, with its own test
(otomasyon/tests/test_sorgular.py); the caller keeps an ORM path for other databases.

`kosul_tutmadi_yaz`: runs whose conditions did not hold, any number of rows in one INSERT with three
array parameters (`unnest`): the ORM's multi-row INSERT built one model instance and prepared five
values per row in Python. A row whose rule was deleted meanwhile is left out (the join), so a
batch written after the events (`otomasyon.biriktir`) never fails on a rule deleted since.

Table, column and type names come from the models' `_meta`, and the values are prepared by the
fields themselves (`get_db_prep_save`), so a model change reaches this statement as it reaches
the ORM's; the SQL text is built once per process."""
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
        f"SELECT t.k, t.z, t.h, CAST(%s AS {tur['sonuc']}), CAST(%s AS {tur['ayrinti']}) "
        f"FROM unnest(CAST(%s AS {tur['kural']}[]), CAST(%s AS {tur['zaman']}[]), CAST(%s AS {tur['hedef']}[])) "
        f"WITH ORDINALITY AS t(k, z, h, n) JOIN {kural_tablo} ON {kural_tablo}.{kural_id} = t.k ORDER BY t.n"
    )


def kosul_tutmadi_yaz(satirlar: list[tuple[int, str, datetime]]) -> None:
    """One `kosul_tutmadi` run, empty `ayrinti`, per `(rule id, target, time)`, in this order.
    PostgreSQL only."""
    if not satirlar:
        return
    alan = KuralCalismasi._meta.get_field
    zaman, hedef = alan("zaman"), alan("hedef")
    with connection.cursor() as imlec:
        imlec.execute(_kosul_tutmadi_sql(), [
            KuralCalismasi.Sonuc.KOSUL_TUTMADI.value,
            alan("ayrinti").get_db_prep_save([], connection),
            [s[0] for s in satirlar],
            [zaman.get_db_prep_save(s[2], connection) for s in satirlar],
            [hedef.get_db_prep_save(s[1], connection) for s in satirlar],
        ])
