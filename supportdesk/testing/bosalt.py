"""How a transactional test (live servers, browsers, real commits) leaves the database: empty, as
Django's own flush leaves it, only faster on PostgreSQL.

Django's flush TRUNCATEs every table (each TRUNCATE makes new files for the table and its indexes:
about a second on this machine's PostgreSQL, whatever the rows) and then re-creates every content
type and permission it has just removed (post_migrate: some 60 queries and as many commits). A
test writes a handful of tables; here only the tables holding a row are emptied, with DELETE, in
one transaction whose foreign keys are checked at its commit (Django makes them DEFERRABLE), and
the content types and permissions, written by the migrations and never by a test, are kept: the
next test finds the same rows the re-creation would have written.

A table a trigger forbids DELETE on (the audit log, denetim.koruma) is TRUNCATEd; row triggers that
write elsewhere (the console's view counters, panel migration 0001) are followed by another pass
until no table holds a row. Any other database, or a table layout this does not expect, gets
Django's flush unchanged.
"""
from django.db import connections, transaction

# Written by migrate (post_migrate) and read, never written, by the tests.
KORUNAN = frozenset({"django_content_type", "auth_permission"})

_tablolar: dict[str, tuple[list[str], frozenset[str]] | None] = {}


def _tablo_bilgisi(baglanti) -> tuple[list[str], frozenset[str]] | None:
    """(the tables to empty, those of them a trigger forbids DELETE on); None where the fast way
    does not apply (a TRUNCATE it would need is referenced by a table it does not empty)."""
    if baglanti.alias not in _tablolar:
        tablolar = sorted(set(baglanti.introspection.django_table_names(only_existing=True, include_views=False))
                          - KORUNAN)
        with baglanti.cursor() as c:
            # BEFORE (2) ... DELETE (8) row triggers of the user's own (not a foreign key's).
            c.execute("SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger "
                      "WHERE NOT tgisinternal AND tgtype & 2 = 2 AND tgtype & 8 = 8")
            kesilecek = frozenset(r[0].strip('"') for r in c.fetchall()) & set(tablolar)
            c.execute("SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint WHERE contype = 'f'")
            baglar = [(a.strip('"'), b.strip('"')) for a, b in c.fetchall()]
        uygun = all(a == b for a, b in baglar if b in kesilecek)
        _tablolar[baglanti.alias] = (tablolar, kesilecek) if uygun else None
    return _tablolar[baglanti.alias]


def _dolu_tablolar(c, qn, tablolar: list[str]) -> list[str]:
    # Table names from the model registry, quoted.
    c.execute(" UNION ALL ".join(f"SELECT {i} WHERE EXISTS (SELECT 1 FROM {qn(t)})"  # noqa: S608
                                 for i, t in enumerate(tablolar)))
    return [tablolar[r[0]] for r in c.fetchall()]


def bosalt(alias: str) -> bool:
    """Empty database `alias` the fast way; False where the caller should flush as Django does."""
    baglanti = connections[alias]
    if baglanti.vendor != "postgresql":
        return False
    bilgi = _tablo_bilgisi(baglanti)
    if bilgi is None:
        return False
    tablolar, kesilecek = bilgi
    qn = baglanti.ops.quote_name
    with transaction.atomic(using=alias), baglanti.cursor() as c:
        c.execute("SET CONSTRAINTS ALL DEFERRED")
        for _ in range(5):
            dolu = _dolu_tablolar(c, qn, tablolar)
            if not dolu:
                return True
            for tablo in dolu:
                c.execute(f"{'TRUNCATE' if tablo in kesilecek else 'DELETE FROM'} {qn(tablo)}")
        kalan = _dolu_tablolar(c, qn, tablolar)
        if kalan:
            raise RuntimeError(f"Test veritabanı boşaltılamadı: {kalan}")
    return True
