"""The widget request's pre-read (issues 12 and 25): everything a widget request reads from Redis
before it is handled, in one round trip, as one component with named fields.

A widget view declares what it needs besides the limit and the tenant cache's generation (which
every widget request reads) with `OnOkumaIhtiyaci` (`WidgetAPIView.on_okuma`); `on_oku` runs one
Lua script and leaves on the request an `OnOkuma`:

- `limit`: the rate limit's verdict for this key and client IP (`throttling.LimitKarari`), the
  request counted when allowed, as `WidgetThrottle` would count it; the throttle then uses it
  instead of asking Redis (it only limits: it knows nothing of the other reads);
- `musteri_nesli`: the tenant cache's generation (`tenants.musteri_onbellegi.NESIL`), for the
  authentication's look-up of the key (`kimlik.widget_musterisi`);
- `uyelik_nesli`, `varlik`, `daraltildi`: with `varlik=True`, who is reachable now
  (`supportdesk.core.varlik`), read for the tenant's members only (`daraltildi`) when this process
  holds their ids under the membership generation read in the same script
  (`tenants.musteri_onbellegi.adaylar`), so the cost follows the tenant's team, not the platform's;
- `yoklama_ozeti`: with `yoklama_ozeti=<keys of the request>`, the values of those keys (the
  idle poll's snapshot and its generations, `chat.yoklama.okunacaklar`), in their order;
- the tenant's rules generation (issue 42, `supportdesk.core.kurallar.nesil_anahtari`), for a
  tenant this process holds with `kurallar_var`: left for the request
  (`kurallar.istek_nesli_ayarla`, until `bitir(request)`), so a message or start against the
  tenant's rules costs no round trip of its own.

The script's inputs are named once (`_ARGV`, declared in Lua by `throttling.lua_argv`, built by
`throttling.argv`); its keys are the limit's two windows, then the GETs (`musteri_nesli`, the
snapshot's keys, the rules generation, `uyelik_nesli`), then the presence sets. The limit's own Lua is
`throttling.LIMIT_LUA`, the same text the limiter runs alone.

Only when this process already holds the key's tenant (the limit's key names the tenant) and the
cache is Redis; otherwise there is no pre-read (`request.on_okuma` stays unset) and each part
reads on its own (the throttle its limit, the authentication its tenant, presence its sets).
A request counted here that then fails authentication or the origin check still counts: the
limit is per key and address, so that only spends the caller's own budget.

On a Redis Cluster (`REDIS_URL=redis+cluster://...`, issue 44) the keys are on several slots: the
tenant's `{t:<id>}` (the limit's windows, the membership generation, the tenant's poll
generation), the chat's `{o:<id>}`, presence's `{varlik}`, the global generations. The script then
runs on the tenant's slot with the reads that share it, and the rest is read by plain commands in
the same pipeline (`_kumede_calistir`): every script touches one slot.
"""
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from redis.cluster import key_slot

from supportdesk.core import kurallar, throttling, varlik
from supportdesk.core.onbellek import betik_boruya, boru_hatasi

from . import musteri_onbellegi
from .kimlik import widget_anahtari

YENILEME_SURESI = 86400  # s a renewed generation lives (chat.yoklama.NESIL_SURE)

_ARGV = (*throttling.LIMIT_ARGV, "get_sayisi", "kume_sayisi", "en_dusuk", "daralt_sirasi", "daralt_degeri",
         "yenile_sayisi", "yenile_degeri", "yenile_suresi")
