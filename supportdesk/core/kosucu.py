"""The one runner for work that leaves a request ("after commit, off the request", HOUSE-STYLE 25).

With a broker (REDIS_URL set, CELERY_TASK_ALWAYS_EAGER false) a Celery task goes to the broker and
Celery beat keeps the timetable. Without one (`make run`, eager Celery) the same task runs here, on
this process's runner, never inside the request that queued it; and the beat timetable
(CELERY_BEAT_SCHEDULE) runs here too (CONTRACT 15: timed rules run in every configuration).

The runner is one object per process (`kosucu()`), holding everything the old per-module loops
held in globals:
- lanes: named thread pools (`calistir`), created on first use;
- a timer thread (`sonra`, `her`): calls after a delay, and the periodic timetable, each run of a
  periodic job claimed for its period in the cache (`cache.add`, shared by every process on Redis)
  so two runners at once run it once a period;
- one event loop in a thread (`sirala`): ordered lines of coroutines (the socket publisher where
  the channel layer is not a single plain Redis: one Redis connection, commit order kept);
- per-process objects of the apps (`nesne`: the webhook delivery pool), stopped with it.

One start (first use; a web process's first request also starts the timetable, `baslat`), one stop
(`durdur`: worker shutdown, tests; at exit the ordered lines are drained briefly), one fork rule
(`os.register_at_fork`: a forked child never inherits the parent's threads, it builds its own
runner on first use).
"""
import asyncio
import atexit
import contextvars
import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from celery.schedules import crontab
from celery.signals import worker_process_shutdown, worker_shutdown
from django.conf import settings
from django.core.cache import cache
from django.core.signals import request_started
from django.db import close_old_connections, connection, transaction

from supportdesk.celery import app as celery_app

logger = logging.getLogger("supportdesk.kosucu")

SIRA_SINIRI = 10_000  # coroutines waiting in one ordered line (Redis down for long)
CIKIS_BOSALTMA_SANIYE = 2.0


def broker_var() -> bool:
    """Celery has a broker (tasks leave the process); otherwise this runner does their work."""
    return not celery_app.conf.task_always_eager


