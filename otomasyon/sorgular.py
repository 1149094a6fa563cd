"""The rules' runs whose conditions did not hold, written and pruned (issue 42), on PostgreSQL and
SQLite (the embedded default), with their own test (otomasyon/tests/test_sorgular.py).

`kosul_tutmadi_yaz`: the runs of any number of events in one INSERT of one `TutmayanCalismalar`
row per event (its tenant, its rules' ids, its target, its time). On PostgreSQL the statement takes
four arrays, one per column (`INSERT ... SELECT FROM unnest(...)`): its text and its four parameters
are the same whatever the batch's size, so the connection prepares it once (server-side binding),
and each event costs Python four list items, no model instance and no per-field preparation; the
id list's text (",12,7,") is built once per distinct list in a batch (an event's list is the
engine's compiled tuple, shared by every event of a tenant). Elsewhere (SQLite) the ORM's `_insert`
writes the same rows, not `bulk_create` (outside a transaction that wraps its statement in
BEGIN/COMMIT: two more round trips; the rows' ids are never read back). Before one row per event, a
row per rule per event (50 rows, 50 index entries and 50 foreign-key checks for a message against
50 rules) cost PostgreSQL about as much as the message's own write.

`gosterilmeyenleri_sil`: the daily prune's delete of the event rows no rule shows any more."""
from collections.abc import Sequence
from datetime import datetime

from django.db import connection

from .models import IdListesiField, TutmayanCalismalar

Olay = tuple[Sequence[int], str, datetime, int]  # (rule ids, target, time, tenant id)


def _unnest_sql() -> str:
    meta, q = TutmayanCalismalar._meta, connection.ops.quote_name
    sutunlar = ", ".join(q(meta.get_field(a).column) for a in ("musteri", "kural_idleri", "zaman", "hedef"))
    # Binary parameters (%b): psycopg dumps a text array element by element in Python (a regular
    # expression each for quoting), a binary one without. WITH ORDINALITY: the rows' ids follow the
    # events' order, as one VALUES row per event gave them.
    return (f"INSERT INTO {q(meta.db_table)} ({sutunlar}) SELECT m, k, z, h "  # noqa: S608 (names from _meta)
            "FROM unnest(%b::bigint[], %b::text[], %b::timestamptz[], %b::text[]) WITH ORDINALITY AS s(m, k, z, h, n) "
            "ORDER BY n")


def kosul_tutmadi_yaz(olaylar: list[Olay]) -> None:
    """For each `(rule ids, target, time, tenant id)` (an event), one row; none for an event
    without rules."""
    olaylar = [o for o in olaylar if o[0]]
    if not olaylar:
        return
    if connection.vendor == "postgresql":
        metinler: dict[tuple[int, ...], str] = {}  # an id list's text, built once per batch
        hazirla = IdListesiField().get_prep_value
        idler = []
        for olay in olaylar:
            anahtar = olay[0] if isinstance(olay[0], tuple) else tuple(olay[0])
            if (metin := metinler.get(anahtar)) is None:
                metin = metinler[anahtar] = hazirla(anahtar)
            idler.append(metin)
        with connection.cursor() as cursor:
            cursor.execute(_unnest_sql(), [[o[3] for o in olaylar], idler, [o[2] for o in olaylar],
                                           [o[1] for o in olaylar]])
        return
    satirlar = [TutmayanCalismalar(kural_idleri=list(idler), hedef=hedef, zaman=zaman, musteri_id=musteri_id)
                for idler, hedef, zaman, musteri_id in olaylar]
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
