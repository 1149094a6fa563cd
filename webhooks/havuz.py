"""Delivery isolated per endpoint (the way Stripe and Svix deliver), on the process's runner.

In a Celery worker the task does not make the HTTP request itself: it hands the delivery to this
process's pool and returns, so a worker slot is never held idle while a receiver takes its time.
Without a broker (`make run`) the web process's deliveries go to the same pool, after commit, so
one tenant's hanging receiver holds up nobody else there either. The pool is an object of the
process's runner (`supportdesk.core.kosucu`: its lanes, its timer, its stop and its fork rule):

- keeps one waiting line per endpoint; an attempt starts only while the endpoint has fewer than
  its cap of attempts running, counted in this process and across every worker process (a Redis
  semaphore with expiry, `supportdesk.core.semafor`, so a killed worker's places free themselves);
- runs attempts in two lanes of the runner (`webhook-hizli`, `webhook-yavas`): endpoints that
  answered quickly last time in the fast lane (`WEBHOOK_ENDPOINT_CONCURRENCY` at once each),
  endpoints whose last attempt was slow (over `WEBHOOK_SLOW_SECONDS`, a timeout included) in the
  slow lane (`WEBHOOK_SLOW_ENDPOINT_CONCURRENCY` each), so slow receivers only compete with each
  other. An endpoint not seen yet gets one attempt at a time until its first answer says which
  lane it belongs to; one that has timed out `WEBHOOK_CIRCUIT_TIMEOUTS` times running gets one at
  a time in the slow lane (a half-open circuit breaker: its own deliveries wait, nobody else's)
  until an attempt succeeds quickly again;
- in the fast lane, sends a busy endpoint's waiting deliveries in batches (up to
  `WEBHOOK_BATCH_MAX` one after another on one place, one claim and one log for them all:
  `teslimat.teslimatlari_dene`); its next batch starts at most `WEBHOOK_BATCH_WAIT_SECONDS` after
  the last one unless a full batch waits, so deliveries gather under load and an idle endpoint's
  first one still starts at once.

Nothing here is the only copy of anything: the delivery row stays due in the outbox until an
attempt is recorded, leases (`teslimat.teslimat_dene`) keep two processes from sending the same
attempt, and the beat sweep re-queues whatever a dead process was holding (a live one refreshes
`kuyruga_alinma` of what it holds every half sweep grace, so the sweep leaves that alone). Within
an endpoint, waiting deliveries start in the order they reached this process, up to the cap at
once: order is still not promised (docs/webhooks.md).
"""
import logging
import threading
import time
from collections import deque

from django.conf import settings
from django.db import connection

from supportdesk.core.kosucu import Kosucu, broker_var, kosucu
from supportdesk.core.semafor import semafor_al, semafor_birak

from .hedef import oturum as hedef_oturumu

logger = logging.getLogger("supportdesk.webhooks")

HIZLI, YAVAS, BILINMIYOR = "hizli", "yavas", "bilinmiyor"
HAVUZ = "webhook-havuzu"


