"""Rate limits (CONTRACT 9): one atomic check per request, exact across processes.

A sliding-window counter: the count of the current fixed window plus the previous window's count
weighted by how much of it still lies inside the sliding window. On Redis the whole check (read
both windows, decide, count the request when it is allowed) is one Lua script, so it is one round
trip and concurrent requests cannot overwrite each other's counts; elsewhere (LocMemCache: `make
run`, tests without Redis) the cache's own atomic `add`/`incr` do the same in one process.
Refused requests are not counted, so a client that backs off as told gets in again on time.
Limits that count only some outcomes (failed logins) reserve a place in the same atomic step and
hand it back (`pencere_iade`) when the outcome turns out not to count, so 40 simultaneous wrong
passwords at 10/min get exactly 10 tries, not 40 (a check followed by a separate count would let
every concurrent request pass the check before any of them is counted).

Login limits (CONTRACT 9 and 18) must be exact, not the sliding counter's estimate: ten wrong
passwords spread over a window boundary would let an eleventh through within the minute (the
previous window's weight falls while its attempts are still inside the last 60 s). They keep a
sliding log instead (`kayit_ayir`): the time of every counted attempt, a few dozen at most per key,
so "N in the last T seconds" is a count, and the wait is when the oldest one leaves.

When Redis cannot be reached the limit fails open: the request goes through, the failure is
logged (at most once a minute) and counted (`acik_gecis_sayisi`, shown by `/saglik`), because a
dead cache must not take the public API down with it.

Rates are read from settings on each check so they can be tuned per test.
"""
import hashlib
import logging
import math
import threading
import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from .onbellek import tenant_etiketi

logger = logging.getLogger("supportdesk.limit")

# The limit's check, the one piece of Lua every script that limits runs (this module's, and the
# widget's pre-read, `tenants.on_okuma`): KEYS[1] and KEYS[2] are the current and the previous
# window; its inputs are the named locals `LIMIT_ARGV` (declared by `lua_argv`). Leaves `izin`
# (1/0), `cur` and `prev` for the script to return.
LIMIT_ARGV = ("sinir", "agirlik", "ttl", "say")
LIMIT_LUA = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local izin = 1
if prev * tonumber(agirlik) + cur >= tonumber(sinir) then
  izin = 0
elseif say == '1' then
  cur = redis.call('INCR', KEYS[1])
  if cur == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ttl)) end
end
"""


def lua_argv(adlar: tuple[str, ...]) -> str:
    """Lua declaring each of `adlar` as a local bound to its ARGV position: a script's inputs are
    named once, here, and built in the same order by `argv`."""
    return "".join(f"local {ad} = ARGV[{i}]\n" for i, ad in enumerate(adlar, 1))


def argv(adlar: tuple[str, ...], degerler: dict) -> list:
    """A script's ARGV from its named inputs (every name of `adlar`, nothing else)."""
    if degerler.keys() != set(adlar):
        raise ValueError(f"betik girdileri: {sorted(degerler)} != {sorted(adlar)}")
    return [degerler[ad] for ad in adlar]


_LUA = lua_argv(LIMIT_ARGV) + LIMIT_LUA + "return {izin, cur, prev}\n"
# KEYS: the window a reservation was counted in. Never below zero.
_IADE_LUA = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur > 0 then return redis.call('DECR', KEYS[1]) end
return 0
"""

# The sliding log (`kayit_ayir`). KEYS[1] a sorted set of attempts scored by time; ARGV: now,
# the period, the limit, this attempt's member, whether to record it. Returns {allowed, the score
# of the attempt whose leaving lets the next one in (when refused)}.
_KAYIT_LUA = """
local simdi, sure, sinir = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', simdi - sure)
local n = redis.call('ZCARD', KEYS[1])
if n >= sinir then
  local ilk = redis.call('ZRANGE', KEYS[1], n - sinir, n - sinir, 'WITHSCORES')
  return {0, ilk[2]}
end
if ARGV[5] == '1' then
  redis.call('ZADD', KEYS[1], simdi, ARGV[4])
  redis.call('EXPIRE', KEYS[1], math.ceil(sure) + 1)
end
return {1, '0'}
"""

_durum = {"acik_gecis": 0, "son_uyari": 0.0}
_kilit = threading.Lock()
_yerel_kilit = threading.Lock()  # LocMemCache: get-then-add/incr is one step within the process


def acik_gecis_sayisi() -> int:
    """Checks let through because the limiter's store was unreachable (since the process started)."""
    return _durum["acik_gecis"]


