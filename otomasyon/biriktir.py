"""The runs whose conditions did not hold reach the database together (issue 42): an event that ran
N rules of which none held only notes `(rule ids, target, time, tenant)` in this process after its
commit (a tuple: no I/O), and once an interval (`KURAL_BIRIKTIRME_SANIYE`, 1 s) the runner writes
every noted event in one statement, one row per event (`sorgular.kosul_tutmadi_yaz`). A visitor's message against 50 rules
thus costs no statement and no commit of its own for them; the runs are listed by
`GET /operator/kurallar/{id}/calismalar` within about one interval. The pattern is
`arama.biriktir`'s.

Exact as CONTRACT 23 asks, with one bound: a note is taken only after the event's commit
(`transaction.on_commit`), so a rolled-back change records nothing; `uygulandi` and `hata` runs
are never noted here (they are written in the event's own transaction, with what their actions
did). A process that dies between a commit and its next write (at most one interval) loses its
notes; a process leaving normally writes them at exit. `KURAL_BIRIKTIRME_SANIYE=0` writes each
event's runs in its own transaction instead (one statement; the tests' default)."""
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction

from supportdesk.core.biriktirici import Biriktirici

from . import sorgular

EN_COK = 10_000  # events' notes held at most (the database unreachable for long): older ones are dropped


def _yaz(olaylar: list[sorgular.Olay]) -> int:
    sorgular.kosul_tutmadi_yaz(olaylar)
    return len(olaylar)


_biriktirici = Biriktirici(ad="kural-biriktir", aralik=lambda: settings.KURAL_BIRIKTIRME_SANIYE, yaz=_yaz,
                           en_cok=EN_COK)
bosalt = _biriktirici.bosalt


def biriktiriliyor() -> bool:
    return settings.KURAL_BIRIKTIRME_SANIYE > 0 and connection.vendor == "postgresql"


def kaydet(*, kural_idleri: Sequence[int], hedef: str, zaman: datetime, musteri_id: int) -> None:
    """Note these runs once the current transaction commits (at once outside one)."""
    olay = (kural_idleri, hedef, zaman, musteri_id)
    transaction.on_commit(lambda: _biriktirici.ekle(olay))
