"""Delivery inside a Celery worker process, isolated per endpoint (the way Stripe and Svix deliver).

The Celery task does not make the HTTP request itself: it hands the delivery to this process's
pool and returns, so a worker slot is never held idle while a receiver takes its time. The pool:

- keeps one waiting line per endpoint; an attempt starts only while the endpoint has fewer than
  its cap of attempts running, counted in this process and across every worker process (a Redis
  semaphore with expiry, `supportdesk.core.semafor`, so a killed worker's places free themselves);
- runs attempts in two lanes of threads: endpoints that answered quickly last time in the fast
  lane (`WEBHOOK_ENDPOINT_CONCURRENCY` at once each), endpoints whose last attempt was slow (over
  `WEBHOOK_SLOW_SECONDS`, a timeout included) in the slow lane (`WEBHOOK_SLOW_ENDPOINT_CONCURRENCY`
  each), so slow receivers only compete with each other. An endpoint not seen yet gets one attempt
  at a time until its first answer says which lane it belongs to; one that has timed out
  `WEBHOOK_CIRCUIT_TIMEOUTS` times running gets one at a time in the slow lane (a half-open circuit
  breaker: its own deliveries wait, nobody else's) until an attempt succeeds quickly again;
- in the fast lane, sends a busy endpoint's waiting deliveries in batches (up to
  `WEBHOOK_BATCH_MAX` one after another on one place, one claim and one log for them all:
  `teslimat.teslimatlari_dene`); its next batch starts at most `WEBHOOK_BATCH_WAIT_SECONDS` after
  the last one unless a full batch waits, so deliveries gather under load and an idle endpoint's
  first one still starts at once.

Nothing here is the only copy of anything: the delivery row stays due in the outbox until an
attempt is recorded, leases (`teslimat.teslimat_dene`) keep two processes from sending the same
attempt, and the beat sweep re-queues whatever a dead process was holding (a live one refreshes
`kuyruga_alinma` of what it holds every half sweep grace, so the sweep leaves that alone). Within an endpoint,
waiting deliveries start in the order they reached this process, up to the cap at once: order is
still not promised (docs/webhooks.md).
"""
import heapq
import logging
import os
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection

from supportdesk.core.semafor import semafor_al, semafor_birak

from .hedef import oturum as hedef_oturumu

logger = logging.getLogger("supportdesk.webhooks")

HIZLI, YAVAS, BILINMIYOR = "hizli", "yavas", "bilinmiyor"


