"""The rules' statements the ORM cannot write (issue 42): PostgreSQL only (the runs' table has an
array column), with its own test (otomasyon/tests/test_sorgular.py).

`kosul_tutmadi_yaz`: the runs whose conditions did not hold, of any number of events, in one
INSERT of one `TutmayanCalismalar` row per event (its tenant, its rules' ids, its target, its
time), from four array parameters with one element per event unnested in PostgreSQL: the rules'
ids travel as one text per event (`string_to_array`), since PostgreSQL arrays cannot be ragged.
Before this, a row per rule per event (50 rows, 50 index entries and 50 foreign-key checks for a
message against 50 rules) cost PostgreSQL about as much as the message's own write.

Table, column and type names come from the model's `_meta`, and the values are prepared by the
fields themselves (`get_db_prep_save`), so a model change reaches this statement as it reaches
the ORM's; the SQL text is built once per process.

`gosterilmeyenleri_sil`: the daily prune's delete of the event rows no rule shows any more."""
from collections.abc import Sequence
from datetime import datetime
from functools import cache

from django.db import connection

from .models import TutmayanCalismalar

Olay = tuple[Sequence[int], str, datetime, int]  # (rule ids, target, time, tenant id)


@cache
def _kosul_tutmadi_sql() -> str:
    q = connection.ops.quote_name
    m = TutmayanCalismalar._meta
    kolon = {ad: q(m.get_field(ad).column) for ad in ("musteri", "kural_idleri", "zaman", "hedef")}
    tur = {ad: m.get_field(ad).db_type(connection) for ad in ("musteri", "kural_idleri", "zaman", "hedef")}
    # Only identifiers and types from the model's _meta are formatted in; every value is a parameter.
    return (
        f"INSERT INTO {q(m.db_table)} ({kolon['musteri']}, {kolon['kural_idleri']}, {kolon['zaman']}, "  # noqa: S608
        f"{kolon['hedef']}) "
        f"SELECT e.m, CAST(string_to_array(e.idler, ',') AS {tur['kural_idleri']}), e.z, e.h "
        f"FROM unnest(CAST(%s AS {tur['musteri']}[]), CAST(%s AS text[]), CAST(%s AS {tur['zaman']}[]), "
        f"CAST(%s AS {tur['hedef']}[])) WITH ORDINALITY AS e(m, idler, z, h, n) ORDER BY e.n"
    )


def kosul_tutmadi_yaz(olaylar: list[Olay]) -> None:
    """For each `(rule ids, target, time, tenant id)` (an event), one row; none for an event
    without rules. PostgreSQL only."""
    olaylar = [o for o in olaylar if o[0]]
    if not olaylar:
        return
    alan = TutmayanCalismalar._meta.get_field
    zaman, hedef = alan("zaman"), alan("hedef")
    with connection.cursor() as imlec:
        imlec.execute(_kosul_tutmadi_sql(), [
            [o[3] for o in olaylar],
            [",".join(map(str, o[0])) for o in olaylar],
            [zaman.get_db_prep_save(o[2], connection) for o in olaylar],
            [hedef.get_db_prep_save(o[1], connection) for o in olaylar],
        ])


@cache
def _gosterilmeyen_sql() -> str:
    q = connection.ops.quote_name
    m = TutmayanCalismalar._meta
    tablo, kimlik = q(m.db_table), q(m.pk.column)
    musteri, idler, zaman = (q(m.get_field(ad).column) for ad in ("musteri", "kural_idleri", "zaman"))
    zaman_turu = m.get_field("zaman").db_type(connection)
    # Only identifiers and types from the model's _meta are formatted in; every value is a parameter.
    return (
        f"DELETE FROM {tablo} WHERE {kimlik} IN (SELECT e.{kimlik} FROM {tablo} e "  # noqa: S608
        f"WHERE e.{musteri} = %s AND NOT EXISTS (SELECT 1 FROM unnest(e.{idler}) AS k(id) "
        f"JOIN unnest(CAST(%s AS bigint[]), CAST(%s AS {zaman_turu}[])) AS s(kural, sinir) ON s.kural = k.id "
        f"WHERE s.sinir IS NULL OR e.{zaman} >= s.sinir) ORDER BY e.{kimlik} LIMIT %s)"
    )


def gosterilmeyenleri_sil(*, musteri_id: int, sinirlar: dict[int, datetime | None], parti: int) -> int:
    """Delete the tenant's event rows that no rule shows: a row stays when a rule it names is in
    `sinirlar` (the tenant's rules) with no limit (it shows all its runs) or a limit not after the
    row's time (its oldest shown run). Rows naming only deleted rules go. In batches of `parti`,
    each its own statement; returns how many went."""
    kurallar = list(sinirlar)
    zaman = TutmayanCalismalar._meta.get_field("zaman")
    degerler = [zaman.get_db_prep_save(sinirlar[k], connection) if sinirlar[k] else None for k in kurallar]
    silinen = 0
    with connection.cursor() as imlec:
        while True:
            imlec.execute(_gosterilmeyen_sql(), [musteri_id, kurallar, degerler, parti])
            silinen += imlec.rowcount
            if imlec.rowcount < parti:
                return silinen