class TeslimatHavuzu:
    def __init__(self, kosucu_: Kosucu, dene, sonra, tazele):
        """`dene(teslimat_idleri, oturum, devam)`: attempts of one endpoint's deliveries one after
        another, returns a `teslimat.TopluSonuc` (`oturum`: the thread's HTTP session; `devam()`:
        False once the pool is stopping); `sonra(teslimat)`: what to do with a delivery left waiting
        (queue its retry); `tazele(ids)`: mark deliveries waiting here as queued, so the sweep
        leaves them alone while this process is alive."""
        self._kosucu, self._dene, self._sonra, self._tazele = kosucu_, dene, sonra, tazele
        # A worker's lane threads keep their connection (CONN_MAX_AGE); the web process's close it.
        self._baglanti_kalsin = broker_var()
        self._kilit = threading.Lock()
        self._bekleyen: dict[int, deque[int]] = {}  # endpoint -> deliveries waiting here
        self._bilinen: set[int] = set()  # deliveries waiting or running here
        self._varis: dict[int, float] = {}  # delivery -> when it reached this pool (monotonic)
        self._planli: set[int] = set()  # endpoints with a look again in `_ertelenen`
        self._son_baslama: dict[int, float] = {}  # endpoint -> when its last batch started here
        self._suren: dict[int, int] = {}  # endpoint -> attempts running here
        self._serit: dict[int, str] = {}  # endpoint -> lane of its last attempt
        self._zaman_asimi: dict[int, int] = {}  # endpoint -> timeouts running
        self._dur = threading.Event()
        self._yerel = threading.local()  # each thread's HTTP session
        self._tazelemeyi_planla()

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
        with self._kilit:
            self._bekleyen.clear()
            self._varis.clear()
        bitis = time.monotonic() + timeout
        while time.monotonic() < bitis and self.durum()["suren"]:
            time.sleep(0.05)

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
            if serit == YAVAS:
                kulvar, esz = "webhook-yavas", settings.WEBHOOK_SLOW_LANE_THREADS
            else:
                kulvar, esz = "webhook-hizli", settings.WEBHOOK_DELIVERY_THREADS
            if self._kosucu.calistir(kulvar, self._calistir, teslimat_idleri, endpoint_id, jeton, esz=esz,
                                     baglanti_kalsin=self._baglanti_kalsin) is None:  # stopping meanwhile
                self._bitti(teslimat_idleri, endpoint_id, jeton)
                return

    def _sonra_bak(self, endpoint_id: int, zaman: float) -> None:
        """Run `_baslat(endpoint_id)` again at `zaman` (the runner's timer; called with the lock held)."""
        if endpoint_id not in self._planli:
            self._planli.add(endpoint_id)
            self._kosucu.sonra(zaman - time.monotonic(), self._yeniden_bak, endpoint_id)

    def _yeniden_bak(self, endpoint_id: int) -> None:
        with self._kilit:
            self._planli.discard(endpoint_id)
        self._baslat(endpoint_id)

    def _calistir(self, teslimat_idleri: list[int], endpoint_id: int, jeton: str) -> None:
        geri: list[int] = []
        denenen = []
        try:
            sonuc = self._dene(teslimat_idleri, self._oturum(), lambda: not self._dur.is_set())
            geri = sonuc.geri
            for teslimat, sure in sonuc.denenen:
                self._olc(endpoint_id, teslimat, sure)
            denenen = [teslimat for teslimat, _ in sonuc.denenen]
        except Exception:
            logger.exception("Webhook teslimatları %s denenemedi", teslimat_idleri)
            connection.close()  # whatever state it is in, the next attempt starts clean
        finally:
            self._bitti(teslimat_idleri, endpoint_id, jeton, geri=geri)
        # The next attempts are planned once the deliveries have left this pool (`_bitti`): a short
        # retry's timer (0.1-2 s) firing before that found its delivery "already here" and was
        # dropped, and the retry waited for the sweep, a minute on (met on a loaded machine).
        try:
            for teslimat in denenen:
                self._sonra(teslimat)
        except Exception:
            logger.exception("Webhook teslimatları %s yeniden planlanamadı", teslimat_idleri)

    def _oturum(self):
        oturum = getattr(self._yerel, "oturum", None)
        if oturum is None:
            oturum = self._yerel.oturum = hedef_oturumu()
        return oturum

    def _olc(self, endpoint_id: int, teslimat, sure: float) -> None:
        zaman_asimi = teslimat.son_durum_kodu is None and teslimat.son_hata.startswith("Zaman aşımı")  # ceviri: yok
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

    def _tazelemeyi_planla(self) -> None:
        if not self._dur.is_set():
            self._kosucu.sonra(settings.WEBHOOK_SWEEP_GRACE_SECONDS / 2, self._tazelemeyi_baslat)

    def _tazelemeyi_baslat(self) -> None:  # on the runner's timer: the UPDATE runs on a lane
        self._kosucu.calistir("webhook-tazele", self._bekleyenleri_tazele, esz=1)

    def _bekleyenleri_tazele(self) -> None:
        """Every half sweep grace: the deliveries waiting in a line here are still held (one UPDATE),
        so the sweep does not queue them again and again while an endpoint is slow; a dead
        process stops refreshing and the sweep takes them over."""
        try:
            with self._kilit:
                ids = [i for kuyruk in self._bekleyen.values() for i in kuyruk]
            if ids:
                self._tazele(ids)
        finally:
            self._tazelemeyi_planla()


def _semafor_anahtari(endpoint_id: int) -> str:
    return f"webhook:endpoint:{endpoint_id}:suren"


def _yer_suresi() -> float:
    # A place outlives the longest attempt (connect + answer) by a margin; a dead holder's expires.
    return settings.WEBHOOK_TIMEOUT_SECONDS + settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS + 30


def havuz(dene, sonra, tazele) -> TeslimatHavuzu:
    """This process's pool, an object of its runner (stopped with it; a forked child builds its own)."""
    k = kosucu()
    return k.nesne(HAVUZ, lambda: TeslimatHavuzu(k, dene, sonra, tazele))
