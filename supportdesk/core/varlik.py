"""Presence (CONTRACT 11): whether an operator is reachable, shared by every process, with expiry.

An operator is reachable while it holds an open operator socket or made an authenticated REST
call within `CANLI_REST_PENCERESI` seconds. Nothing here needs a process to say goodbye: each open
socket is a member of a sorted set scored with the time it is live until, which its process pushes
forward every `CANLI_SOKET_TTL / 3` seconds; a killed process stops pushing and its sockets lapse
on their own after at most `CANLI_SOKET_TTL` seconds.

Keys (Redis, when the default cache is Redis; otherwise the same structure in this process's
memory, with the same expiry, for `make run`):
- `{varlik}:soket:<kullanici_id>`: socket id -> live until (a cleanly closed socket: its close time).
- `{varlik}:soketli`: kullanici_id -> the latest of its sockets' scores.
- `{varlik}:rest`: kullanici_id -> last REST call + CANLI_REST_PENCERESI.
- `{varlik}:soketler:operator`, `{varlik}:soketler:ziyaretci`: every socket id of that kind -> live
  until, for the open-socket gauge of `/metrics` (`acik_soket_sayilari`: one round trip).
All under one hash tag, `{varlik}`: on a Redis Cluster they share one slot (the socket script
touches three of them at once).

When the store cannot be reached, reads answer "unknown" (None) and callers fall back to the
stored status; nobody is swept offline because Redis is down.
"""
import hashlib
import logging
import threading
import time
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from .onbellek import betik_boruya, boru_hatasi

logger = logging.getLogger("supportdesk.varlik")

# One hash tag for all of presence (Redis Cluster): the socket script writes a socket's own set and
# the shared sets in one step, so they share a slot. An operator serves several tenants: its
# presence is not a tenant's key.
SOKETLI = "{varlik}:soketli"
REST = "{varlik}:rest"
TUM_SOKETLER = {"operator": "{varlik}:soketler:operator", "ziyaretci": "{varlik}:soketler:ziyaretci"}


def soket_kumesi(anahtar) -> str:
    return f"{{varlik}}:soket:{anahtar}"

# KEYS: a socket set, SOKETLI, the set of all sockets of its kind. ARGV: socket id, its score, user
# id ('' for a visitor's set: no SOKETLI), key ttl, now, the most live sockets allowed (0: no
# check). Returns 0 when over it. Sockets of the kind's set lapsed longer than the key ttl ago
# (closed, or of a killed process) are dropped as it goes.
_LUA_SOKET = """
if tonumber(ARGV[6]) > 0 and redis.call('ZSCORE', KEYS[1], ARGV[1]) == false then
  if redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[5], '+inf') >= tonumber(ARGV[6]) then return 0 end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. (tonumber(ARGV[5]) - tonumber(ARGV[4])))
redis.call('EXPIRE', KEYS[3], ARGV[4])
if ARGV[3] ~= '' then
  local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  redis.call('ZADD', KEYS[2], top[2], ARGV[3])
end
return 1
"""


def _ayar(ad: str, varsayilan: float) -> float:
    return float(getattr(settings, ad, varsayilan))


def soket_ttl() -> float:
    return _ayar("CANLI_SOKET_TTL", 30)


def kapanis_penceresi() -> float:
    return _ayar("CANLI_KAPANIS_PENCERESI", 60)


def rest_penceresi() -> float:
    return _ayar("CANLI_REST_PENCERESI", 90)


def kopma_penceresi() -> float:
    return _ayar("CANLI_KOPMA_PENCERESI", 5)


