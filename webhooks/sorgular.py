"""The queries of the webhooks app the ORM cannot write (HOUSE-STYLE 22): leasing several
deliveries and learning which were leased in one statement (`UPDATE ... RETURNING`), and, on
PostgreSQL, reading them with their event and endpoint in that same statement (a data-modifying
`WITH`). SQLite (3.35+) runs the first; the second falls back to it plus one ORM read there.
Tested in `tests/test_toplu.py`."""
from datetime import datetime

from django.db import connection
from django.db.models.expressions import Col

from .models import Olay, Teslimat, WebhookEndpoint


def teslimatlari_kirala(ids: list[int], *, simdi: datetime, kilit_bitis: datetime) -> set[int]:
    """Lease those of `ids` that are waiting, due at `simdi` and not leased (or whose lease has
    run out) until `kilit_bitis`; returns the ids leased. The conditions are `teslimat_dene`'s."""
    if not ids:
        return set()
    sql, params = _kirala_sql(ids, simdi, kilit_bitis, "id")
    with connection.cursor() as imlec:
        imlec.execute(sql, params)
        return {satir[0] for satir in imlec.fetchall()}


def _kirala_sql(ids: list[int], simdi: datetime, kilit_bitis: datetime, donen: str) -> tuple[str, list]:
    ops = connection.ops
    tablo = ops.quote_name(Teslimat._meta.db_table)
    yer = ", ".join(["%s"] * len(ids))
    an = ops.adapt_datetimefield_value(simdi)
    sql = (f"UPDATE {tablo} SET kilit_bitis = %s WHERE id IN ({yer}) AND durum = %s "  # noqa: S608 (placeholders only)
           f"AND sonraki_deneme <= %s AND (kilit_bitis IS NULL OR kilit_bitis < %s) RETURNING {donen}")
    return sql, [ops.adapt_datetimefield_value(kilit_bitis), *(int(i) for i in ids), Teslimat.Durum.BEKLIYOR, an, an]


def teslimatlari_kirala_oku(ids: list[int], *, simdi: datetime, kilit_bitis: datetime) -> list[Teslimat]:
    """`teslimatlari_kirala`, returning the leased deliveries with `olay` and `endpoint` loaded, as
    `select_related("olay", "endpoint")` would (any order). One statement on PostgreSQL."""
    if not ids:
        return []
    if connection.vendor != "postgresql":
        alinan = teslimatlari_kirala(ids, simdi=simdi, kilit_bitis=kilit_bitis)
        return list(Teslimat.objects.select_related("olay", "endpoint").filter(pk__in=alinan)) if alinan else []
    q = connection.ops.quote_name
    modeller = [(Teslimat, "a"), (Olay, "o"), (WebhookEndpoint, "e")]
    sutunlar = ", ".join(f"{takma}.{q(f.column)}" for model, takma in modeller for f in model._meta.concrete_fields)
    guncelle, params = _kirala_sql(ids, simdi, kilit_bitis, "*")
    sql = (f"WITH a AS ({guncelle}) SELECT {sutunlar} FROM a "  # noqa: S608 (names from the models' meta)
           f"JOIN {q(Olay._meta.db_table)} o ON o.{q('id')} = a.{q('olay_id')} "
           f"JOIN {q(WebhookEndpoint._meta.db_table)} e ON e.{q('id')} = a.{q('endpoint_id')}")
    with connection.cursor() as imlec:
        imlec.execute(sql, params)
        satirlar = imlec.fetchall()
    sonuc = []
    for satir in satirlar:
        nesneler, k = [], 0
        for model, takma in modeller:
            alanlar = model._meta.concrete_fields
            nesneler.append(_nesne(model, takma, alanlar, satir[k:k + len(alanlar)]))
            k += len(alanlar)
        teslimat, olay, endpoint = nesneler
        Teslimat._meta.get_field("olay").set_cached_value(teslimat, olay)
        Teslimat._meta.get_field("endpoint").set_cached_value(teslimat, endpoint)
        sonuc.append(teslimat)
    return sonuc


def _nesne(model, takma: str, alanlar, degerler):
    """A model instance from raw column values, through the same converters the ORM applies."""
    cevrilmis = []
    for alan, deger in zip(alanlar, degerler, strict=True):
        sutun = Col(takma, alan)
        for cevir in connection.ops.get_db_converters(sutun) + sutun.get_db_converters(connection):
            deger = cevir(deger, sutun, connection)
        cevrilmis.append(deger)
    return model.from_db(connection.alias, [a.attname for a in alanlar], cevrilmis)
