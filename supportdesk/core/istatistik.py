"""Statistics in the database, on PostgreSQL and on SQLite alike (reports, CONTRACT 13).

PostgreSQL computes a median with `percentile_cont(0.5)` in the same aggregate query; SQLite has
no such function, so `medyan` there asks for the count and then for the one or two middle values
(`ORDER BY … LIMIT 2 OFFSET k`, served by a sort in the database): always two queries, whatever
the data, and never a row list in Python.
"""
from django.db import connection
from django.db.models import Aggregate, FloatField, Func, QuerySet


class SaniyeFarki(Func):
    """Seconds from `bas` to `son` (two datetimes) as a float."""

    output_field = FloatField()
    arity = 2

    def __init__(self, son, bas, **extra):
        super().__init__(son, bas, **extra)

    def as_postgresql(self, compiler, conn, **extra):
        return self.as_sql(compiler, conn, template="EXTRACT(EPOCH FROM (%(expressions)s))", arg_joiner=" - ", **extra)

    def as_sqlite(self, compiler, conn, **extra):
        # julianday() is a float of days: rounded to the millisecond so 25 s reads 25.0, not 25.000005.
        return self.as_sql(compiler, conn, template="ROUND((julianday(%(expressions)s)) * 86400.0, 3)",
                           arg_joiner=") - julianday(", **extra)


class Medyan(Aggregate):
    """PostgreSQL's continuous median (`percentile_cont(0.5)`); see `medyan` for SQLite."""

    function = "percentile_cont"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()


def medyan(qs: QuerySet, alan: str) -> float | None:
    """The median of the annotation `alan` over the non-null rows of `qs` (None when none)."""
    qs = qs.filter(**{f"{alan}__isnull": False})
    if connection.vendor == "postgresql":
        return qs.aggregate(m=Medyan(alan))["m"]
    n = qs.count()
    ortadakiler = list(qs.order_by(alan).values_list(alan, flat=True)[max(n - 1, 0) // 2:max(n - 1, 0) // 2 + 2])
    if n == 0:
        return None
    if n % 2:
        return float(ortadakiler[0])
    return (ortadakiler[0] + ortadakiler[1]) / 2