class _Bellek:
    """The in-process store of `make run` (one process holds every socket there)."""

    def __init__(self):
        self.kilit = threading.Lock()
        self.soketler: dict[int, dict[str, float]] = {}
        self.rest: dict[int, float] = {}

    def soket_yaz(self, anahtar, soket_id: str, skor: float, simdi: float, sinir: int) -> bool:
        with self.kilit:
            kume = self.soketler.setdefault(anahtar, {})
            if sinir and soket_id not in kume and sum(1 for v in kume.values() if v > simdi) >= sinir:
                return False
            kume[soket_id] = skor
            return True

    def rest_yaz(self, kullanici_id: int, skor: float) -> None:
        with self.kilit:
            self.rest[kullanici_id] = max(skor, self.rest.get(kullanici_id, 0))

    def rest_kes(self, kullanici_id: int, skor: float) -> None:
        with self.kilit:
            if kullanici_id in self.rest:
                self.rest[kullanici_id] = min(skor, self.rest[kullanici_id])

    def acik_soketler(self, simdi: float) -> dict[str, int]:
        with self.kilit:
            sayilar = {"operator": 0, "ziyaretci": 0}
            for k, kume in self.soketler.items():
                sayilar["operator" if isinstance(k, int) else "ziyaretci"] += sum(1 for v in kume.values() if v > simdi)
            return sayilar

    def skorlar(self, kullanici_idleri) -> dict[int, tuple[float | None, float | None]]:
        with self.kilit:
            return {
                k: (max(self.soketler[k].values()) if self.soketler.get(k) else None, self.rest.get(k))
                for k in kullanici_idleri
            }

    def ulasilabilir(self, simdi: float) -> set[int]:
        with self.kilit:
            sonuc = {k for k, v in self.rest.items() if v > simdi}
            sonuc |= {k for k, s in self.soketler.items()
                      if isinstance(k, int) and s and max(s.values()) > simdi}
            return sonuc

    def temizle(self, sinir: float) -> None:
        with self.kilit:
            for k in list(self.soketler):
                self.soketler[k] = {s: v for s, v in self.soketler[k].items() if v > sinir}
                if not self.soketler[k]:
                    del self.soketler[k]
            self.rest = {k: v for k, v in self.rest.items() if v > sinir}


_bellek = _Bellek()
_rest_son_yazim: dict[int, float] = {}


def _redis():
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return None
    istemci = getattr(cache, "_varlik_istemcisi", None)
    if istemci is None:
        istemci = cache._cache.get_client(write=True)
        cache._varlik_betik = istemci.register_script(_LUA_SOKET)
        cache._varlik_istemcisi = istemci
    return istemci


def _soket_yaz(anahtar, soket_id: str, skor: float, *, sinir: int = 0) -> bool:
    """`anahtar`: an operator's id (its sockets are presence) or a visitor's key (counted only)."""
    simdi = time.time()
    istemci = _redis()
    if istemci is None:
        return _bellek.soket_yaz(anahtar, soket_id, skor, simdi, sinir)
    anahtar_ttl = int(soket_ttl() + kapanis_penceresi() + 60)
    operator_mu = isinstance(anahtar, int)
    return bool(caches["default"]._varlik_betik(
        keys=[soket_kumesi(anahtar), SOKETLI, TUM_SOKETLER["operator" if operator_mu else "ziyaretci"]],
        args=[soket_id, repr(skor), anahtar if operator_mu else "", anahtar_ttl, repr(simdi), sinir],
    ))


def soket_ac(*, anahtar, soket_id: str, sinir: int) -> bool:
    """Count a new socket under `anahtar` (an operator's id, or `ziyaretci_anahtari(...)`) unless
    `sinir` sockets of it are open already, in any process. Returns whether it was counted. A
    store that cannot be reached lets the socket in (fail open, as the rate limits do)."""
    try:
        return _soket_yaz(anahtar, soket_id, time.time() + soket_ttl(), sinir=sinir)
    except Exception:
        logger.warning("Varlık deposuna yazılamadı.", exc_info=True)
        return True


def soket_yenile(*, anahtar, soket_id: str) -> None:
    """An open socket is alive for another CANLI_SOKET_TTL seconds (call every TTL / 3)."""
    try:
        _soket_yaz(anahtar, soket_id, time.time() + soket_ttl())
    except Exception:
        logger.warning("Varlık deposuna yazılamadı.", exc_info=True)