def oran_coz(oran: str | None) -> tuple[int, int] | None:
    """`"120/min"` -> (120, 60), in DRF's rate form; None means no limit."""
    if not oran:
        return None
    sayi, donem = oran.split("/")
    return int(sayi), {"s": 1, "m": 60, "h": 3600, "d": 86400}[donem[0]]


def _redis(cache):
    istemci = getattr(cache, "_limit_istemcisi", None)
    if istemci is None:
        istemci = cache._cache.get_client(write=True)
        cache._limit_betik = istemci.register_script(_LUA)
        cache._limit_iade_betigi = istemci.register_script(_IADE_LUA)
        cache._limit_kayit_betigi = istemci.register_script(_KAYIT_LUA)
        cache._limit_istemcisi = istemci
    return istemci


@dataclass(frozen=True)
class Pencere:
    """One check of `oran` under `anahtar` at one instant: its two windows (cache keys, before the
    cache's prefix) and what the verdict's waiting time is computed from."""

    anahtar: str
    guncel: str
    onceki: str
    agirlik: float  # the weight of the previous window still inside the sliding window
    kalan: float  # seconds until the current window ends
    sayi: int
    sure: int

    def argv(self, *, say: bool) -> dict:
        """The named inputs of `LIMIT_LUA`."""
        return {"sinir": self.sayi, "agirlik": repr(self.agirlik), "ttl": self.sure * 2, "say": "1" if say else "0"}

    def karar(self, izin, cur: int, prev: int) -> "LimitKarari":
        bekleme = 0.0 if izin else _bekleme(self.sayi, cur, prev, self.agirlik, self.kalan, self.sure)
        return LimitKarari(anahtar=self.anahtar, izin=bool(izin), bekleme=bekleme)


@dataclass(frozen=True)
class LimitKarari:
    """A limit's verdict: allowed, or how many seconds a refused client should wait."""

    anahtar: str
    izin: bool
    bekleme: float


def pencere(anahtar: str, oran: tuple[int, int] | None, simdi: float | None = None) -> Pencere:
    """The windows of a check of `oran` (None: no limit, a check that always allows) now."""
    sayi, sure = oran or (2**53, 1)
    simdi = time.time() if simdi is None else simdi
    no = int(simdi // sure)
    gecen = simdi - no * sure
    # Hash tag: both windows of one key land on the same Redis Cluster slot (the key's own tag
    # when it has one, `{t:<tenant>}`, else the whole key).
    etiket = anahtar if _etiketli(anahtar) else f"{{{anahtar}}}"
    return Pencere(anahtar=anahtar, guncel=f"{etiket}:{no}", onceki=f"{etiket}:{no - 1}",
                   agirlik=(sure - gecen) / sure, kalan=sure - gecen, sayi=sayi, sure=sure)


def _etiketli(anahtar: str) -> bool:
    """Whether `anahtar` carries a Redis Cluster hash tag of its own (a non-empty `{...}`, the
    first `{` and the first `}` after it, as Redis reads it)."""
    ac = anahtar.find("{")
    return ac >= 0 and anahtar.find("}", ac + 1) > ac + 1


def pencere_kontrol(anahtar: str, oran: tuple[int, int], *, say: bool = True) -> tuple[bool, float]:
    """Whether one more request under `anahtar` is within `oran`; counts it when allowed and `say`.

    Returns (allowed, seconds until a refused client may try again).
    """
    izin, bekleme, _ = pencere_ayir(anahtar, oran, say=say)
    return izin, bekleme


def pencere_ayir(anahtar: str, oran: tuple[int, int], *, say: bool = True) -> tuple[bool, float, str | None]:
    """`pencere_kontrol`, also returning the window the request was counted in (a receipt for
    `pencere_iade`; None when nothing was counted)."""
    p = pencere(anahtar, oran)
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCache):
            _redis(cache)
            izin, cur, prev = cache._limit_betik(
                keys=[cache.make_and_validate_key(p.guncel), cache.make_and_validate_key(p.onceki)],
                args=argv(LIMIT_ARGV, p.argv(say=say)),
            )
        else:
            with _yerel_kilit:
                cur, prev = cache.get(p.guncel, 0), cache.get(p.onceki, 0)
                izin = prev * p.agirlik + cur < p.sayi
                if izin and say:
                    if not cache.add(p.guncel, 1, p.sure * 2):
                        cur = cache.incr(p.guncel)
    except Exception:  # noqa: BLE001  (any store failure: fail open, CONTRACT 9 is not worth an outage)
        acik_gecis()
        return True, 0.0, None
    karar = p.karar(izin, cur, prev)
    return karar.izin, karar.bekleme, p.guncel if karar.izin and say else None