class TeslimatHavuzu:
    def __init__(self, dene, sonra, tazele):
        """`dene(teslimat_idleri, oturum, devam)`: attempts of one endpoint's deliveries one after
        another, returns a `teslimat.TopluSonuc` (`oturum`: the thread's HTTP session; `devam()`:
        False once the pool is stopping); `sonra(teslimat)`: what to do with a delivery left waiting
        (queue its retry); `tazele(ids)`: mark deliveries waiting here as queued, so the sweep
        leaves them alone while this process is alive."""
        self._dene, self._sonra, self._tazele = dene, sonra, tazele
        self._son_tazeleme = time.monotonic()
        self._kilit = threading.Lock()
        self._bekleyen: dict[int, deque[int]] = {}  # endpoint -> deliveries waiting here
        self._bilinen: set[int] = set()  # deliveries waiting or running here
        self._varis: dict[int, float] = {}  # delivery -> when it reached this pool (monotonic)
        self._planli: set[int] = set()  # endpoints with a look again in `_ertelenen`
        self._son_baslama: dict[int, float] = {}  # endpoint -> when its last batch started here
        self._suren: dict[int, int] = {}  # endpoint -> attempts running here
        self._serit: dict[int, str] = {}  # endpoint -> lane of its last attempt
        self._zaman_asimi: dict[int, int] = {}  # endpoint -> timeouts running
        self._ertelenen: list[tuple[float, int]] = []  # (when, endpoint): shared places were full
        self._hizli = ThreadPoolExecutor(settings.WEBHOOK_DELIVERY_THREADS, thread_name_prefix="webhook-hizli")
        self._yavas = ThreadPoolExecutor(settings.WEBHOOK_SLOW_LANE_THREADS, thread_name_prefix="webhook-yavas")
        self._dur = threading.Event()
        self._uyan = threading.Event()
        self._yerel = threading.local()  # each thread's HTTP session
        self._zamanlayici = threading.Thread(target=self._zamanla, name="webhook-havuz-zamanlayici", daemon=True)
        self._zamanlayici.start()

    # --- in ------------------------------------------------------------------------------------
    def ekle(self, teslimat_id: int, endpoint_id: int) -> bool:
        """Take a delivery; False when it is already here or the pool is full (it stays due in the
        outbox and the sweep brings it back)."""
        with self._kilit:
            if teslimat_id in self._bilinen or self._dur.is_set():
                return False
            if len(self._bilinen) >= settings.WEBHOOK_WORKER_BACKLOG_MAX:
                return False
            self._bilinen.add(teslimat_id)
            self._varis[teslimat_id] = time.monotonic()
            self._bekleyen.setdefault(endpoint_id, deque()).append(teslimat_id)
        self._baslat(endpoint_id)
        return True

    def durum(self) -> dict:
        with self._kilit:
            return {"bekleyen": sum(len(d) for d in self._bekleyen.values()), "suren": sum(self._suren.values()),
                    "yavas_endpoint": sum(1 for s in self._serit.values() if s == YAVAS)}

    def durdur(self, timeout: float) -> None:
        """Stop taking work and wait up to `timeout` s for running attempts (worker shutdown). Waiting
        ones are left due in the outbox."""
        self._dur.set()
        self._uyan.set()
        with self._kilit:
            self._bekleyen.clear()
            self._varis.clear()
        bitis = time.monotonic() + timeout
        while time.monotonic() < bitis and self.durum()["suren"]:
            time.sleep(0.05)
        self._hizli.shutdown(wait=False, cancel_futures=True)
        self._yavas.shutdown(wait=False, cancel_futures=True)

    # --- lanes and caps -------------------------------------------------------------------------
    def _serit_ve_sinir(self, endpoint_id: int) -> tuple[str, int, int]:
        """(lane, cap of attempts at once, most deliveries one thread attempts in a row)."""
        serit = self._serit.get(endpoint_id, BILINMIYOR)
        if serit == BILINMIYOR:
            return HIZLI, 1, 1
        if serit == YAVAS:
            if self._zaman_asimi.get(endpoint_id, 0) >= settings.WEBHOOK_CIRCUIT_TIMEOUTS:
                return YAVAS, 1, 1
            return YAVAS, settings.WEBHOOK_SLOW_ENDPOINT_CONCURRENCY, 1
        return HIZLI, settings.WEBHOOK_ENDPOINT_CONCURRENCY, settings.WEBHOOK_BATCH_MAX

    def _baslat(self, endpoint_id: int) -> None:
        """Start as many of the endpoint's waiting deliveries as its cap allows. A fast endpoint's
        line is shared out among its free places, up to WEBHOOK_BATCH_MAX deliveries a thread (one
        claim and one log for them all, `teslimat.teslimatlari_dene`); others get one a thread."""
        while True:
            with self._kilit:
                kuyruk = self._bekleyen.get(endpoint_id)
                if not kuyruk or self._dur.is_set():
                    if kuyruk is not None and not kuyruk:
                        del self._bekleyen[endpoint_id]
                    return
                serit, sinir, parti = self._serit_ve_sinir(endpoint_id)
                suren = self._suren.get(endpoint_id, 0)
                if suren >= sinir:
                    return  # the attempt that finishes next starts the next one
                if len(kuyruk) < parti:
                    # A fast endpoint's batches start at most every WEBHOOK_BATCH_WAIT_SECONDS here
                    # unless a full batch is waiting: a busy endpoint's deliveries gather into
                    # batches, an idle one's first delivery starts at once.
                    zaman = self._son_baslama.get(endpoint_id, 0.0) + settings.WEBHOOK_BATCH_WAIT_SECONDS
                    if zaman > time.monotonic():
                        self._sonra_bak(endpoint_id, zaman)
                        return
                jeton = semafor_al(_semafor_anahtari(endpoint_id), sinir, _yer_suresi())
                if jeton is None:  # other processes hold the endpoint's places: look again shortly
                    self._sonra_bak(endpoint_id, time.monotonic() + settings.WEBHOOK_SEMAPHORE_RETRY_SECONDS)
                    return
                # A short line goes as one batch; a long one is shared out among the free places.
                adet = len(kuyruk) if len(kuyruk) < parti else min(parti, -(-len(kuyruk) // (sinir - suren)))
                teslimat_idleri = [kuyruk.popleft() for _ in range(adet)]
                self._son_baslama[endpoint_id] = time.monotonic()
                self._suren[endpoint_id] = self._suren.get(endpoint_id, 0) + 1
            havuz = self._yavas if serit == YAVAS else self._hizli
            try:
                havuz.submit(self._calistir, teslimat_idleri, endpoint_id, jeton)
            except RuntimeError:  # shut down meanwhile
                self._bitti(teslimat_idleri, endpoint_id, jeton)
                return

    def _sonra_bak(self, endpoint_id: int, zaman: float) -> None:
        """Run `_baslat(endpoint_id)` again at `zaman` (called with the lock held)."""
        if endpoint_id not in self._planli:
            self._planli.add(endpoint_id)
            heapq.heappush(self._ertelenen, (zaman, endpoint_id))
            self._uyan.set()

    def _calistir(self, teslimat_idleri: list[int], endpoint_id: int, jeton: str) -> None:
        geri: list[int] = []
        try:
            close_old_connections()
            sonuc = self._dene(teslimat_idleri, self._oturum(), lambda: not self._dur.is_set())
            geri = sonuc.geri
            for teslimat, sure in sonuc.denenen:
                self._olc(endpoint_id, teslimat, sure)
            for teslimat, _ in sonuc.denenen:
                self._sonra(teslimat)
        except Exception:
            logger.exception("Webhook teslimatları %s denenemedi", teslimat_idleri)
            connection.close()  # whatever state it is in, the next attempt starts clean
        finally:
            self._bitti(teslimat_idleri, endpoint_id, jeton, geri=geri)

    def _oturum(self):
        oturum = getattr(self._yerel, "oturum", None)
        if oturum is None:
            oturum = self._yerel.oturum = hedef_oturumu()
        return oturum

    def _olc(self, endpoint_id: int, teslimat, sure: float) -> None:
        zaman_asimi = teslimat.son_durum_kodu is None and teslimat.son_hata.startswith("Zaman aşımı")
        with self._kilit:
            if sure > settings.WEBHOOK_SLOW_SECONDS or zaman_asimi:
                self._serit[endpoint_id] = YAVAS
            else:
                self._serit[endpoint_id] = HIZLI
            if zaman_asimi:
                self._zaman_asimi[endpoint_id] = self._zaman_asimi.get(endpoint_id, 0) + 1
            else:
                self._zaman_asimi.pop(endpoint_id, None)

    def _bitti(self, teslimat_idleri: list[int], endpoint_id: int, jeton: str, geri: list[int] = ()) -> None:
        """A thread is done: `geri` (claimed, not attempted, lease released) go back to the head of
        the endpoint's line in their order; the others leave the pool."""
        semafor_birak(_semafor_anahtari(endpoint_id), jeton)
        with self._kilit:
            if geri and not self._dur.is_set():
                self._bekleyen.setdefault(endpoint_id, deque()).extendleft(reversed(geri))
            else:
                geri = ()
            for teslimat_id in set(teslimat_idleri) - set(geri):
                self._bilinen.discard(teslimat_id)
                self._varis.pop(teslimat_id, None)
            self._suren[endpoint_id] -= 1
            if not self._suren[endpoint_id]:
                del self._suren[endpoint_id]
        self._baslat(endpoint_id)

    def _zamanla(self) -> None:
        """Retries endpoints whose shared places were all taken by other processes."""
        while not self._dur.is_set():
            with self._kilit:
                simdi = time.monotonic()
                hazir = []
                while self._ertelenen and self._ertelenen[0][0] <= simdi:
                    hazir.append(heapq.heappop(self._ertelenen)[1])
                    self._planli.discard(hazir[-1])
                bekle = (self._ertelenen[0][0] - simdi) if self._ertelenen else 1.0
            for endpoint_id in set(hazir):
                self._baslat(endpoint_id)
            self._bekleyenleri_tazele()
            self._uyan.wait(timeout=max(0.01, min(bekle, 0.5)))
            self._uyan.clear()


    def _bekleyenleri_tazele(self) -> None:
        """Every half sweep grace: the deliveries waiting in a line here are still held (one UPDATE),
        so the sweep does not queue them again and again while an endpoint is slow; a dead
        process stops refreshing and the sweep takes them over."""
        if time.monotonic() - self._son_tazeleme < settings.WEBHOOK_SWEEP_GRACE_SECONDS / 2:
            return
        self._son_tazeleme = time.monotonic()
        with self._kilit:
            ids = [i for kuyruk in self._bekleyen.values() for i in kuyruk]
        if not ids:
            return
        try:
            close_old_connections()
            self._tazele(ids)
        except Exception:
            logger.exception("Bekleyen webhook teslimatları tazelenemedi")
            connection.close()


def _semafor_anahtari(endpoint_id: int) -> str:
    return f"webhook:endpoint:{endpoint_id}:suren"


def _yer_suresi() -> float:
    # A place outlives the longest attempt (connect + answer) by a margin; a dead holder's expires.
    return settings.WEBHOOK_TIMEOUT_SECONDS + settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS + 30


_havuz: TeslimatHavuzu | None = None
_havuz_pid: int | None = None
_havuz_kilidi = threading.Lock()


def havuz(dene, sonra, tazele) -> TeslimatHavuzu:
    """This process's pool (a forked worker child builds its own)."""
    global _havuz, _havuz_pid
    with _havuz_kilidi:
        if _havuz is None or _havuz_pid != os.getpid():
            _havuz, _havuz_pid = TeslimatHavuzu(dene, sonra, tazele), os.getpid()
        return _havuz


def durdur(timeout: float) -> None:
    global _havuz
    with _havuz_kilidi:
        h, _havuz = (_havuz, None) if _havuz_pid == os.getpid() else (None, _havuz)
    if h is not None:
        h.durdur(timeout)
