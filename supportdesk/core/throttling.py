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
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

logger = logging.getLogger("supportdesk.limit")

# KEYS: current window, previous window, then ARGV[5] keys to GET and ARGV[6] sorted sets to read
# from score ARGV[7] up (other modules' reads on the same request: one round trip for all).
# ARGV: limit, weight of the previous window, ttl, count it?, #GETs, #sets, lowest score ("(x":
# above x), then optionally which GET, the value it is expected to have, and members: when that
# GET has it, only those members are looked up in the sets (ZMSCORE), not the whole sets read.
_LUA = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local izin = 1
if prev * tonumber(ARGV[2]) + cur >= tonumber(ARGV[1]) then
  izin = 0
elseif ARGV[4] == '1' then
  cur = redis.call('INCR', KEYS[1])
  if cur == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3])) end
end
local n = tonumber(ARGV[5] or '0')
local okunan = {}
for i = 1, n do okunan[i] = redis.call('GET', KEYS[2 + i]) end
local kumeler = {}
local daralt = ARGV[9] ~= nil and okunan[tonumber(ARGV[8])] == ARGV[9]
local alt = tonumber((string.gsub(ARGV[7] or '', '^%(', '')))
for j = 1, tonumber(ARGV[6] or '0') do
  if daralt and alt then
    local canli = {}
    if #ARGV > 9 then
      local skorlar = redis.call('ZMSCORE', KEYS[2 + n + j], unpack(ARGV, 10))
      for i = 1, #skorlar do
        if skorlar[i] and tonumber(skorlar[i]) > alt then canli[#canli + 1] = ARGV[9 + i] end
      end
    end
    kumeler[j] = canli
  else
    kumeler[j] = redis.call('ZRANGEBYSCORE', KEYS[2 + n + j], ARGV[7], '+inf')
  end
end
return {izin, cur, prev, okunan, kumeler, (daralt and alt) and 1 or 0}
"""
# KEYS: the window a reservation was counted in. Never below zero.
_IADE_LUA = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur > 0 then return redis.call('DECR', KEYS[1]) end
return 0
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
        cache._limit_istemcisi = istemci
    return istemci


def _pencereler(anahtar: str, sure: int, simdi: float) -> tuple[str, str, float, float]:
    no = int(simdi // sure)
    gecen = simdi - no * sure
    # Hash tag: both windows of one key land on the same Redis Cluster slot.
    return f"{{{anahtar}}}:{no}", f"{{{anahtar}}}:{no - 1}", (sure - gecen) / sure, sure - gecen


def pencere_kontrol(anahtar: str, oran: tuple[int, int], *, say: bool = True) -> tuple[bool, float]:
    """Whether one more request under `anahtar` is within `oran`; counts it when allowed and `say`.

    Returns (allowed, seconds until a refused client may try again).
    """
    izin, bekleme, _ = pencere_ayir(anahtar, oran, say=say)
    return izin, bekleme


def pencere_ayir(anahtar: str, oran: tuple[int, int], *, say: bool = True) -> tuple[bool, float, str | None]:
    """`pencere_kontrol`, also returning the window the request was counted in (a receipt for
    `pencere_iade`; None when nothing was counted)."""
    sayi, sure = oran
    simdi = time.time()
    guncel, onceki, agirlik, kalan = _pencereler(anahtar, sure, simdi)
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCache):
            _redis(cache)
            izin, cur, prev, *_ = cache._limit_betik(
                keys=[cache.make_and_validate_key(guncel), cache.make_and_validate_key(onceki)],
                args=[sayi, repr(agirlik), sure * 2, "1" if say else "0", 0, 0, ""],
            )
        else:
            with _yerel_kilit:
                cur, prev = cache.get(guncel, 0), cache.get(onceki, 0)
                izin = prev * agirlik + cur < sayi
                if izin and say:
                    if not cache.add(guncel, 1, sure * 2):
                        cur = cache.incr(guncel)
    except Exception:  # noqa: BLE001  (any store failure: fail open, CONTRACT 9 is not worth an outage)
        _acik_gecis()
        return True, 0.0, None
    if izin:
        return True, 0.0, guncel if say else None
    return False, _bekleme(sayi, cur, prev, agirlik, kalan, sure), None


@dataclass
class OnOkuma:
    """`pencere_oku`'s answer: the limit's verdict for `anahtar`, and the other reads."""

    anahtar: str
    izin: bool
    bekleme: float
    degerler: list  # GET of each key asked (bytes or None)
    kumeler: list[list[bytes]]  # members of each sorted set asked, from the lowest score up
    daraltildi: bool = False  # the sets were read for the members `adaylar` named only
    uyelik_nesli: object = None  # set by tenants.kimlik.widget_on_okuma (the membership generation read)


def pencere_oku(anahtar: str, oran: tuple[int, int] | None, *, degerler=(), kumeler=(),
                en_dusuk: str = "-inf", adaylar: tuple[int, str, list[int]] | None = None) -> OnOkuma | None:
    """`pencere_kontrol` (the request counted when allowed) and, in the same Redis round trip,
    GETs of `degerler` and the members of the sorted sets `kumeler` scored above `en_dusuk`
    (`"(<score>"`; raw Redis keys, not cache keys). None when the cache is not Redis or cannot be
    reached (the limit then fails open as usual, and callers read what they need their own way).

    `adaylar` = (i, value, members): when `degerler[i]` reads `value`, the sets are read for these
    members only (`daraltildi`), so the cost follows their number, not the sets' size."""
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return None
    sayi, sure = oran or (2**53, 1)
    guncel, onceki, agirlik, kalan = _pencereler(anahtar, sure, time.time())
    try:
        _redis(cache)
        izin, cur, prev, okunan, kume, daraltildi = cache._limit_betik(
            keys=[cache.make_key(guncel), cache.make_key(onceki), *degerler, *kumeler],  # hot path: no memcached key checks
            args=[sayi, repr(agirlik), sure * 2, "1" if oran else "0", len(degerler), len(kumeler), en_dusuk,
                  *((adaylar[0] + 1, adaylar[1], *adaylar[2]) if adaylar else ())],
        )
    except Exception:  # noqa: BLE001
        _acik_gecis()
        return None
    bekleme = 0.0 if izin else _bekleme(sayi, cur, prev, agirlik, kalan, sure)
    return OnOkuma(anahtar=anahtar, izin=bool(izin), bekleme=bekleme, degerler=list(okunan), kumeler=list(kume),
                   daraltildi=bool(daraltildi))


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
        _acik_gecis()


def pencere_say(anahtar: str, oran: tuple[int, int]) -> None:
    """Count one event (a failed login) under `anahtar`, whatever the count is."""
    sayi, sure = oran
    guncel, *_ = _pencereler(anahtar, sure, time.time())
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
        _acik_gecis()


def _bekleme(sayi: int, cur: int, prev: int, agirlik: float, kalan: float, sure: int) -> float:
    # The previous window's weight falls linearly; the count drops below the limit once
    # prev * w + cur < sayi, or at the latest when this window ends and its count becomes `prev`.
    if prev and cur < sayi:
        hedef_agirlik = (sayi - cur) / prev
        return max(1.0, (agirlik - hedef_agirlik) * sure)
    return max(1.0, kalan)


def _acik_gecis() -> None:
    with _kilit:
        _durum["acik_gecis"] += 1
        uyar = time.monotonic() - _durum["son_uyari"] > 60 or not _durum["son_uyari"]
        if uyar:
            _durum["son_uyari"] = time.monotonic()
    if uyar:
        logger.warning("Hız sınırı deposuna erişilemedi; sınır açık geçiyor.", exc_info=True)


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
        # Checked already in this request's first round trip (tenants.kimlik.widget_on_okuma)?
        on = getattr(request, "on_okuma", None)
        if on is not None and on.anahtar == anahtar:
            self._bekleme = on.bekleme
            return on.izin
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
    return f"throttle:widget:{musteri_id}:{ident}"


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
        izin, self._bekleme, self._fis = pencere_ayir(self.anahtar(request, view), oran)
        return izin

    def iade(self) -> None:
        """The attempt was not a failure (right password, malformed request): give its place back."""
        pencere_iade(getattr(self, "_fis", None))
        self._fis = None

    def basarisiz_kaydet(self) -> None:
        """Nothing left to do: `allow_request` counted the attempt already (kept for callers of the old API)."""


def giris_limit_anahtari(ident: str, email) -> str:
    """The login limit's key, per client IP and e-mail (CONTRACT 9), shared by `/auth/login` and the
    portal's login form so that switching between them never doubles an attacker's budget. The
    e-mail is hashed: whatever a client types (spaces, NUL) never reaches the cache key as text."""
    email = email.strip().lower() if isinstance(email, str) else ""
    return f"throttle:login:{ident}:{hashlib.sha256(email.encode('utf-8', 'surrogatepass')).hexdigest()}"
