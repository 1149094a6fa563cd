"""The rules' statement the ORM cannot write (issue 42): PostgreSQL only, with its own test
(otomasyon/tests/test_sorgular.py); the caller keeps an ORM path for other databases.

`kosul_tutmadi_yaz`: the runs of one event whose conditions did not hold, N rows in one INSERT with
four parameters (the rules' ids as one array, `unnest`), so 50 rules cost one short statement and no
model instances: the ORM's multi-row INSERT built 50 instances and prepared 250 values in Python,
which cost the visitor's message more than the rules' checks (docs/performance.md, issue 42).

Table, column and type names come from the model's `_meta`, and the values are prepared by the
fields themselves (`get_db_prep_save`), so a model change reaches this statement as it reaches
the ORM's; the SQL text is built once per process."""
from functools import cache

from django.db import connection

from .models import KuralCalismasi


@cache
def _kosul_tutmadi_sql() -> str:
    q = connection.ops.quote_name
    m = KuralCalismasi._meta
    kolon = {ad: q(m.get_field(ad).column) for ad in ("kural", "zaman", "hedef", "sonuc", "ayrinti")}
    tur = {ad: m.get_field(ad).db_type(connection) for ad in ("kural", "zaman", "hedef", "sonuc", "ayrinti")}
    # Only identifiers and types from the model's _meta are formatted in; every value is a parameter.
    return (
        f"INSERT INTO {q(m.db_table)} ({kolon['kural']}, {kolon['zaman']}, {kolon['hedef']}, {kolon['sonuc']}, "  # noqa: S608
        f"{kolon['ayrinti']}) "
        f"SELECT k, CAST(%s AS {tur['zaman']}), CAST(%s AS {tur['hedef']}), CAST(%s AS {tur['sonuc']}), "
        f"CAST(%s AS {tur['ayrinti']}) FROM unnest(CAST(%s AS {tur['kural']}[])) AS k"
    )


def kosul_tutmadi_yaz(*, kural_idleri: list[int], hedef: str, zaman) -> None:
    """One row per rule id: `kosul_tutmadi` on `hedef` at `zaman`, empty `ayrinti`. PostgreSQL only."""
    alan = KuralCalismasi._meta.get_field
    with connection.cursor() as imlec:
        imlec.execute(_kosul_tutmadi_sql(), [
            alan("zaman").get_db_prep_save(zaman, connection),
            alan("hedef").get_db_prep_save(hedef, connection),
            KuralCalismasi.Sonuc.KOSUL_TUTMADI.value,
            alan("ayrinti").get_db_prep_save([], connection),
            list(kural_idleri),
        ])
