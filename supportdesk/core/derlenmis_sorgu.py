"""Querysets built and compiled once per process, then run with new values (issue 12).

Building a queryset with annotations, subqueries and `OuterRef`s, and compiling it to SQL, costs
far more Python than running it: the widget's poll spent about 1.3 ms a request building two
querysets whose SQL never changes, against 0.1 ms of database time. A `DerlenmisSorgu` keeps the ORM
as the one author of the SQL (no hand-written SQL, nothing per database vendor): on first use in
a process it calls the builder with a unique stand-in value for each parameter, compiles the
queryset with the connection's own compiler, and records which of the statement's parameters
are which stand-ins. Every later call runs the same SQL text with the real values through
`Model.objects.raw()`, which builds model instances the usual way (annotations become
attributes). The same SQL text each time also lets psycopg prepare the statement on the server
(`prepare_threshold`), so PostgreSQL stops planning it.

Rules for a builder, checked when it is compiled:
- every parameter reaches the SQL as one bound value, unchanged (a stand-in that the ORM
  transforms, e.g. inside `icontains`, or that does not appear at all, is an error);
- values that change the shape of the SQL (a slice's size, a flag choosing a branch) are
  *fixed* arguments: they are part of the cache key, so keep them few;
- no `select_related` (raw querysets do not follow joins): join single columns in as
  annotations (`F("operator__ad")`), or load related rows afterwards with
  `prefetch_related_objects`.

PostgreSQL only: on any other database (SQLite for `make run` and some tests) the builder's
queryset is simply run, so behaviour is the same everywhere and only the speed differs.
"""
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import connections, models
from django.db.models import Lookup

_INT_TABANI = -(10**15)  # far below any id or count a real query would use


class _Dizi(list):
    """A list stand-in: the ORM copies lists it resolves but keeps their type, so a `_Dizi` in the
    compiled parameters is a stand-in (a `herhangi` lookup passes it on as one parameter)."""


class Herhangi(Lookup):
    """`alan__herhangi=[1, 2, 3]`: `alan = ANY(%s)` with the whole list as one array parameter
    (PostgreSQL), so a set of any size is one parameter and one statement text; elsewhere the
    ordinary `IN (...)`."""

    lookup_name = "herhangi"
    prepare_rhs = False

    def process_rhs(self, compiler, connection):
        return "%s", [self.rhs]

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        if connection.vendor == "postgresql":
            return f"{lhs} = ANY(%s)", [*lhs_params, self.rhs]
        if not self.rhs:
            return "1 = 0", list(lhs_params)
        return f"{lhs} IN ({', '.join(['%s'] * len(self.rhs))})", [*lhs_params, *self.rhs]


models.Field.register_lookup(Herhangi)


class DerlenmisSorgu:
    """`sorgu = DerlenmisSorgu(builder, parametreler={"oturum_id": int, "ziyaretci_id": str})`, then
    `sorgu(oturum_id=5, ziyaretci_id="v1", adet=51)` returns the rows as a list. Arguments not
    named in `parametreler` are fixed: passed to the builder as they are and part of the cache key."""

    def __init__(self, builder: Callable[..., models.QuerySet], *, parametreler: dict[str, type]):
        self._builder = builder
        self._parametreler = parametreler
        self._derlenmis: dict[tuple, tuple[models.Model, str, list]] = {}

    def _yer_tutucular(self) -> dict[str, Any]:
        sonuc = {}
        for sira, (ad, tur) in enumerate(self._parametreler.items()):
            if tur is int:
                sonuc[ad] = _INT_TABANI - sira
            elif tur is str:
                sonuc[ad] = f"\x1ehazir-sorgu:{ad}\x1e"
            elif tur is list:
                sonuc[ad] = _Dizi([_INT_TABANI - sira])
            elif tur is datetime:  # aware: PostgreSQL's adapter passes it on unchanged
                sonuc[ad] = datetime(1901, 2, 3, 4, 5, 6, sira + 1, tzinfo=UTC)
            else:
                raise TypeError(f"DerlenmisSorgu: desteklenmeyen parametre türü {tur!r} ({ad})")
        return sonuc

    def _derle(self, alias: str, sabitler: dict) -> tuple[type[models.Model], str, list]:
        yer = self._yer_tutucular()
        qs = self._builder(**yer, **sabitler)
        sql, params = qs.query.get_compiler(using=alias).as_sql()
        diziler = {tuple(v): ad for ad, v in yer.items() if isinstance(v, _Dizi)}
        esit = {v: ad for ad, v in yer.items() if not isinstance(v, _Dizi)}
        yerler: list = []
        goruldu = set()
        for p in params:
            ad = diziler.get(tuple(p)) if isinstance(p, _Dizi) else None
            if ad is None and isinstance(p, (int, str, datetime)) and not isinstance(p, bool):
                ad = esit.get(p)
            if ad is not None:
                yerler.append((ad,))
                goruldu.add(ad)
            else:
                for deger in yer.values():
                    if isinstance(p, str) and isinstance(deger, str) and deger in p:
                        raise ValueError(f"DerlenmisSorgu: parametre SQL'e dönüştürülerek girdi: {p!r}")  # ceviri: yok
                yerler.append(p)
        eksik = set(yer) - goruldu
        if eksik:
            raise ValueError(f"DerlenmisSorgu: SQL'de bulunmayan parametreler: {sorted(eksik)}")
        return qs.model, sql, yerler

    def __call__(self, **degerler) -> list:
        sabitler = {k: v for k, v in degerler.items() if k not in self._parametreler}
        parametreler = {k: v for k, v in degerler.items() if k in self._parametreler}
        if set(parametreler) != set(self._parametreler):
            raise TypeError(f"DerlenmisSorgu: eksik parametreler {sorted(set(self._parametreler) - set(parametreler))}")
        alias = "default"
        if connections[alias].vendor != "postgresql":
            return list(self._builder(**degerler))
        anahtar = (alias, tuple(sorted(sabitler.items())))
        derlenmis = self._derlenmis.get(anahtar)
        if derlenmis is None:
            derlenmis = self._derle(alias, sabitler)
            self._derlenmis[anahtar] = derlenmis
        model, sql, yerler = derlenmis
        params = [parametreler[y[0]] if isinstance(y, tuple) else y for y in yerler]
        return list(model._default_manager.using(alias).raw(sql, params))