class Kosucu:
    def __init__(self):
        self.pid = os.getpid()
        self._kilit = threading.RLock()  # `nesne` builds under it, and a builder may use the timer
        self._dur = threading.Event()
        self._kulvarlar: dict[str, ThreadPoolExecutor] = {}
        self._zamanli: list[tuple[float, int, Callable, tuple]] = []  # (when, n, fn, args), a heap
        self._sayac = itertools.count()
        self._uyan = threading.Event()
        self._zamanlayici: threading.Thread | None = None
        self._dongu: asyncio.AbstractEventLoop | None = None
        self._siralar: dict[str, asyncio.Queue] = {}
        self._nesneler: dict[str, object] = {}
        self._periyodik: set[str] = set()
        self._olanlar: set[str] = set()

    # --- lanes ------------------------------------------------------------------------------------
    def calistir(self, kulvar: str, fn: Callable, *args, esz: int = 4, baglanti_kalsin: bool = False) -> Future | None:
        """Run `fn(*args)` on the lane `kulvar` (a pool of `esz` threads, sized on first use). The
        thread's database connection is closed after the job (`baglanti_kalsin`: kept, checked
        before the next one, closed after a failure: a Celery worker's delivery threads); an
        exception is logged, never raised. None once the runner is stopping."""
        with self._kilit:
            if self._dur.is_set():
                return None
            havuz = self._kulvarlar.get(kulvar)
            if havuz is None:
                havuz = self._kulvarlar[kulvar] = ThreadPoolExecutor(esz, thread_name_prefix=f"kosucu-{kulvar}")
        try:
            # In the caller's context: the request id (supportdesk.core.gunluk) follows the work into
            # the lane, as it follows a task into a Celery worker (CONTRACT 20).
            return havuz.submit(contextvars.copy_context().run, _sarili, kulvar, fn, args, baglanti_kalsin)
        except RuntimeError:  # shut down meanwhile
            return None

    # --- the timer ----------------------------------------------------------------------------------
    def sonra(self, saniye: float, fn: Callable, *args) -> None:
        """Call `fn(*args)` on the timer thread after `saniye` s. `fn` must be quick (hand real work
        to a lane); an exception is logged."""
        with self._kilit:
            if self._dur.is_set():
                return
            heapq.heappush(self._zamanli, (time.monotonic() + max(0.0, saniye), next(self._sayac), fn, args))
            if self._zamanlayici is None:
                self._zamanlayici = threading.Thread(target=self._zamanla, name="kosucu-zamanlayici", daemon=True)
                self._zamanlayici.start()
        self._uyan.set()

    def _zamanla(self) -> None:
        while not self._dur.is_set():
            with self._kilit:
                simdi, hazir = time.monotonic(), []
                while self._zamanli and self._zamanli[0][0] <= simdi:
                    hazir.append(heapq.heappop(self._zamanli))
                bekle = self._zamanli[0][0] - simdi if self._zamanli else 60.0
            for _, _, fn, args in hazir:
                try:
                    fn(*args)
                except Exception:
                    logger.exception("Zamanlanmış çağrı %r başarısız.", fn)
            if not hazir:
                # Until the next call is due (`sonra` wakes it sooner): idle, it sleeps.
                self._uyan.wait(timeout=max(0.005, min(bekle, 60.0)))
                self._uyan.clear()

    def her(self, ad: str, saniye: float, fn: Callable, *args) -> None:
        """Run `fn(*args)` once every `saniye` s (on the lane `periyodik`), at most once a period over
        every runner sharing the cache: the period is a slot of the wall clock, claimed with
        `cache.add` before the run, so two processes (or two runners) run it once. Idempotent:
        registering `ad` again does nothing."""
        with self._kilit:
            if ad in self._periyodik:
                return
            self._periyodik.add(ad)
        self._siradaki_periyot(ad, saniye, fn, args)

    def _siradaki_periyot(self, ad: str, saniye: float, fn: Callable, args: tuple) -> None:
        # Aligned on the wall clock, so every runner's tick of a period claims the same slot.
        simdi = time.time()
        self.sonra((int(simdi // saniye) + 1) * saniye - simdi + 0.01, self._periyot, ad, saniye, fn, args)

    def _periyot(self, ad: str, saniye: float, fn: Callable, args: tuple) -> None:
        dilim = int(time.time() // saniye)
        self.calistir("periyodik", _kilitli_calistir, ad, dilim, saniye, fn, args, esz=2)
        self._siradaki_periyot(ad, saniye, fn, args)

    # --- the event loop -------------------------------------------------------------------------------
    def sirala(self, sira: str, etiket: str, isci: Callable, *args) -> None:
        """`await isci(*args)` in the ordered line `sira` of this process's event loop: one after
        another, in the order they were handed in; never waits. A failure is logged with `etiket`."""
        dongu = self._dongu_al()
        if dongu is None:
            return
        dongu.call_soon_threadsafe(self._siraya_koy, sira, (etiket, isci, args))

    def _dongu_al(self) -> asyncio.AbstractEventLoop | None:
        with self._kilit:
            if self._dur.is_set():
                return None
            if self._dongu is None:
                self._dongu = asyncio.new_event_loop()
                threading.Thread(target=self._dongu.run_forever, name="kosucu-dongu", daemon=True).start()
            return self._dongu

    def _siraya_koy(self, ad: str, oge) -> None:  # on the loop
        kuyruk = self._siralar.get(ad)
        if kuyruk is None:
            kuyruk = self._siralar[ad] = asyncio.Queue()
            asyncio.get_running_loop().create_task(_sira_isci(ad, kuyruk))
        if kuyruk.qsize() >= SIRA_SINIRI:
            logger.warning("%s sırası dolu; %s atlandı.", ad, oge[0])
            return
        kuyruk.put_nowait(oge)

    def siralari_bosalt(self, timeout: float) -> None:
        """Wait up to `timeout` s for the ordered lines to empty (a process leaving)."""
        dongu = self._dongu
        if dongu is None or dongu.is_closed():
            return

        async def bekle():  # queued behind the lines' hand-ins still in flight
            await asyncio.wait_for(asyncio.gather(*(k.join() for k in list(self._siralar.values()))), timeout)

        try:
            asyncio.run_coroutine_threadsafe(bekle(), dongu).result(timeout=timeout + 1)
        except Exception:  # noqa: BLE001  (leaving: what is left is re-read by the clients' polls)
            logger.warning("Sıralar çıkışta boşaltılamadı.")

    # --- per-process objects ------------------------------------------------------------------------------
    def nesne(self, ad: str, yap: Callable[[], object]):
        """This process's one `ad` (built by `yap()` on first use; its `durdur(timeout)`, if any, is
        called when the runner stops)."""
        with self._kilit:
            if ad not in self._nesneler:
                self._nesneler[ad] = yap()
            return self._nesneler[ad]

    def ilk_kez(self, ad: str) -> bool:
        """True the first time `ad` is asked of this runner (start work done once)."""
        with self._kilit:
            if ad in self._olanlar:
                return False
            self._olanlar.add(ad)
            return True

    # --- stop -----------------------------------------------------------------------------------------------
    def durdur(self, timeout: float = 5.0) -> None:
        """Stop: the ordered lines are drained (briefly), the objects stopped (their running work
        given up to `timeout` s), the lanes and the loop shut down. Timed calls not yet due are
        dropped: what they stood for stays due in its table (the sweeps)."""
        self.siralari_bosalt(min(timeout, CIKIS_BOSALTMA_SANIYE))
        with self._kilit:
            self._dur.set()
            nesneler, self._nesneler = list(self._nesneler.values()), {}
            kulvarlar, self._kulvarlar = list(self._kulvarlar.values()), {}
            dongu, self._dongu = self._dongu, None
            self._zamanli.clear()
        self._uyan.set()
        for n in nesneler:
            if hasattr(n, "durdur"):
                n.durdur(timeout)
        bitis = time.monotonic() + timeout
        for k in kulvarlar:
            k.shutdown(wait=False, cancel_futures=True)
        for k in kulvarlar:
            for t in list(getattr(k, "_threads", ())):
                t.join(max(0.0, bitis - time.monotonic()))
        if dongu is not None:
            dongu.call_soon_threadsafe(_dongu_kapat, dongu)


def _sarili(kulvar: str, fn: Callable, args: tuple, baglanti_kalsin: bool = False) -> None:
    try:
        close_old_connections()
        fn(*args)
    except Exception:
        logger.exception("%s kulvarında %r başarısız.", kulvar, fn)
        connection.close()  # whatever state it is in, the next job starts clean
    finally:
        if not baglanti_kalsin:
            connection.close()  # lane threads live on: no connection held between jobs


def _kilitli_calistir(ad: str, dilim: int, saniye: float, fn: Callable, args: tuple) -> None:
    # One run a period over every runner sharing the cache (Redis: every process); the claim
    # outlives the period, so a late tick of the same period finds it.
    if not cache.add(f"kosucu:periyodik:{ad}:{dilim}", os.getpid(), timeout=max(1, int(saniye * 2) + 1)):
        return
    fn(*args)


def _dongu_kapat(dongu: asyncio.AbstractEventLoop) -> None:  # on the loop
    for gorev in asyncio.all_tasks(dongu):
        gorev.cancel()
    dongu.call_soon(dongu.stop)  # after the cancellations have run


async def _sira_isci(ad: str, kuyruk: asyncio.Queue) -> None:
    while True:
        etiket, isci, args = await kuyruk.get()
        try:
            await isci(*args)
        except Exception:
            logger.warning("%s: %s gönderilemedi.", ad, etiket, exc_info=True)
        finally:
            kuyruk.task_done()


# --- the process's runner -----------------------------------------------------------------------------
_kosucu: Kosucu | None = None
_kosucu_kilidi = threading.Lock()


def kosucu() -> Kosucu:
    """This process's runner (built on first use)."""
    global _kosucu
    with _kosucu_kilidi:
        if _kosucu is None:
            _kosucu = Kosucu()
        return _kosucu


def durdur(timeout: float = 5.0) -> None:
    """Stop this process's runner; the next use builds a new one (worker shutdown, tests)."""
    global _kosucu
    with _kosucu_kilidi:
        k, _kosucu = _kosucu, None
    if k is not None:
        k.durdur(timeout)


def _catal_sonrasi() -> None:
    # The fork rule: a child has none of the parent's threads; it starts afresh on first use.
    global _kosucu, _kosucu_kilidi
    _kosucu, _kosucu_kilidi = None, threading.Lock()


os.register_at_fork(after_in_child=_catal_sonrasi)


@worker_shutdown.connect
@worker_process_shutdown.connect
def _isci_dururken(**_) -> None:
    durdur(settings.KOSUCU_DURMA_SANIYE)


@atexit.register
def _cikista() -> None:
    # A process leaving (gunicorn's graceful restart) first publishes what its lines still hold.
    if _kosucu is not None and _kosucu.pid == os.getpid():
        _kosucu.siralari_bosalt(CIKIS_BOSALTMA_SANIYE)


# --- Celery tasks off the request ----------------------------------------------------------------------
def gorev_gonder(gorev, *args, yerel: bool = True) -> bool:
    """Run the Celery task `gorev` with JSON `args` outside this request: on the broker when there
    is one, else on this process's runner (lane `gorevler`; `yerel=False`: inside the caller,
    Celery's eager mode, as tests want). Never raises: a broker that is down is logged, and the sweeps bring back what
    was stored. Returns False when the task could not be handed over (the caller may note it)."""
    if yerel and not broker_var():
        kosucu().calistir("gorevler", gorev, *args, esz=4)
        return True
    try:  # to the broker; eager (no broker, `yerel` off): inside the caller
        gorev.delay(*args)
    except Exception:
        logger.warning("%s kuyruğa alınamadı.", gorev.name, exc_info=True)
        return False
    return True


def commit_sonrasi(gorev, *args, yerel: bool = True) -> None:
    """`gorev_gonder` once the current transaction commits (nothing on rollback)."""
    transaction.on_commit(lambda: gorev_gonder(gorev, *args, yerel=yerel))


# --- the beat timetable without a beat ---------------------------------------------------------------
def _saniye(zaman) -> float:
    if isinstance(zaman, crontab):
        # A daily job at a fixed local time (beat's crontab): here, without a beat, once a day on
        # the runner's wall-clock slots (midnight UTC), which is all a development checkout needs.
        return 24 * 3600.0
    return float(zaman.total_seconds()) if hasattr(zaman, "total_seconds") else float(zaman)


def _gorevi_calistir(ad: str, args: tuple, kwargs: dict) -> None:
    celery_app.tasks[ad](*args, **kwargs)


def zamanlanmis_isleri_baslat(k: Kosucu | None = None) -> bool:
    """Without a broker: run CELERY_BEAT_SCHEDULE's tasks on the runner, each once a period over
    every process (KOSUCU_ZAMANLAYICI turns this off: tests). With a broker Celery beat does it.
    Returns whether it started."""
    if broker_var() or not settings.KOSUCU_ZAMANLAYICI:
        return False
    k = k or kosucu()
    # Every app's tasks module, as a worker imports them at start (the web process imports only
    # the ones its apps use): each job of the timetable must be known by name.
    celery_app.loader.import_default_modules()
    for ad, tanim in settings.CELERY_BEAT_SCHEDULE.items():
        k.her(ad, _saniye(tanim["schedule"]), _gorevi_calistir, tanim["task"], tuple(tanim.get("args", ())),
              dict(tanim.get("kwargs", {})))
    return True


_baslangic: list[Callable[[Kosucu], None]] = []


def baslangicta(fn: Callable[[Kosucu], None]) -> None:
    """Register `fn(kosucu)` to run when a web process starts its runner (`baslat`): the apps'
    own start work without a broker (webhooks: hand over the deliveries already due)."""
    if fn not in _baslangic:
        _baslangic.append(fn)


BASLAT_UID = "kosucu-baslat"


def baslat(**_) -> None:
    """A web process's first request (`request_started`): without a broker, start the timetable
    and the apps' start work, once per runner. With a broker there is nothing to start here, and
    the receiver leaves the request path."""
    if broker_var():
        if settings.KOSUCU_ZAMANLAYICI:  # (tests keep it, to switch the broker off and on)
            request_started.disconnect(dispatch_uid=BASLAT_UID)
        return
    k = kosucu()
    if not k.ilk_kez("baslat"):
        return
    zamanlanmis_isleri_baslat(k)
    for fn in _baslangic:
        fn(k)
