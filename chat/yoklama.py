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

The visitor's message (issue 41, step 2) renews its chat's generation in its pre-read instead, in
the same script as its rate limit, *before* its write, and the value carries the Redis `TIME` it
was written at (`<ms>:<random>`). That renewal alone would let a poll that reads the new
generation and runs its statement before the message commits store a snapshot without it, so:

- a poll stores a snapshot only when the chat's generation is untimed or older than
  `YAZIM_PAYI` by the Redis `TIME` of its own pre-read (`ozet_yazilabilir`); polls within
  `YAZIM_PAYI` of a visitor's message take the statement (about one per message, as the first
  poll after any change already does);
- the writer measures its own time from before its pre-read to after its commit and renews after
  the commit as any write does only when it reached `YAZIM_PAYI` (a write stuck behind a lock):
  a snapshot stored under its timed generation was read after `YAZIM_PAYI` had passed, so after
  the commit of a writer that took less;
- every other renewal keeps the time of a timed generation younger than `YAZIM_PAYI` (`_yenile`'s
  script), so a write of another kind between a visitor's pre-read and its commit does not hide it.

On a Redis Cluster the chat's key is not on the limit's slot and the nodes' clocks differ: there the
message renews after its commit as before.
"""
import contextlib
import json
import logging
import random
import secrets
import time
from contextvars import ContextVar

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction

from supportdesk.core.onbellek import simdi_ve_commit_sonrasi, tenant_etiketi

logger = logging.getLogger("supportdesk.chat")

SURE = 30  # seconds a snapshot lives: a bound on staleness only when a renewal was lost
NESIL_SURE = 86400
YAZIM_PAYI = 1.0  # s: see the module's text (a visitor's pre-read to its commit)

# The chat whose generation this request's pre-read renewed, and time.monotonic() before it.
_ONCEDEN: ContextVar[tuple[int, float] | None] = ContextVar("yoklama_onceden", default=None)

# Every renewal but the visitor's pre-read: a timed generation younger than YAZIM_PAYI keeps its time.
# ARGV: the margin in ms, the lifetime in s, then one random value per key.
_YENILE_LUA = """
local z = redis.call('TIME')
local ms = tonumber(z[1]) * 1000 + math.floor(tonumber(z[2]) / 1000)
for i = 1, #KEYS do
  local deger = ARGV[i + 2]
  local eski = redis.call('GET', KEYS[i])
  if eski then
    local t = tonumber(string.match(eski, '^(%d+):'))
    if t and ms - t < tonumber(ARGV[1]) then deger = string.format('%.0f', t) .. ':' .. deger end
  end
  redis.call('SET', KEYS[i], deger, 'EX', tonumber(ARGV[2]))
end
return 1
"""


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


def nesil_yenilenecek(*, oturum_id, musteri_id: int) -> tuple[str, int, int] | None:
    """For the visitor message's pre-read (`tenants.on_okuma`, `yenilenecek`): the chat's
    generation key, the chat, a new random value. None without Redis or PostgreSQL."""
    if type(oturum_id) is not int or oturum_id < 1:
        return None
    onbellek = _onbellek()
    if onbellek is None or connection.vendor != "postgresql" or getattr(onbellek, "kume", False):
        return None
    # Not secret, only new: the process's own generator (reseeded at fork), no system call per message.
    return _anahtar(onbellek, f"s:{{o:{oturum_id}}}"), oturum_id, random.getrandbits(62)


@contextlib.contextmanager
def onceden_yenilendi(oturum_id: int | None, basi: float):
    """While the visitor's message is written: its pre-read renewed chat `oturum_id`'s generation,
    and started at `basi` (time.monotonic())."""
    jeton = _ONCEDEN.set((oturum_id, basi) if oturum_id else None)
    try:
        yield
    finally:
        _ONCEDEN.reset(jeton)


def ozet_yazilabilir(okunan: list, zaman_ms: int | None) -> bool:
    """Whether a poll that read `okunan` (`okunacaklar`' values) with its pre-read at Redis TIME
    `zaman_ms` may store its snapshot: the chat's generation untimed, or older than YAZIM_PAYI."""
    nesil = okunan[1] if len(okunan) > 1 else None
    if not isinstance(nesil, bytes) or b":" not in nesil:
        return True
    if zaman_ms is None:
        return False
    try:
        return zaman_ms - int(nesil.split(b":", 1)[0]) >= YAZIM_PAYI * 1000
    except (TypeError, ValueError):
        return False


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


def ozet_yaz(*, anahtarlar: list[str], okunan: list, veri: dict, yanitlar: tuple[bytes, bytes],
             zaman_ms: int | None = None) -> None:
    """Store the snapshot, tagged with the generations read before it was built: the facts a
    poll checks (`veri`) and the answer's body as rendered, without and with an operator online
    (compact JSON has no raw newline, so one line each). Not when a visitor's message may still be
    committing (`ozet_yazilabilir`)."""
    onbellek = _onbellek()
    if onbellek is None or len(anahtarlar) != 4 or len(okunan) != 4 or any(b"\n" in y for y in yanitlar):
        return
    if not ozet_yazilabilir(okunan, zaman_ms):
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
    onceden = _ONCEDEN.get()
    if onceden is not None and not musteri_idleri and not genel and list(oturum_idleri) == [onceden[0]]:
        # The visitor's message: its pre-read renewed this generation before the write (the "now");
        # after the commit only when the write took YAZIM_PAYI or more since (the module's text).
        basi = onceden[1]

        def gec_kaldiysa():
            if time.monotonic() - basi >= YAZIM_PAYI:
                _yenile(onbellek, anahtarlar)

        if connection.in_atomic_block:
            transaction.on_commit(gec_kaldiysa)
        else:
            gec_kaldiysa()
        return
    simdi_ve_commit_sonrasi(lambda: _yenile(onbellek, anahtarlar))


def _yenile(onbellek: RedisCache, anahtarlar: list[str]) -> None:
    try:
        istemci = _istemci(onbellek)
        if not getattr(onbellek, "kume", False):  # one script, one round trip (no timed value on a cluster)
            betik = getattr(onbellek, "_yoklama_yenile_betigi", None)
            if betik is None:
                betik = istemci.register_script(_YENILE_LUA)
                setattr(onbellek, "_yoklama_yenile_betigi", betik)  # noqa: B010  (one per process)
            betik(keys=anahtarlar, args=[int(YAZIM_PAYI * 1000), NESIL_SURE,
                                         *(secrets.randbits(62) for _ in anahtarlar)])
            return
        if len(anahtarlar) == 1:
            istemci.set(anahtarlar[0], secrets.randbits(62), ex=NESIL_SURE)
            return
        with istemci.pipeline(transaction=False) as boru:
            for anahtar in anahtarlar:
                boru.set(anahtar, secrets.randbits(62), ex=NESIL_SURE)
            boru.execute()
    except Exception:
        logger.warning("Yoklama özetleri geçersiz kılınamadı (en çok %s sn eski kalabilirler).", SURE, exc_info=True)
