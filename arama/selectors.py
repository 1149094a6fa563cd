"""The operators' search (CONTRACT 16): rows of the caller's tenants (scoped in the query)
matching every word of `q`, best first, a page at a time.

Ranking, one integer `skor` per row so the cursor carries it exactly: a row whose header (visitor
name, e-mail, id, ticket subject) matches a query stem outranks every row whose body alone does;
within those, PostgreSQL's `ts_rank` (header weight A, body B) and on SQLite the number of body
words matched (capped) order them. Ties go to the newest activity, then the newest row.
"""
import base64
import json
import re
from datetime import datetime

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import Case, ExpressionWrapper, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.expressions import Combinable
from django.db.models.functions import Cast, Least, Length, Replace
from django.db.models.lookups import GreaterThan
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.pagination import imlec_yap

from . import metin
from .models import AramaKaydi

BASLIK_PUANI = 1_000_000_000
# ts_rank weights {D, C, B, A}: only A (header) and B (body) are used.
AGIRLIKLAR = [0.0, 0.0, 0.4, 1.0]
SADECE_UST = [0.0, 0.0, 0.0, 1.0]
SIRA = ("skor", "zaman", "id")


def arama_kapsami(*, musteri_idleri: list[int], musteri_id: int | None) -> list[int]:
    """The caller's tenants, or the one it named: another tenant's id is a 404 (CONTRACT 1)."""
    if musteri_id is None:
        return musteri_idleri
    if musteri_id not in musteri_idleri:
        raise Bulunamadi()
    return [musteri_id]


def arama_kaydi_list(*, musteri_idleri: list[int], q: str, tur: str | None = None) -> QuerySet[AramaKaydi]:
    """Matching rows with their `skor` (order by `SIRA`, descending), or none when `q` holds no
    word."""
    kokler = metin.sorgu_kokleri(q)
    qs = AramaKaydi.objects.kapsamda(musteri_idleri)
    if tur:
        qs = qs.filter(tur=tur)
    if not kokler:
        return qs.none().annotate(skor=Value(0, output_field=IntegerField()))
    if connection.vendor == "postgresql":
        return _postgresql(qs, kokler)
    return _sqlite(qs, kokler)


class _SabitSorgu(SearchQuery):
    """The tsquery written into the statement as a constant, not bound as a parameter: with
    server-side prepared statements (settings: `prepare_threshold`) PostgreSQL would otherwise
    settle on a generic plan that cannot know how common the words are, and scan the GIN index
    for a word in every row (hundreds of ms) where the tenant's own rows are a few hundred.
    Safe as a literal: stems hold letters and digits only (`arama.metin`), checked again here."""

    def __init__(self, ifade: str):
        super().__init__(ifade, config="simple", search_type="raw")
        self.ifade = ifade

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]
        ifade = self.ifade
        if not _GUVENLI.fullmatch(ifade):
            raise ValueError(ifade)
        sabit = "'" + ifade.replace("'", "''") + "'"
        return f"to_tsquery('simple'::regconfig, {sabit})", []


_GUVENLI = re.compile(r"'[^\W_]+':\*(?: & '[^\W_]+':\*)*")


def _postgresql(qs, kokler: list[str]) -> QuerySet[AramaKaydi]:
    sorgu = _SabitSorgu(metin.tsquery(kokler))
    ust = SearchRank(F("vektor"), sorgu, weights=SADECE_UST)
    genel = SearchRank(F("vektor"), sorgu, weights=AGIRLIKLAR)
    skor = (Case(When(GreaterThan(ust, 0), then=Value(BASLIK_PUANI)), default=Value(0))
            + Cast(genel * Value(1_000_000.0), IntegerField()))
    return qs.filter(vektor=sorgu).annotate(skor=ExpressionWrapper(skor, output_field=IntegerField()))


def _sqlite(qs, kokler: list[str]) -> QuerySet[AramaKaydi]:
    """The same rows as on PostgreSQL: ` kök` in the folded words (a word starting with the stem)."""
    kosul = Q()
    ust_puani: Combinable = Value(0)
    govde_puani: Combinable = Value(0)
    for kok in kokler:
        parca = " " + kok
        kosul &= Q(katli_ust__contains=parca) | Q(katli_govde__contains=parca)
        ust_puani = ust_puani + Case(When(katli_ust__contains=parca, then=Value(1)), default=Value(0))
        # Occurrences: how much shorter the text gets without them.
        govde_puani = govde_puani + (Length("katli_govde") - Length(Replace("katli_govde", Value(parca), Value("")))) / len(parca)
    skor = (Case(When(GreaterThan(ust_puani, 0), then=Value(BASLIK_PUANI)), default=Value(0))
            + Least(govde_puani, Value(999)) * Value(1000) + ust_puani)
    return qs.filter(kosul).annotate(skor=ExpressionWrapper(skor, output_field=IntegerField()))


def imlec_coz(cursor: str) -> tuple[int, datetime, int]:
    try:
        skor, zaman, kayit_id = json.loads(base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()))
        zaman = datetime.fromisoformat(zaman)
        if type(skor) is not int or type(kayit_id) is not int or zaman.tzinfo is None:
            raise ValueError
        return skor, zaman, kayit_id
    except Exception:  # noqa: BLE001  (any malformed cursor is the client's error)
        raise GecersizIstek(alanlar={"cursor": _("Geçersiz sayfa imleci.")}) from None


def arama_sayfasi(*, musteri_idleri: list[int], q: str, tur: str | None, cursor: str | None,
                  limit: int) -> tuple[list[AramaKaydi], str | None]:
    """One page of `arama_kaydi_list`, best first, and the next page's cursor (keyset on
    `skor`, `zaman`, `id`: stable while rows are added), or None on the last page."""
    qs = arama_kaydi_list(musteri_idleri=musteri_idleri, q=q, tur=tur)
    if cursor:
        skor, zaman, kayit_id = imlec_coz(cursor)
        qs = qs.filter(Q(skor__lt=skor) | Q(skor=skor, zaman__lt=zaman) | Q(skor=skor, zaman=zaman, id__lt=kayit_id))
    qs = qs.defer("vektor", "katli_ust", "katli_govde").order_by("-skor", "-zaman", "-id")
    rows = list(qs[: limit + 1])
    if len(rows) <= limit:
        return rows, None
    rows = rows[:limit]
    son = rows[-1]
    return rows, imlec_yap([son.skor, son.zaman, son.id])  # type: ignore[attr-defined]  # annotated
