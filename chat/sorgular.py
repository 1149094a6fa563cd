"""The chat statements the ORM cannot write (issue 12): PostgreSQL only, each with its own test
(chat/tests/test_sorgular.py); callers keep an ORM path for other databases.

Table, column and type names come from the models' `_meta`, and values are prepared by the
fields themselves (`get_db_prep_save`), so a model change reaches these statements as it reaches
the ORM's; the SQL text is built once per process.
"""
from functools import cache

from django.db import connection

from .models import Mesaj, Oturum


@cache
def _ziyaretci_mesaji_sql() -> tuple[str, tuple]:
    q = connection.ops.quote_name
    o = {ad: q(Oturum._meta.get_field(ad).column) for ad in ("id", "musteri", "ziyaretci_id", "durum",
                                                              "operator", "son_mesaj", "okunmamis",
                                                              "ertelendi_kadar", "ertelendi_ziyaretci")}
    tablo = q(Oturum._meta.db_table)
    alanlar = tuple(f for f in Mesaj._meta.concrete_fields if not f.primary_key)
    kolonlar = ", ".join(q(f.column) for f in alanlar)
    degerler = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in alanlar)
    # Only identifiers from the models' _meta are formatted in; every value is a parameter.
    # `e` takes the row lock and reads the snooze as it was (PostgreSQL before 18 has no
    # `RETURNING old.`): the visitor's message wakes a snoozed chat (CONTRACT 24) in this same
    # statement, and the caller learns whether it did.
    sql = (
        f"WITH e AS (SELECT {o['id']}, ({o['ertelendi_kadar']} IS NOT NULL OR {o['ertelendi_ziyaretci']}) AS ertelenmis "  # noqa: S608
        f"FROM {tablo} "
        f"WHERE {o['id']} = %s AND {o['musteri']} = %s AND {o['ziyaretci_id']} = %s AND {o['durum']} = ANY(%s) "
        f"FOR UPDATE), "
        f"o AS (UPDATE {tablo} "
        f"SET {o['son_mesaj']} = %s, {o['okunmamis']} = {tablo}.{o['okunmamis']} + 1, "
        f"{o['ertelendi_kadar']} = NULL, {o['ertelendi_ziyaretci']} = FALSE "
        f"FROM e WHERE {tablo}.{o['id']} = e.{o['id']} "
        f"RETURNING {tablo}.{o['durum']}, {tablo}.{o['operator']}, e.ertelenmis), "
        f"m AS (INSERT INTO {q(Mesaj._meta.db_table)} ({kolonlar}) SELECT {degerler} FROM o "
        f"RETURNING {q(Mesaj._meta.pk.column)}) "
        f"SELECT m.{q(Mesaj._meta.pk.column)}, o.{o['durum']}, o.{o['operator']}, o.ertelenmis FROM m, o"
    )
    return sql, alanlar


def ziyaretci_mesaji_yaz(*, mesaj: Mesaj, ziyaretci_id: str, onizleme: str,
                         durumlar) -> tuple[str, int | None, bool] | None:
    """One statement, atomic on its own: the visitor's chat (`mesaj.oturum_id` of
    `mesaj.musteri_id`, in one of `durumlar`) gets the preview and one more unread message, under
    its row lock (a racing close waits, or wins and leaves nothing to update), wakes if it was
    snoozed, and only when it matched is `mesaj` (unsaved) inserted. Returns the chat's state and
    operator as the statement left them (who is to hear of the message) and whether it was
    snoozed, with `mesaj.pk` set; None when nothing was written."""
    sql, alanlar = _ziyaretci_mesaji_sql()
    params = [mesaj.oturum_id, mesaj.musteri_id, ziyaretci_id, list(durumlar), onizleme]
    params += [f.get_db_prep_save(f.pre_save(mesaj, True), connection) for f in alanlar]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        satir = cursor.fetchone()
    if satir is None:
        return None
    mesaj.pk = satir[0]
    mesaj._state.adding = False
    mesaj._state.db = connection.alias
    return satir[1], satir[2], bool(satir[3])