def soketleri_yenile(soketler: list[tuple]) -> None:
    """`soket_yenile` for many sockets at once, `[(anahtar, soket_id), ...]`: one Redis round trip
    (a pipeline of the same script) for all of a socket process's sockets."""
    if not soketler:
        return
    try:
        istemci = _redis()
        simdi = time.time()
        skor = simdi + soket_ttl()
        if istemci is None:
            for anahtar, soket_id in soketler:
                _bellek.soket_yaz(anahtar, soket_id, skor, simdi, 0)
            return
        anahtar_ttl = int(soket_ttl() + kapanis_penceresi() + 60)
        betik = caches["default"]._varlik_betik
        with istemci.pipeline(transaction=False) as boru:
            for anahtar, soket_id in soketler:
                operator_mu = isinstance(anahtar, int)
                betik_boruya(boru, betik,
                             keys=[soket_kumesi(anahtar), SOKETLI, TUM_SOKETLER["operator" if operator_mu else "ziyaretci"]],
                             args=[soket_id, repr(skor), anahtar if operator_mu else "", anahtar_ttl, repr(simdi), 0])
            try:
                boru.execute()
            except Exception as e:
                boru_hatasi(istemci, e)
                raise
    except Exception:
        logger.warning("Varlık deposuna yazılamadı.", exc_info=True)


def soket_kapandi(*, anahtar, soket_id: str, koptu: bool = False) -> None:
    """A socket closed now: the closing window (CANLI_KAPANIS_PENCERESI) counts from here.

    `koptu` (issue 39): the connection ended without a closing handshake (the client's process was
    killed, or its network went silent and the server's ping went unanswered). A console that is
    only reloading closes cleanly and keeps the whole window; one that vanished is given only
    CANLI_KOPMA_PENCERESI (to come back after a blip), and the REST window its calls earned is
    cut too (they came from the same console), so presence ends within seconds, not 60-90 s."""
    simdi = time.time()
    try:
        if not koptu:
            _soket_yaz(anahtar, soket_id, simdi)
            return
        # Scored as if it had closed cleanly long enough ago that only the short window is left.
        _soket_yaz(anahtar, soket_id, simdi - max(0.0, kapanis_penceresi() - kopma_penceresi()))
        if isinstance(anahtar, int):
            _rest_son_yazim.pop(anahtar, None)  # its next call (another device, a reconnect) counts at once
            istemci = _redis()
            if istemci is None:
                _bellek.rest_kes(anahtar, simdi + kopma_penceresi())
            else:
                istemci.zadd(REST, {anahtar: simdi + kopma_penceresi()}, xx=True, lt=True)
    except Exception:
        logger.warning("Varlık deposuna yazılamadı.", exc_info=True)


def acik_soket_sayilari() -> dict[str, int]:
    """Open sockets of every process, by kind (`operator`, `ziyaretci`): those refreshed within
    CANLI_SOKET_TTL and not closed. A killed process's sockets drop out on their own."""
    simdi = time.time()
    istemci = _redis()
    if istemci is None:
        return _bellek.acik_soketler(simdi)
    with istemci.pipeline(transaction=False) as boru:
        for anahtar in TUM_SOKETLER.values():
            boru.zcount(anahtar, f"({simdi!r}", "+inf")
        return dict(zip(TUM_SOKETLER, boru.execute(), strict=True))


def ziyaretci_anahtari(musteri_id: int, ziyaretci_id: str) -> str:
    return f"z:{musteri_id}:{hashlib.sha256(ziyaretci_id.encode()).hexdigest()[:32]}"


def ziyaretci_soketi_acik(*, musteri_id: int, ziyaretci_id: str) -> bool | None:
    """Whether the visitor holds an open widget socket now, in any process (one refreshed within
    CANLI_SOKET_TTL and not closed); None when the store cannot be read."""
    anahtar = ziyaretci_anahtari(musteri_id, ziyaretci_id)
    simdi = time.time()
    try:
        istemci = _redis()
        if istemci is None:
            with _bellek.kilit:
                return any(v > simdi for v in _bellek.soketler.get(anahtar, {}).values())
        return istemci.zcount(soket_kumesi(anahtar), f"({simdi!r}", "+inf") > 0
    except Exception:
        logger.warning("Varlık deposu okunamadı.", exc_info=True)
        return None


def sifirla() -> None:
    """Forget this process's in-memory presence (tests)."""
    global _bellek
    _bellek = _Bellek()
    _rest_son_yazim.clear()


