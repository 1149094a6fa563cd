"""Counting semaphores shared by every process, on Redis, with expiry.

`semafor_al(anahtar, sinir, sure)` takes one of `sinir` places under `anahtar` for at most `sure`
seconds and returns its token, or None when all places are taken; `semafor_birak` gives it back.
A place whose holder died (a killed worker) frees itself when its time runs out. One Lua script
per call (remove expired places, count, add), timed by Redis's own clock, so it is exact across
processes and hosts.

Without Redis (LocMemCache: development, tests without REDIS_URL) or when Redis cannot be reached,
it fails open: the caller gets `ACIK` and relies on its own in-process limits.
"""
import logging
import uuid

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger("supportdesk.semafor")

ACIK = "acik"  # no shared semaphore available: the caller's local limits apply

# KEYS: the semaphore. ARGV: places, lifetime in ms, token.
_AL = """
local t = redis.call('TIME')
local simdi = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', simdi)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], simdi + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
"""


def _betik(cache):
    betik = getattr(cache, "_semafor_betigi", None)
    if betik is None:
        istemci = cache._cache.get_client(write=True)
        betik = cache._semafor_betigi = istemci.register_script(_AL)
        cache._semafor_istemcisi = istemci
    return betik


def semafor_al(anahtar: str, sinir: int, sure: float) -> str | None:
    """A token for one of `sinir` places, None when they are all taken, `ACIK` without Redis."""
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return ACIK
    jeton = uuid.uuid4().hex
    try:
        alindi = _betik(cache)(keys=[cache.make_and_validate_key(anahtar)],
                               args=[sinir, max(1, int(sure * 1000)), jeton])
    except Exception:  # (a dead Redis must not stop the caller)
        logger.warning("Semafor deposuna erişilemedi; yalnızca yerel sınır geçerli.", exc_info=True)
        return ACIK
    return jeton if alindi else None


def semafor_birak(anahtar: str, jeton: str | None) -> None:
    if not jeton or jeton == ACIK:
        return
    cache = caches["default"]
    try:
        _betik(cache)
        cache._semafor_istemcisi.zrem(cache.make_and_validate_key(anahtar), jeton)
    except Exception:  # (it expires by itself)
        logger.warning("Semafor yeri bırakılamadı; süresi dolunca kendiliğinden açılacak.", exc_info=True)