def pencere_iade(fis: str | None) -> None:
    """Hand back a place counted by `pencere_ayir` (its receipt `fis`): the request turned out
    not to be one the limit counts (a successful login). Atomic; never below zero."""
    if not fis:
        return
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCache):
            _redis(cache)
            cache._limit_iade_betigi(keys=[cache.make_and_validate_key(fis)])
        else:
            with _yerel_kilit:
                if cache.get(fis, 0) > 0:
                    cache.decr(fis)
    except Exception:  # noqa: BLE001
        acik_gecis()


def kayit_ayir(anahtar: str, oran: tuple[int, int] | None, *, say: bool = True) -> tuple[bool, float, str | None]:
    """An exact sliding-window check (the module's doc): whether fewer than `oran` attempts were
    counted under `anahtar` in the last period; if so (and `say`), this one is counted. Returns
    (allowed, seconds until a refused client may try again, a receipt for `kayit_iade`)."""
    if oran is None:
        return True, 0.0, None
    sayi, sure = oran
    anahtar = f"kayit:{{{anahtar}}}"
    simdi = time.time()
    uye = f"{simdi:.6f}:{uuid.uuid4().hex[:12]}"
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCache):
            _redis(cache)
            izin, ilk = cache._limit_kayit_betigi(keys=[cache.make_and_validate_key(anahtar)],
                                                  args=[repr(simdi), sure, sayi, uye, "1" if say else "0"])
            ilk = float(ilk)
        else:
            with _yerel_kilit:
                kayitlar = {u: t for u, t in cache.get(anahtar, {}).items() if t > simdi - sure}
                zamanlar = sorted(kayitlar.values())
                izin = len(zamanlar) < sayi
                ilk = 0.0 if izin else zamanlar[len(zamanlar) - sayi]
                if izin and say:
                    kayitlar[uye] = simdi
                    cache.set(anahtar, kayitlar, sure + 1)
    except Exception:  # noqa: BLE001  (as `pencere_ayir`: fail open)
        acik_gecis()
        return True, 0.0, None
    if not izin:
        return False, max(1.0, ilk + sure - simdi), None
    return True, 0.0, f"{anahtar}\n{uye}\n{sure}" if say else None


def kayit_iade(fis: str | None) -> None:
    """Hand back an attempt counted by `kayit_ayir` (its receipt): it turned out not to count."""
    if not fis:
        return
    anahtar, uye, sure = fis.split("\n", 2)
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCache):
            _redis(cache).zrem(cache.make_and_validate_key(anahtar), uye)
        else:
            with _yerel_kilit:
                zamanlar = cache.get(anahtar, {})
                if zamanlar.pop(uye, None) is not None:
                    cache.set(anahtar, zamanlar, int(sure) + 1)
    except Exception:  # noqa: BLE001
        acik_gecis()


def pencere_say(anahtar: str, oran: tuple[int, int]) -> None:
    """Count one event (a failed login) under `anahtar`, whatever the count is."""
    guncel, sure = pencere(anahtar, oran).guncel, oran[1]
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCache):
            istemci = _redis(cache)
            with istemci.pipeline(transaction=False) as boru:
                boru.incr(cache.make_and_validate_key(guncel))
                boru.expire(cache.make_and_validate_key(guncel), sure * 2)
                boru.execute()
        else:
            with _yerel_kilit:
                if not cache.add(guncel, 1, sure * 2):
                    cache.incr(guncel)
    except Exception:  # noqa: BLE001
        acik_gecis()


def _bekleme(sayi: int, cur: int, prev: int, agirlik: float, kalan: float, sure: int) -> float:
    # The previous window's weight falls linearly; the count drops below the limit once
    # prev * w + cur < sayi, or at the latest when this window ends and its count becomes `prev`.
    if prev and cur < sayi:
        hedef_agirlik = (sayi - cur) / prev
        return max(1.0, (agirlik - hedef_agirlik) * sure)
    return max(1.0, kalan)


def acik_gecis() -> None:
    with _kilit:
        _durum["acik_gecis"] += 1
        uyar = time.monotonic() - _durum["son_uyari"] > 60 or not _durum["son_uyari"]
        if uyar:
            _durum["son_uyari"] = time.monotonic()
    if uyar:
        logger.warning("Hız sınırı deposuna erişilemedi; sınır açık geçiyor.", exc_info=True)


def istemci_ip(request) -> str:
    """The caller's address as the rate limits see it (`NUM_PROXIES` trusted proxies)."""
    return BaseThrottle().get_ident(request)