# After the named inputs: the members to look up when narrowing (`daralt_degeri` read at GET
# number `daralt_sirasi`), by ZMSCORE instead of reading the whole sets.
_LUA = throttling.lua_argv(_ARGV) + throttling.LIMIT_LUA + """
local n = tonumber(get_sayisi)
local okunan = {}
for i = 1, n do okunan[i] = redis.call('GET', KEYS[2 + i]) end
local zaman = redis.call('TIME')
local ms = string.format('%.0f', tonumber(zaman[1]) * 1000 + math.floor(tonumber(zaman[2]) / 1000))
local yk = tonumber(yenile_sayisi)
if yk > 0 then redis.call('SET', KEYS[3 + n], ms .. ':' .. yenile_degeri, 'EX', tonumber(yenile_suresi)) end
local kumeler = {}
local daralt = daralt_degeri ~= '' and okunan[tonumber(daralt_sirasi)] == daralt_degeri
local alt = tonumber((string.gsub(en_dusuk, '^%(', '')))
for j = 1, tonumber(kume_sayisi) do
  if daralt and alt then
    local canli = {}
    if #ARGV > UYE_ONCESI then
      local skorlar = redis.call('ZMSCORE', KEYS[2 + n + yk + j], unpack(ARGV, UYE_ONCESI + 1))
      for i = 1, #skorlar do
        if skorlar[i] and tonumber(skorlar[i]) > alt then canli[#canli + 1] = ARGV[UYE_ONCESI + i] end
      end
    end
    kumeler[j] = canli
  else
    kumeler[j] = redis.call('ZRANGEBYSCORE', KEYS[2 + n + yk + j], en_dusuk, '+inf')
  end
end
return {izin, cur, prev, okunan, kumeler, (daralt and alt) and 1 or 0, ms}
""".replace("UYE_ONCESI", str(len(_ARGV)))


@dataclass(frozen=True)
class OnOkumaIhtiyaci:
    """What a widget view reads in its request's pre-read besides the limit and the tenant
    cache's generation. `yoklama_ozeti(request, musteri)`: the raw Redis keys of the poll
    snapshot to read for the tenant this process holds for the key (not yet authenticated), or
    an empty list."""

    varlik: bool = False
    yoklama_ozeti: Callable[..., list[str]] | None = None
    # `yenilenecek(request, musteri)`: (a generation's raw Redis key, its chat's id, a new random value)
    # for the script to renew with its Redis `TIME` (`chat.yoklama`, the visitor's message), or None.
    yenilenecek: Callable[..., tuple[str, int, int] | None] | None = None


@dataclass
class OnOkuma:
    """What a widget request's pre-read read (see the module's text)."""

    musteri_id: int  # the tenant this process held for the key: every read below is for it
    limit: throttling.LimitKarari
    musteri_nesli: bytes | None
    uyelik_nesli: bytes | None = None
    varlik: set[int] | None = None  # None: not read
    daraltildi: bool = False
    yoklama_anahtarlari: tuple[str, ...] = ()
    yoklama_ozeti: list | None = None  # the values of `yoklama_anahtarlari`
    zaman_ms: int | None = None  # Redis `TIME` the script ran at (ms); None on a cluster (nodes' clocks differ)
    yenilenen: int | None = None  # the chat whose generation the script renewed (`yenilenecek`)
    yenileme_basi: float = 0.0  # time.monotonic() before the script was sent


    def yoklama_ozeti_icin(self, musteri_id: int) -> list | None:
        """The snapshot's values when they were read for `musteri_id` (the authenticated tenant)."""
        return self.yoklama_ozeti if self.yoklama_anahtarlari and musteri_id == self.musteri_id else None


