"""Search folding: Turkish letters to their ASCII base, then lower case, the same in Python and
in SQL on PostgreSQL and SQLite, so "sifre" finds "Şifre" and "ozturk" finds "Öztürk" (and the
other way round) whichever database runs (issue 24).

The letters are mapped before lowering, so the database's lower() never sees `I`/`İ` (which a
non-Turkish locale lowers to `i` and `i̇`). On SQLite, whose lower() knows ASCII only, the SQL
side is this module's own Python function, registered on every new connection (`kaydet`).
"""
import unicodedata
from typing import overload

from django.db.backends.signals import connection_created
from django.db.models import CharField, TextField, Transform, Value

TURKCE = "ÇĞİIÖŞÜÂÎÛçğıöşüâîû"  # ceviri: yok
ASCII = "CGIIOSUAIUcgiosuaiu"
TABLO = str.maketrans(TURKCE, ASCII)
_SQLITE_ADI = "sd_katla"


@overload
def katla(metin: str) -> str: ...
@overload
def katla(metin: None) -> None: ...
def katla(metin: str | None) -> str | None:
    if metin is None:
        return None
    return unicodedata.normalize("NFC", metin).translate(TABLO).lower()


class Katli(Transform):
    """`alan__katli__contains=katla(q)`: the column folded like `katla` in the query."""

    lookup_name = "katli"

    def as_sql(self, compiler, connection):
        lhs, params = compiler.compile(self.lhs)
        return f"{_SQLITE_ADI}({lhs})", params

    def as_postgresql(self, compiler, connection):
        lhs, params = compiler.compile(self.lhs)
        kaynak, kaynak_p = compiler.compile(Value(TURKCE))
        hedef, hedef_p = compiler.compile(Value(ASCII))
        return f"lower(translate({lhs}, {kaynak}, {hedef}))", (*params, *kaynak_p, *hedef_p)


def _sqlite_fonksiyonu(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        connection.connection.create_function(_SQLITE_ADI, 1, katla, deterministic=True)


def kaydet() -> None:
    """From the core app's ready(): the transform on text columns, the function on SQLite."""
    CharField.register_lookup(Katli)
    TextField.register_lookup(Katli)
    connection_created.connect(_sqlite_fonksiyonu, dispatch_uid="supportdesk.core.katlama")
