"""The widget's idle poll answered from Redis (issue 12): no PostgreSQL for the most common request.

An open widget without its socket asks `GET /widget/chat/messages?sonra=<last id>` every few
seconds, and almost always nothing has changed. The answer of such a poll is kept in Redis, as a
*snapshot* per chat: the answer as rendered (twice: without and with an operator online), the
tenant's operators who count as online by their stored status, and the `sonra` it was taken for.
The request's first and only Redis round trip (its pre-read, `tenants.on_okuma`: the view
declares `OnOkumaIhtiyaci(yoklama_ozeti=...)` with `okunacaklar`) also reads the snapshot and
three *generations*:

- the chat's own (`sohbet`): renewed by every change to the chat or a new message in it;
- the tenant's (`musteri`): renewed by every change that can move other chats' answers: a chat
  created, taken, closed or deleted (the queue), a membership or an operator's status;
- a global one (`genel`): renewed when an operator account is deleted (its chats lose their
  operator by `SET NULL`, which sends no signal).

A snapshot is used only when all three are still the values read *before* the statement it was
built from, so a change committed after that read (whose renewal comes after its commit) makes it
unusable at once. Every write renews the generations it touches now and again after its commit
(`degisti`): the second renewal is the one that matters; the first narrows the window in which a
failed second one (Redis unreachable at that moment, the process killed) would leave a stale
snapshot, which then lives at most `SURE` seconds.

Write paths: `degisti` is called by the listeners in `chat/dinleyiciler.py` only, on the domain
events of every write of `Oturum`, `Mesaj`, `Uyelik` and `Kullanici` (their own apps' signals state
them for ORM saves; the services that write by `QuerySet.update()` or raw SQL state their own). A
new `update()` of these models must state its event too (`chat/tests/test_yoklama_ozeti.py` checks
the code base for them).

Only with Redis as the cache and PostgreSQL as the database (the online operators come from an
array subquery); anything else takes the ordinary path, which stays the reference answer.
"""
import json
import logging
import secrets

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection

from supportdesk.core.onbellek import simdi_ve_commit_sonrasi, tenant_etiketi

logger = logging.getLogger("supportdesk.chat")

SURE = 30  # seconds a snapshot lives: a bound on staleness only when a renewal was lost
NESIL_SURE = 86400


def _onbellek() -> RedisCache | None:
    onbellek = caches["default"]
    return onbellek if isinstance(onbellek, RedisCache) else None


def _istemci(onbellek: RedisCache):
    return onbellek._cache.get_client(write=True)  # one per process (supportdesk.core.onbellek)


def _anahtar(onbellek: RedisCache, ad: str) -> str:
    return onbellek.make_key(f"yoklama:{ad}")  # our own ASCII names: no memcached key checks


def okunacaklar(*, oturum_id: int, musteri_id: int) -> list[str]:
    """The raw Redis keys a poll of this chat reads in its first round trip: the snapshot, then
    the chat's, the tenant's and the global generation. Empty without Redis or PostgreSQL."""
    onbellek = _onbellek()
    if onbellek is None or connection.vendor != "postgresql":
        return []
    return [_anahtar(onbellek, f"ozet:{{o:{oturum_id}}}"), _anahtar(onbellek, f"s:{{o:{oturum_id}}}"),
            _anahtar(onbellek, f"m:{tenant_etiketi(musteri_id)}"), _anahtar(onbellek, "genel")]


def _etiket(nesiller) -> bytes:
    return b" ".join(n if isinstance(n, bytes) else b"-" for n in nesiller)


def ozet_coz(okunan: list) -> tuple[dict, list[bytes]] | None:
    """The snapshot among the values read for `okunacaklar`, if it is still current: its facts
    (`ozet_yaz`'s `veri`) and its two rendered answers."""
    if len(okunan) != 4 or not isinstance(okunan[0], bytes):
        return None
    satirlar = okunan[0].split(b"\n")
    if len(satirlar) != 4 or satirlar[0] != _etiket(okunan[1:]):
        return None
    try:
        return json.loads(satirlar[1]), satirlar[2:]
    except ValueError:
        return None


def ozet_yaz(*, anahtarlar: list[str], okunan: list, veri: dict, yanitlar: tuple[bytes, bytes]) -> None:
    """Store the snapshot, tagged with the generations read before it was built: the facts a
    poll checks (`veri`) and the answer's body as rendered, without and with an operator online
    (compact JSON has no raw newline, so one line each)."""
    onbellek = _onbellek()
    if onbellek is None or len(anahtarlar) != 4 or len(okunan) != 4 or any(b"\n" in y for y in yanitlar):
        return
    deger = b"\n".join([_etiket(okunan[1:]), json.dumps(veri, ensure_ascii=False, separators=(",", ":")).encode(),
                        *yanitlar])
    try:
        _istemci(onbellek).set(anahtarlar[0], deger, ex=SURE)
    except Exception:  # a snapshot not written only costs the next poll its statement
        logger.warning("Yoklama özeti yazılamadı.", exc_info=True)


def degisti(*, oturum_idleri=(), musteri_idleri=(), genel: bool = False) -> None:
    """Snapshots these changes may have made wrong are not used again: the generations of these
    chats and tenants (and the global one) are renewed now and, inside a transaction, again
    after it commits. Never raises."""
    onbellek = _onbellek()
    if onbellek is None:
        return
    # Hash tags (Redis Cluster): a chat's keys share a slot, a tenant's generation is on the
    # tenant's (with its rate limit, read by one script in the pre-read).
    adlar = [f"s:{{o:{i}}}" for i in oturum_idleri if i] + [f"m:{tenant_etiketi(i)}" for i in musteri_idleri if i]
    if genel:
        adlar.append("genel")
    if not adlar:
        return
    anahtarlar = [_anahtar(onbellek, ad) for ad in adlar]
    simdi_ve_commit_sonrasi(lambda: _yenile(onbellek, anahtarlar))


def _yenile(onbellek: RedisCache, anahtarlar: list[str]) -> None:
    try:
        istemci = _istemci(onbellek)
        if len(anahtarlar) == 1:
            istemci.set(anahtarlar[0], secrets.randbits(62), ex=NESIL_SURE)
            return
        with istemci.pipeline(transaction=False) as boru:
            for anahtar in anahtarlar:
                boru.set(anahtar, secrets.randbits(62), ex=NESIL_SURE)
            boru.execute()
    except Exception:
        logger.warning("Yoklama özetleri geçersiz kılınamadı (en çok %s sn eski kalabilirler).", SURE, exc_info=True)