def on_oku(request, ihtiyac: OnOkumaIhtiyaci) -> OnOkuma | None:
    """Make the request's pre-read (at most once per request: `on_okuma_denendi`) and leave it on
    the request as `on_okuma`. With presence read, this request's `varlik.ulasilabilir_idler`
    answers from it until `bitir(request)`."""
    request = getattr(request, "_request", request)  # DRF's Request reads through to Django's
    request.on_okuma_denendi = True
    key = widget_anahtari(request)
    musteri = musteri_onbellegi.yerel(key) if key else None
    nesil_anahtari = musteri_onbellegi.nesil_redis_anahtari()
    if musteri is None or nesil_anahtari is None:
        return None
    kumeler = varlik.ulasilabilir_kumeleri() if ihtiyac.varlik else None
    yoklama = tuple(ihtiyac.yoklama_ozeti(request, musteri)) if ihtiyac.yoklama_ozeti else ()
    getler = [nesil_anahtari, *yoklama]
    if musteri.kurallar_var:
        getler.append(caches["default"].make_key(kurallar.nesil_anahtari(musteri.pk)))
    daralt = None
    if kumeler:
        getler.append(musteri_onbellegi.uyelik_nesli_redis_anahtari(musteri.pk))
        daralt = musteri_onbellegi.adaylar(musteri.pk)
    yenile = ihtiyac.yenilenecek(request, musteri) if ihtiyac.yenilenecek else None
    oran = throttling.oran_coz(settings.WIDGET_RATE_LIMIT)
    limit = throttling.pencere(
        throttling.widget_limit_anahtari(musteri.pk, throttling.WidgetThrottle().get_ident(request)), oran)
    basi = time.monotonic()
    okunan = _calistir(limit=limit, say=oran is not None, getler=getler, kumeler=kumeler, daralt=daralt,
                       yenile=yenile)
    if okunan is None:
        return None
    izin, cur, prev, degerler, kume, daraltildi, zaman_ms = okunan
    zaman_ms = int(zaman_ms) if zaman_ms is not None else None  # the script's text of a number
    on = OnOkuma(musteri_id=musteri.pk, limit=limit.karar(izin, cur, prev), musteri_nesli=degerler[0],
                 yoklama_anahtarlari=yoklama, yoklama_ozeti=degerler[1:1 + len(yoklama)] if yoklama else None,
                 zaman_ms=zaman_ms, yenilenen=yenile[1] if yenile and zaman_ms is not None else None,
                 yenileme_basi=basi)
    if musteri.kurallar_var:
        request.kural_nesli_jetonu = kurallar.istek_nesli_ayarla(musteri.pk, degerler[1 + len(yoklama)])
    if kumeler:
        on.uyelik_nesli = degerler[-1]
        on.varlik = {int(k) for uyeler in kume for k in uyeler}
        on.daraltildi = bool(daraltildi)
        request.varlik_jetonu = varlik.istek_okumasi_ayarla(on.varlik)
    request.on_okuma = on
    return on


def _calistir(*, limit: throttling.Pencere, say: bool, getler: list[str], kumeler, daralt,
              yenile: tuple[str, int, int] | None = None) -> list | None:
    """Run the script; None (the limit fails open, as the limiter's own) when Redis cannot be reached.
    `daralt` = (membership generation, member ids) held by this process, checked against the
    last GET. `yenile` = (key, chat id, random value): the key set to `<Redis TIME in ms>:<value>`
    (not on a cluster: there the writer renews after its commit as before)."""
    cache = caches["default"]
    try:
        betik = getattr(cache, "_on_okuma_betigi", None)
        if betik is None:
            betik = cache._on_okuma_betigi = cache._cache.get_client(write=True).register_script(_LUA)
        setler, en_dusuk = kumeler or ((), "-inf")
        girdiler = {
            **limit.argv(say=say), "get_sayisi": len(getler), "kume_sayisi": len(setler), "en_dusuk": en_dusuk,
            "daralt_sirasi": len(getler) if daralt else 0, "daralt_degeri": str(daralt[0]) if daralt else "",
            "yenile_sayisi": 0, "yenile_degeri": "", "yenile_suresi": 0,
        }
        # Cache keys of our own ASCII names: no memcached key checks on the hot path.
        pencereler = [cache.make_key(limit.guncel), cache.make_key(limit.onceki)]
        if getattr(cache, "kume", False):
            return [*_kumede_calistir(cache, betik, pencereler, girdiler, getler, setler, en_dusuk, daralt), None]
        yenilenecek = [yenile[0]] if yenile else []
        if yenile:
            girdiler.update(yenile_sayisi=1, yenile_degeri=str(yenile[2]), yenile_suresi=YENILEME_SURESI)
        return betik(keys=[*pencereler, *getler, *yenilenecek, *setler],
                     args=[*throttling.argv(_ARGV, girdiler), *(daralt[1] if daralt else ())])
    except Exception:  # noqa: BLE001  (as the limiter: a dead cache must not take the widget down)
        throttling.acik_gecis()
        return None


