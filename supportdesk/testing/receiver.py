"""A real HTTP receiver on loopback for tests that assert webhook deliveries.

Usage (fixture `webhook_alici` in supportdesk.testing.fixtures)::

    def test_x(webhook_alici, musteri):
        webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
        webhook_alici.yanitla(500, 500)          # then the default 200
        ...                                      # cause the event
        [istek] = webhook_alici.bekle(1)         # waits, fails after the timeout
        assert istek.headers["x-webhook-olay"] == "yeni_chat"
        assert istek.json()["veri"]["musteri_id"] == musteri.id

Every request is recorded *before* the programmed delay, so a test can see that a hanging
request arrived while the sender is still waiting for its answer.
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class AliciIstek:
    """One recorded request. `headers` keys are lower case."""

    method: str
    path: str
    headers: dict[str, str]
    govde: bytes
    zaman: float = field(default_factory=time.time)

    def json(self):
        return json.loads(self.govde.decode("utf-8"))


@dataclass
class _Yanit:
    durum: int
    gecikme: float
    govde: bytes


class WebhookAlici:
    """Threaded HTTP server on 127.0.0.1 (random port) recording every request.

    - `yanitla(*durumlar, gecikme=0)`: the next requests get these statuses, in order; after
      them `varsayilan_durum` (200) with `varsayilan_gecikme` (0 s).
    - `bekle(n, timeout)`: the first n requests, waiting up to `timeout` seconds for them.
    - `sessiz_mi(sure)`: True when no (further) request arrives within `sure` seconds.
    """

    def __init__(self, host: str = "127.0.0.1"):
        self.istekler: list[AliciIstek] = []
        self.varsayilan_durum = 200
        self.varsayilan_gecikme = 0.0
        self._yanitlar: deque[_Yanit] = deque()
        self._kosul = threading.Condition()
        self._kapaniyor = threading.Event()
        self._server = ThreadingHTTPServer((host, 0), _handler_sinifi(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    # --- addresses -------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def adres(self, path: str = "/webhook") -> str:
        return self.url + (path if path.startswith("/") else "/" + path)

    # --- programming -----------------------------------------------------------------------
    def yanitla(self, *durumlar: int, gecikme: float = 0.0, govde: bytes = b"") -> None:
        with self._kosul:
            self._yanitlar.extend(_Yanit(d, gecikme, govde) for d in durumlar)

    def sifirla(self) -> None:
        with self._kosul:
            self.istekler.clear()
            self._yanitlar.clear()
            self.varsayilan_durum, self.varsayilan_gecikme = 200, 0.0

    # --- assertions ------------------------------------------------------------------------
    def bekle(self, n: int = 1, timeout: float = 10.0) -> list[AliciIstek]:
        bitis = time.monotonic() + timeout
        with self._kosul:
            while len(self.istekler) < n:
                kalan = bitis - time.monotonic()
                if kalan <= 0:
                    raise AssertionError(
                        f"{timeout} s içinde {n} istek beklendi, {len(self.istekler)} geldi: "
                        f"{[(i.method, i.path) for i in self.istekler]}"
                    )
                self._kosul.wait(kalan)
            return list(self.istekler[:n])

    def sessiz_mi(self, sure: float = 1.0, mevcut: int | None = None) -> bool:
        """True when the count stays at `mevcut` (default: the current count) for `sure` s."""
        with self._kosul:
            hedef = len(self.istekler) if mevcut is None else mevcut
        time.sleep(sure)
        with self._kosul:
            return len(self.istekler) == hedef

    # --- lifecycle -------------------------------------------------------------------------
    def kapat(self) -> None:
        self._kapaniyor.set()  # wakes handlers sleeping in a programmed delay
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kapat()

    # --- used by the handler ---------------------------------------------------------------
    def _kaydet(self, istek: AliciIstek) -> _Yanit:
        with self._kosul:
            self.istekler.append(istek)
            yanit = self._yanitlar.popleft() if self._yanitlar else _Yanit(
                self.varsayilan_durum, self.varsayilan_gecikme, b""
            )
            self._kosul.notify_all()
        return yanit


def _handler_sinifi(alici: WebhookAlici):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _isle(self):
            uzunluk = int(self.headers.get("Content-Length") or 0)
            govde = self.rfile.read(uzunluk) if uzunluk else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            yanit = alici._kaydet(AliciIstek(self.command, self.path, headers, govde))
            if yanit.gecikme and alici._kapaniyor.wait(yanit.gecikme):
                self.close_connection = True  # shutting down: never answer
                return
            try:
                self.send_response(yanit.durum)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(yanit.govde)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(yanit.govde)
            except OSError:
                pass  # the sender gave up (timeout) before we answered: that is the point of a delay

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _isle

        def log_message(self, *args):
            pass

    return Handler
