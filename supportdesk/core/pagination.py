"""Keyset (cursor) pagination: stable under inserts, one query a page, no OFFSET scans.

The cursor is an opaque base64 of the last row's ordering values; `sonraki` is null on the
last page (CONTRACT 1). Page size: `limit`, default 50, at most 200 (CONTRACT 9): a larger
`limit` gets 200 rows, as DRF's own paginators cap `max_page_size`; 0, negatives and non-numbers
are 400.
"""
import base64
import json
from functools import reduce
from operator import or_

from django.db import connections
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from .exceptions import GecersizIstek

VARSAYILAN_SAYFA = 50
EN_BUYUK_SAYFA = 200


def imlec_yap(values: list) -> str:
    raw = json.dumps([v.isoformat() if hasattr(v, "isoformat") else v for v in values], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def imlec_coz(cursor: str, model, fields: list[str]) -> list:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()).decode())
        if not isinstance(values, list) or len(values) != len(fields):
            raise ValueError
        result = [model._meta.get_field(f).to_python(v) for f, v in zip(fields, values, strict=True)]
        # We never issue a cursor with a null or a NUL character in it: such a value could only
        # be forged, and would reach the database as `field > NULL` or a string PostgreSQL refuses.
        if any(v is None or (isinstance(v, str) and "\x00" in v) for v in result):
            raise ValueError
        return result
    except Exception:  # noqa: BLE001  (any malformed cursor is the client's error)
        raise GecersizIstek(alanlar={"cursor": _("Geçersiz sayfa imleci.")}) from None


def sayfa_boyutu(params) -> int:
    raw = params.get("limit")
    if raw in (None, ""):
        return VARSAYILAN_SAYFA
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise GecersizIstek(alanlar={"limit": _("Sayı olmalı.")}) from None
    if value < 1:
        raise GecersizIstek(alanlar={"limit": _("En az 1 olmalı.")})
    return min(value, EN_BUYUK_SAYFA)


def sayfala(
    qs: QuerySet, params, *, alanlar: tuple[str, ...] = ("id",), azalan: bool = False, dallar: list[Q] | None = None
) -> tuple[list, str | None]:
    """Return (rows, next cursor) ordered by `alanlar` (the last must be unique, e.g. `id`).

    `dallar` (branches) split `qs` into parts that each read one range of an index in this
    order, e.g. one per tenant of a combined queue. Where the database can order and limit each
    part of a UNION (PostgreSQL), a page is the first `limit + 1` rows of each branch, merged:
    its cost follows the page size and the number of branches, not the number of matching rows.
    Elsewhere (SQLite) the branches are simply OR-ed together; the rows are the same.
    """
    fields = list(alanlar)
    limit = sayfa_boyutu(params)
    cursor = params.get("cursor") or params.get("sonraki")
    if cursor:
        values = imlec_coz(cursor, qs.model, fields)
        op = "lt" if azalan else "gt"
        cond = Q()
        for i, field in enumerate(fields):
            step = Q(**{f"{f}": v for f, v in zip(fields[:i], values[:i], strict=True)}) & Q(**{f"{field}__{op}": values[i]})
            cond |= step
        qs = qs.filter(cond)
    sira = [f"-{f}" if azalan else f for f in fields]
    if dallar and len(dallar) > 1 and connections[qs.db].features.supports_slicing_ordering_in_compound:
        parcalar = [qs.filter(dal).order_by(*sira)[: limit + 1] for dal in dallar]
        qs = parcalar[0].union(*parcalar[1:], all=True)
    elif dallar:
        qs = qs.filter(reduce(or_, dallar))
    rows = list(qs.order_by(*sira)[: limit + 1])
    if len(rows) <= limit:
        return rows, None
    rows = rows[:limit]
    last = rows[-1]
    return rows, imlec_yap([getattr(last, f) for f in fields])