def _kumede_calistir(cache, betik, pencereler, girdiler, getler, setler, en_dusuk, daralt) -> list:
    """The pre-read on a Redis Cluster (issue 44): the same answer, every script in one slot.

    The script runs on the limit's slot (the tenant's, `{t:<id>}`) with the reads that share it
    (the membership generation, the tenant's poll generation); the other keys (the tenant cache's
    generation, the chat's poll keys, the presence sets in `{varlik}`) are read by plain commands
    in the same pipeline, which redis-py sends to every node before reading any answer: one round
    trip in time, one per node in requests. Presence is narrowed to the tenant's members when the
    membership generation read matches this process's list (checked here, not in Lua); a list
    found old costs one more round trip for the whole sets (only after a membership changed)."""

    istemci = cache._cache.get_client(write=True)
    slot = key_slot(pencereler[0].encode())
    yerinde = [i for i, k in enumerate(getler) if key_slot(k.encode()) == slot]
    disarida = [i for i, k in enumerate(getler) if i not in yerinde]
    girdiler = {**girdiler, "get_sayisi": len(yerinde), "kume_sayisi": 0, "daralt_sirasi": 0, "daralt_degeri": ""}
    alt = float(en_dusuk.lstrip("(")) if en_dusuk != "-inf" else None
    uyeler = list(daralt[1]) if daralt else []
    with istemci.pipeline(transaction=False) as boru:
        betik_boruya(boru, betik, keys=[*pencereler, *(getler[i] for i in yerinde)],
                     args=throttling.argv(_ARGV, girdiler))
        for i in disarida:
            boru.get(getler[i])
        for kume in setler:
            if daralt and uyeler:
                boru.zmscore(kume, uyeler)
            elif not daralt:
                boru.zrangebyscore(kume, en_dusuk, "+inf")
        try:
            sonuc = boru.execute()
        except Exception as e:
            boru_hatasi(istemci, e)
            raise
    (izin, cur, prev, yerinde_okunan, *_), geri = sonuc[0], sonuc[1:]  # (its TIME is not used here)
    okunan: list = [None] * len(getler)
    for i, deger in zip(yerinde, yerinde_okunan, strict=True):
        okunan[i] = deger or None  # Lua's false (a missing key) comes back as None
    for i in disarida:
        okunan[i] = geri.pop(0)
    daraltildi = 0
    kumeler: list[list] = []
    if setler and daralt:
        nesil = okunan[-1]
        if alt is not None and isinstance(nesil, bytes) and nesil.decode() == str(daralt[0]):
            daraltildi = 1
            for _ in setler:
                skorlar = geri.pop(0) if uyeler else []
                kumeler.append([str(u).encode() for u, sk in zip(uyeler, skorlar, strict=True)
                                if sk is not None and float(sk) > alt])
        else:
            with istemci.pipeline(transaction=False) as boru:
                for kume in setler:
                    boru.zrangebyscore(kume, en_dusuk, "+inf")
                kumeler = boru.execute()
    else:
        kumeler = geri[:len(setler)]
    return [izin, cur, prev, okunan, kumeler, daraltildi]


def bitir(request) -> None:
    """The request is answered: presence is read afresh by whatever runs next in this context."""
    request = getattr(request, "_request", request)
    jeton = getattr(request, "varlik_jetonu", None)
    if jeton is not None:
        request.varlik_jetonu = None
        varlik.istek_okumasi_bitir(jeton)
    jeton = getattr(request, "kural_nesli_jetonu", None)
    if jeton is not None:
        request.kural_nesli_jetonu = None
        kurallar.istek_nesli_bitir(jeton)


def musteri_dogrulandi(request, musteri, ihtiyac: OnOkumaIhtiyaci) -> None:
    """After authentication, with the request let in. Presence read for the members of the tenant
    this process held for the key is dropped (read anew) when the key turned out to be another's
    (it never is: keys are never reused). For a view that reads presence and could not narrow its
    read to the tenant's members, the members are read for the next requests (one statement, then
    none until a membership changes or `musteri_onbellegi.YEREL_SURE` passes)."""
    on = getattr(request, "on_okuma", None)
    if on is not None and on.varlik is not None and on.musteri_id != getattr(musteri, "pk", None):
        bitir(request)
    if not ihtiyac.varlik or (on is not None and on.daraltildi):
        return
    if musteri_onbellegi.nesil_redis_anahtari() is None:
        return  # without Redis presence is read in this process's memory, whole
    musteri_onbellegi.adaylari_yukle(musteri.pk, getattr(on, "uyelik_nesli", None))
