"""The chat statements the ORM cannot write (issue 12): PostgreSQL only, each with its own test
(chat/tests/test_sorgular.py); callers keep an ORM path for other databases.

Table, column and type names come from the models' `_meta`, and values are prepared by the
fields themselves (`get_db_prep_save`), so a model change reaches these statements as it reaches
the ORM's; the SQL text is built once per process.
"""
from functools import cache
from typing import NamedTuple

from django.db import connection

from .models import Mesaj, Oturum


@cache
def _ziyaretci_mesaji_sql() -> tuple[str, tuple]:
    q = connection.ops.quote_name
    o = {ad: q(Oturum._meta.get_field(ad).column) for ad in ("id", "musteri", "ziyaretci_id", "durum",
                                                              "operator", "son_mesaj", "okunmamis",
                                                              "ertelendi_kadar", "ertelendi_ziyaretci",
                                                              "son_mesaj_no", "son_gorunur_mesaj_no")}
    tablo = q(Oturum._meta.db_table)
    mesaj_tablosu, mesaj_pk = Mesaj._meta.db_table, Mesaj._meta.pk.column
    alanlar = tuple(f for f in Mesaj._meta.concrete_fields if not f.primary_key)
    kolonlar = ", ".join(q(f.column) for f in alanlar)
    degerler = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in alanlar)
    # Only identifiers from the models' _meta are formatted in; every value is a parameter.
    # `e` takes the row lock and reads the chat as it was (PostgreSQL before 18 has no
    # `RETURNING old.`): whether it was snoozed (the visitor's message wakes it, CONTRACT 24, in
    # this same statement) and its newest messages, which are this one's predecessors (the
    # frames' `onceki_id`, issue 41). `n` draws the message's id from its sequence only once `e`
    # holds the lock (it reads `e`'s row; a volatile CTE is evaluated once), so a chat's ids stay
    # in commit order; the chat keeps it as its newest and the INSERT uses it.
    sql = (
        f"WITH e AS (SELECT {o['id']}, ({o['ertelendi_kadar']} IS NOT NULL OR {o['ertelendi_ziyaretci']}) AS ertelenmis, "  # noqa: S608
        f"{o['son_mesaj_no']} AS onceki, {o['son_gorunur_mesaj_no']} AS gorunur_onceki "
        f"FROM {tablo} "
        f"WHERE {o['id']} = %s AND {o['musteri']} = %s AND {o['ziyaretci_id']} = %s AND {o['durum']} = ANY(%s) "
        f"FOR UPDATE), "
        f"n AS MATERIALIZED (SELECT e.{o['id']}, e.ertelenmis, e.onceki, e.gorunur_onceki, "
        f"nextval(pg_get_serial_sequence('{q(mesaj_tablosu)}', '{mesaj_pk}')) AS yeni FROM e), "
        f"o AS (UPDATE {tablo} "
        f"SET {o['son_mesaj']} = %s, {o['okunmamis']} = {tablo}.{o['okunmamis']} + 1, "
        f"{o['ertelendi_kadar']} = NULL, {o['ertelendi_ziyaretci']} = FALSE, "
        f"{o['son_mesaj_no']} = n.yeni, {o['son_gorunur_mesaj_no']} = n.yeni "
        f"FROM n WHERE {tablo}.{o['id']} = n.{o['id']} "
        f"RETURNING {tablo}.{o['durum']}, {tablo}.{o['operator']}, n.ertelenmis, n.onceki, n.gorunur_onceki, n.yeni), "
        f"m AS (INSERT INTO {q(mesaj_tablosu)} ({q(mesaj_pk)}, {kolonlar}) SELECT o.yeni, {degerler} FROM o "
        f"RETURNING {q(mesaj_pk)}) "
        f"SELECT m.{q(mesaj_pk)}, o.{o['durum']}, o.{o['operator']}, o.ertelenmis, o.onceki, o.gorunur_onceki FROM m, o"
    )
    return sql, alanlar


class Yazilan(NamedTuple):
    durum: str
    operator_id: int | None
    uyandi: bool
    onceki_idleri: tuple[int | None, int | None]  # chat.selectors.onceki_mesaj_idleri's answer


def ziyaretci_mesaji_yaz(*, mesaj: Mesaj, ziyaretci_id: str, onizleme: str, durumlar) -> Yazilan | None:
    """One statement, atomic on its own: the visitor's chat (`mesaj.oturum_id` of
    `mesaj.musteri_id`, in one of `durumlar`) gets the preview and one more unread message, under
    its row lock (a racing close waits, or wins and leaves nothing to update), wakes if it was
    snoozed, and only when it matched is `mesaj` (unsaved) inserted. Returns the chat's state and
    operator as the statement left them (who is to hear of the message) and whether it was
    snoozed, and the message's predecessors (any message, one the visitor sees: the chat's newest
    before it, kept on the chat by every message's write), with `mesaj.pk` set; None when nothing
    was written."""
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
    return Yazilan(satir[1], satir[2], bool(satir[3]), (satir[4], satir[5]))