class _PencereThrottle(BaseThrottle):
    """A DRF throttle over `pencere_kontrol`; `setting_name` names the rate's setting."""

    setting_name = ""
    get_ident = SimpleRateThrottle.get_ident

    def oran(self):
        return oran_coz(getattr(settings, self.setting_name))

    def anahtar(self, request, view) -> str:
        raise NotImplementedError

    def allow_request(self, request, view):
        oran = self.oran()
        if oran is None:
            return True
        anahtar = self.anahtar(request, view)
        # Decided already by this request's pre-read (`tenants.on_okuma`: its `limit`)?
        karar = getattr(getattr(request, "on_okuma", None), "limit", None)
        if karar is not None and karar.anahtar == anahtar:
            self._bekleme = karar.bekleme
            return karar.izin
        izin, self._bekleme = pencere_kontrol(anahtar, oran)
        return izin

    def wait(self):
        return math.ceil(getattr(self, "_bekleme", 0)) or None


class WidgetThrottle(_PencereThrottle):
    """Widget and context calls per API key and client IP."""

    setting_name = "WIDGET_RATE_LIMIT"

    def anahtar(self, request, view):
        return widget_limit_anahtari(request.auth.pk, self.get_ident(request))


def widget_limit_anahtari(musteri_id: int, ident: str) -> str:
    # The tenant's hash tag: its windows share the slot of the tenant's other keys (the widget's
    # pre-read runs one script over them on a Redis Cluster, tenants/on_okuma.py).
    return f"throttle:widget:{tenant_etiketi(musteri_id)}:{ident}"


class LoginThrottle(_PencereThrottle):
    """Login attempts per client IP and e-mail.

    Only failed attempts are counted, so an operator whose client logs in often is never locked
    out by its own successes: each attempt reserves a place atomically (`pencere_ayir`) and the
    view hands it back (`iade`) when the attempt was not a wrong password. Once the budget of
    failures is spent, every attempt for that IP and e-mail (the right password too) is refused
    until the window moves on.
    """

    setting_name = "LOGIN_RATE_LIMIT"

    def anahtar(self, request, view):
        email = request.data.get("email") if hasattr(request.data, "get") else None
        return giris_limit_anahtari(self.get_ident(request), email)

    def allow_request(self, request, view):
        self._fis = None
        oran = self.oran()
        if oran is None:
            return True
        izin, self._bekleme, self._fis = kayit_ayir(self.anahtar(request, view), oran)
        return izin

    def iade(self) -> None:
        """The attempt was not a failure (right password, malformed request): give its place back."""
        kayit_iade(getattr(self, "_fis", None))
        self._fis = None

    def basarisiz_kaydet(self) -> None:
        """Nothing left to do: `allow_request` counted the attempt already (kept for callers of the old API)."""


def adres_ozeti(email) -> str:
    """An e-mail address as a limit's key part: hashed (whatever a client types, spaces or NUL,
    never reaches a cache key as text), case-folded, so one inbox is one key."""
    email = email.strip().casefold() if isinstance(email, str) else ""
    return hashlib.sha256(email.encode("utf-8", "surrogatepass")).hexdigest()


def giris_limit_anahtari(ident: str, email) -> str:
    """The login limit's key, per client IP and e-mail (CONTRACT 9), shared by `/auth/login` and the
    portal's login form so that switching between them never doubles an attacker's budget. The
    e-mail is hashed: whatever a client types (spaces, NUL) never reaches the cache key as text."""
    return f"throttle:login:{ident}:{adres_ozeti(email)}"


class GirisAdresLimiti:
    """Failed logins per client address, whatever the accounts (`GIRIS_ADRES_LIMITI`, CONTRACT 18):
    slows spraying one password over many accounts. Over it, a wrong password is 429, but a right
    one still logs in (an office's typos must not lock its whole team out); the pair of account
    and address has its own lockout (django-axes). Ask `dolu()` before checking the password, and
    count with `basarisiz()` after a wrong one."""

    def __init__(self, request):
        self.anahtar = f"throttle:login-adres:{istemci_ip(request)}"
        self.oran = oran_coz(settings.GIRIS_ADRES_LIMITI)
        self.bekleme = 0.0

    def dolu(self) -> bool:
        izin, self.bekleme, _ = kayit_ayir(self.anahtar, self.oran, say=False)
        return not izin

    def basarisiz(self) -> None:
        kayit_ayir(self.anahtar, self.oran)

    def bekleme_saniye(self) -> int:
        return max(1, math.ceil(self.bekleme))
