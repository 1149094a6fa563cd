"""The views' counts (CONTRACT 24, `GET /operator/gorunumler`; issue 43: flat as history grows).

On PostgreSQL they are read from `panel_gorunumsayaci`, which triggers on the chat and ticket
tables keep (panel/migrations/0001_gorunum_sayaci: every writer is seen, an action, a bulk
`update`, the admin, retention, an erasure, a cascade): one sum per kind over the caller's tenants'
rows, whatever the number of open items. SQLite, the embedded default, has no triggers there and
counts the open items as before (the selectors of chat and tickets): one vendor branch, because
the counters exist for the large PostgreSQL deployments (docs/performance.md, "Views at scale,
counted by triggers").

The runner keeps the table small and right: `sikistir` folds each key's +1/-1 rows into one row,
`yeniden_say` recounts every key from the base tables and says how many had drifted (none, unless
a trigger was disabled or a table restored around it). Both rewrite the rows they read in one
statement, so a concurrent reader sees the sums before or after, never in between, and both take
one advisory lock, so they never fold what the other is replacing.

A snoozed item counts as `ertelenen` until the wake sweep clears its `ertelendi_kadar` (within
ERTELEME_TARAMA_ARALIGI of the time), exactly as the lists' `_gorunum` filters say."""
import logging

from django.db import connection, transaction
from django.db.models import Q, Sum

from chat import selectors as chat_selectors
from tickets import selectors as ticket_selectors

from .models import GorunumSayaci

logger = logging.getLogger(__name__)

GORUNUMLER = chat_selectors.GORUNUMLER  # the same four for tickets (CONTRACT 24)
_KILIT = 43_024_001  # pg_advisory_xact_lock key of folding and recounting

# Keys with more than one row (or a zero sum) become one row with their sum, or none.
_SIKISTIR = """
WITH coklu AS (
    SELECT musteri_id, tur, gorunum, operator_id FROM panel_gorunumsayaci
    GROUP BY musteri_id, tur, gorunum, operator_id HAVING count(*) > 1 OR sum(sayi) = 0
), silinen AS (
    DELETE FROM panel_gorunumsayaci s USING coklu c
    WHERE s.musteri_id = c.musteri_id AND s.tur = c.tur AND s.gorunum = c.gorunum
      AND s.operator_id IS NOT DISTINCT FROM c.operator_id
    RETURNING s.musteri_id, s.tur, s.gorunum, s.operator_id, s.sayi
), eklenen AS (
    INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
    SELECT musteri_id, tur, gorunum, operator_id, sum(sayi)::integer FROM silinen
    GROUP BY musteri_id, tur, gorunum, operator_id HAVING sum(sayi) <> 0
    RETURNING 1
)
SELECT (SELECT count(*) FROM silinen), (SELECT count(*) FROM eklenen)
"""

# One statement, one snapshot: the counters it deletes and the rows it counts are the same moment's;
# a change committed after it keeps its own +1/-1 rows, which it did not see either.
_YENIDEN_SAY = """
WITH eski AS (
    DELETE FROM panel_gorunumsayaci RETURNING musteri_id, tur, gorunum, operator_id, sayi
), yeni AS (
    SELECT o.musteri_id, 'chat'::varchar AS tur, a.gorunum::varchar AS gorunum, a.operator_id, count(*)::integer AS sayi
    FROM chat_oturum o
    CROSS JOIN LATERAL panel_gorunum_anahtarlari('chat', o.durum, o.operator_id,
                                                 o.ertelendi_kadar IS NOT NULL OR o.ertelendi_ziyaretci) a
    WHERE o.durum IN ('bekliyor', 'aktif')
    GROUP BY o.musteri_id, a.gorunum, a.operator_id
    UNION ALL
    SELECT t.musteri_id, 'ticket'::varchar, a.gorunum::varchar, a.operator_id, count(*)::integer
    FROM tickets_ticket t
    CROSS JOIN LATERAL panel_gorunum_anahtarlari('ticket', t.durum, t.operator_id,
                                                 t.ertelendi_kadar IS NOT NULL OR t.ertelendi_ziyaretci) a
    WHERE t.durum IN ('acik', 'beklemede')
    GROUP BY t.musteri_id, a.gorunum, a.operator_id
), eklenen AS (
    INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
    SELECT musteri_id, tur, gorunum, operator_id, sayi FROM yeni
    RETURNING 1
), eski_toplam AS (
    SELECT musteri_id, tur, gorunum, operator_id, sum(sayi) AS sayi FROM eski
    GROUP BY musteri_id, tur, gorunum, operator_id HAVING sum(sayi) <> 0
)
SELECT count(*), (SELECT count(*) FROM eklenen)
FROM eski_toplam e FULL JOIN yeni n
  ON e.musteri_id = n.musteri_id AND e.tur = n.tur AND e.gorunum = n.gorunum
 AND e.operator_id IS NOT DISTINCT FROM n.operator_id
WHERE e.sayi IS DISTINCT FROM n.sayi
"""


def tetikli() -> bool:
    """The counters are kept (PostgreSQL); elsewhere the counts read the base tables."""
    return connection.vendor == "postgresql"


def gorunum_sayilari(*, kullanici, musteri_idleri: list[int]) -> dict[str, dict[str, int]]:
    """Each view's count of chats and of tickets for the caller: one query per kind."""
    if not tetikli():
        return {"chat": chat_selectors.gorunum_sayilari(kullanici=kullanici, musteri_idleri=musteri_idleri),
                "ticket": ticket_selectors.gorunum_sayilari(kullanici_id=kullanici.pk, musteri_idleri=musteri_idleri)}
    return {tur: _sayaclardan(tur, kullanici_id=kullanici.pk, musteri_idleri=musteri_idleri)
            for tur in GorunumSayaci.Tur.values}


def _sayaclardan(tur: str, *, kullanici_id: int, musteri_idleri: list[int]) -> dict[str, int]:
    # Shared views' keys have no operator; of the `benim` keys, only the caller's.
    satirlar = (GorunumSayaci.objects.kapsamda(musteri_idleri)
                .filter(Q(operator_id__isnull=True) | Q(operator_id=kullanici_id), tur=tur)
                .values_list("gorunum").annotate(toplam=Sum("sayi")).order_by())
    sayilar = dict(satirlar)
    return {ad: sayilar.get(ad) or 0 for ad in GORUNUMLER}


def sikistir() -> dict[str, int]:
    """Folds each key's rows into one (`silinen` rows read, `yazilan` written)."""
    if not tetikli():
        return {"silinen": 0, "yazilan": 0}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_KILIT])
        cursor.execute(_SIKISTIR)
        silinen, yazilan = cursor.fetchone()
    return {"silinen": silinen, "yazilan": yazilan}


def yeniden_say() -> dict[str, int]:
    """Replaces every counter by a recount of the base tables (`kayan`: keys whose sum was wrong)."""
    if not tetikli():
        return {"kayan": 0, "yazilan": 0}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_KILIT])
        cursor.execute(_YENIDEN_SAY)
        kayan, yazilan = cursor.fetchone()
    if kayan:
        logger.warning("View counters had drifted on %d keys; recounted from the chats and tickets.", kayan)
    return {"kayan": kayan, "yazilan": yazilan}