def rest_cagrisi(*, kullanici_id: int) -> None:
    """An authenticated REST call: reachable for CANLI_REST_PENCERESI seconds. Written at most
    once a second per user and process, so a busy client costs no round trip per request."""
    simdi = time.time()
    if simdi - _rest_son_yazim.get(kullanici_id, 0) < 1:
        return
    _rest_son_yazim[kullanici_id] = simdi
    skor = simdi + rest_penceresi()
    try:
        istemci = _redis()
        if istemci is None:
            _bellek.rest_yaz(kullanici_id, skor)
        else:
            istemci.zadd(REST, {kullanici_id: skor}, gt=True)
    except Exception:
        logger.warning("Varlık deposuna yazılamadı.", exc_info=True)


_istek_okumasi: ContextVar[set[int] | None] = ContextVar("varlik_istek_okumasi", default=None)


def ulasilabilir_kumeleri() -> tuple[list[str], str] | None:
    """The sorted sets `ulasilabilir_idler` reads and the lowest live score, for a caller that
    batches the read into a round trip of its own (`istek_okumasi_ayarla`); None without Redis."""
    if _redis() is None:
        return None
    return [SOKETLI, REST], f"({time.time()!r}"


def istek_okumasi_ayarla(ids: set[int] | None):
    """This request's read of the sets of `ulasilabilir_kumeleri` (made in its pre-read,
    `tenants.on_okuma`): `ulasilabilir_idler` answers from it until `istek_okumasi_bitir(token)`.
    A widget request may have read them for its tenant's members only: within it, ask about
    those alone."""
    return _istek_okumasi.set(ids)


def istek_okumasi_bitir(token) -> None:
    _istek_okumasi.reset(token)


def ulasilabilir_idler() -> set[int] | None:
    """Every reachable operator's id; None when the store cannot be read (callers then trust the
    stored status alone)."""
    okunmus = _istek_okumasi.get()
    if okunmus is not None:
        return okunmus
    simdi = time.time()
    try:
        istemci = _redis()
        if istemci is None:
            return _bellek.ulasilabilir(simdi)
        with istemci.pipeline(transaction=False) as boru:
            boru.zrangebyscore(SOKETLI, f"({simdi!r}", "+inf")
            boru.zrangebyscore(REST, f"({simdi!r}", "+inf")
            soketli, rest = boru.execute()
    except Exception:
        logger.warning("Varlık deposu okunamadı; kayıtlı durum kullanılıyor.", exc_info=True)
        return None
    return {int(k) for k in (*soketli, *rest)}


def erisilemeyenler(kullanici_idleri) -> set[int]:
    """Of these operators, those to be made `cevrimdisi`: no open socket and none closed within
    CANLI_KAPANIS_PENCERESI, and no REST call within CANLI_REST_PENCERESI. Empty when the store
    cannot be read."""
    kullanici_idleri = list(kullanici_idleri)
    if not kullanici_idleri:
        return set()
    simdi = time.time()
    try:
        istemci = _redis()
        if istemci is None:
            skorlar = _bellek.skorlar(kullanici_idleri)
            _bellek.temizle(simdi - soket_ttl() - kapanis_penceresi() - 3600)
        else:
            with istemci.pipeline(transaction=False) as boru:
                for k in kullanici_idleri:
                    boru.zscore(SOKETLI, k)
                    boru.zscore(REST, k)
                sinir = simdi - kapanis_penceresi() - 3600
                boru.zremrangebyscore(SOKETLI, "-inf", sinir)
                boru.zremrangebyscore(REST, "-inf", sinir)
                sonuc = boru.execute()
            skorlar = {k: (sonuc[2 * i], sonuc[2 * i + 1]) for i, k in enumerate(kullanici_idleri)}
    except Exception:
        logger.warning("Varlık deposu okunamadı; kimse çevrimdışı yapılmadı.", exc_info=True)
        return set()
    return {
        k for k, (soket, rest) in skorlar.items()
        if (soket is None or soket + kapanis_penceresi() <= simdi) and (rest is None or rest <= simdi)
    }
