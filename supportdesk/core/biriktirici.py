"""Notes gathered in this process and written together once an interval (issues 41, 42): a hot
request only appends a note (no I/O); the first note of an interval asks the one runner
(`supportdesk.core.kosucu`) to call the writer after `aralik()` seconds, on a lane of its own.
A forked child starts with no notes; a process leaving normally writes what it holds. Used by
search indexing (`arama.biriktir`) and rule runs (`otomasyon.biriktir`)."""
import atexit
import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from . import kosucu

logger = logging.getLogger(__name__)


class Biriktirici:
    def __init__(self, *, ad: str, aralik: Callable[[], float], yaz: Callable[[list[Any]], int],
                 en_cok: int | None = None) -> None:
        self.ad, self._aralik, self._yaz, self._en_cok = ad, aralik, yaz, en_cok
        self._kilit = threading.Lock()
        self._bekleyen: list[Any] = []
        self._planli = False
        os.register_at_fork(after_in_child=self._catal_sonrasi)
        atexit.register(self._cikista)

    def ekle(self, not_: Any) -> None:
        with self._kilit:
            self._bekleyen.append(not_)
            if self._en_cok is not None and len(self._bekleyen) > self._en_cok:
                del self._bekleyen[:len(self._bekleyen) - self._en_cok]  # the oldest go first
            if self._planli:
                return
            self._planli = True
        kosucu.kosucu().sonra(self._aralik(), self._zamani_geldi)

    def _zamani_geldi(self) -> None:  # on the runner's timer thread: the write goes to a lane
        if kosucu.kosucu().calistir(self.ad, self.bosalt, esz=1) is None:
            self.bosalt()  # the runner is stopping: write here

    def bosalt(self) -> int:
        """Write the notes now; returns what the writer returns (0 with nothing noted)."""
        with self._kilit:
            notlar = list(self._bekleyen)
            self._bekleyen.clear()
            self._planli = False
        return self._yaz(notlar) if notlar else 0

    def _catal_sonrasi(self) -> None:
        self._kilit, self._planli = threading.Lock(), False
        self._bekleyen.clear()

    def _cikista(self) -> None:
        try:
            self.bosalt()
        except Exception:
            logger.warning("%s: notes could not be written at exit.", self.ad, exc_info=True)
