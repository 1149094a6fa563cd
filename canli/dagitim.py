"""The socket process's local fan-out (issue 32): one subscriber per process, one encoding per event.

Channels and channels-redis carry an event between processes; inside a socket process it no longer
goes through Channels' per-consumer path (a channel per socket, a queue, a msgpack decode and a
task per socket and frame). Each process (each event loop) has one `Dagitici`:

- the first time one of its sockets joins a group (`katil`) it opens one channel of the layer for
  that group, adds it to the group and reads it in one task; when the group's last local socket
  leaves (`ayril`) it drops both: the event reaches the process once per group, whatever the
  number of its sockets there (the channel says which group a message is for, so the published
  messages are the same as before);
- it keeps the groups' members locally (group name -> this process's sockets in it) and, for each
  frame (`cerceve`), encodes the WebSocket frame once (`cerceve_baytlari`: the JSON text the
  publisher built, as UTF-8 behind the frame header) and writes those same bytes to every local
  socket of the group (`_HamYazici.yaz`: the connection's transport, no per-socket encoding);
- an event sent to two groups one socket is in (an operator of two tenants) reaches it once: the
  publisher marks such events (`coklu`) and the fan-out remembers, for the last few of them, which
  sockets it wrote them to;
- control messages (`uyelik.degisti`) are handed to each local member's handler.

A socket whose connection cannot be written directly (another ASGI server, permessage-deflate
negotiated, or the Channels test communicator) gets the same text through its own ordered line
(`_Soket.siraya_koy`), still without a channel of its own. Before its `hazir` (and while its
tenants change) a socket's frames wait in that line, so `hazir` stays its first frame and a new
tenant's frames follow the fresh `hazir`, as before.

Nothing here knows frame types: a new frame is a new entry in `canli.yayin._CEVIRICILER` (and its
listener in `canli.dinleyiciler`), as before; docs/architecture.md, "Real-time".
"""
import asyncio
import logging
import weakref
from collections import OrderedDict

from channels.layers import get_channel_layer
from django.conf import settings
from websockets.frames import Frame, Opcode

try:  # the server README and the tests run (uvicorn's default WebSocket implementation)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - another ASGI server: every socket takes its own line
    WebSocketsSansIOProtocol = None

logger = logging.getLogger("supportdesk.canli")

COKLU_HAFIZA = 256  # events sent to several groups whose receivers are remembered (repeat suppression)


def cerceve_baytlari(metin: str) -> bytes:
    """A text frame as the server writes it (unmasked, FIN, no extension), by the same library
    uvicorn's implementation uses."""
    return Frame(Opcode.TEXT, metin.encode()).serialize(mask=False)


class _HamYazici:
    """Writes ready frame bytes to one uvicorn connection, as its own `send` would have written
    them, or says it cannot (then the socket's line sends the text through ASGI)."""

    __slots__ = ("baglanti",)

    def __init__(self, baglanti):
        self.baglanti = baglanti

    @classmethod
    def bul(cls, send) -> "_HamYazici | None":
        baglanti = getattr(send, "__self__", None)
        if WebSocketsSansIOProtocol is None or not isinstance(baglanti, WebSocketsSansIOProtocol):
            return None
        return cls(baglanti)

    def yaz(self, baytlar: bytes) -> bool:
        b = self.baglanti
        # What uvicorn's `send` checks for a `websocket.send`: handshake done, no close sent, not
        # an HTTP answer, connection still there; and no extension (deflate frames differ per socket).
        if not b.handshake_complete or b.close_sent or b.disconnected or b.initial_response is not None \
                or b.conn.extensions or b.transport is None or b.transport.is_closing():
            return False
        tasima = b.transport
        if tasima.get_write_buffer_size() > settings.CANLI_YAZMA_TAMPONU_SINIRI:
            # A client that does not read: uvicorn's `send` would wait for it forever (and before,
            # its channel's queue dropped frames once full). Its connection is cut; it reconnects
            # and re-reads with `sonra=` (CONTRACT 11), and nobody else waits for it.
            logger.warning("Soket okumayan bir istemciye %d bayt biriktirdi; bağlantı kesildi.",
                           tasima.get_write_buffer_size())
            tasima.abort()
            return True
        tasima.write(baytlar)
        return True


class _Grup:
    __slots__ = ("uyeler", "kanal", "gorev")

    def __init__(self, kanal: str):
        self.uyeler: set = set()  # this process's sockets in the group
        self.kanal = kanal
        self.gorev: asyncio.Task | None = None


class Dagitici:
    def __init__(self):
        self.gruplar: dict[str, _Grup] = {}
        self.kilit = asyncio.Lock()  # the layer's group_add / group_discard, one at a time
        self.coklu: OrderedDict[str, set] = OrderedDict()  # olay_id -> sockets already written (coklu events)
        # Counters (a test counts encodings, docs/performance.md reads them in profiles).
        self.kodlanan = 0
        self.yazilan = 0
        self.siraya_konan = 0

    async def katil(self, soket, adlar) -> None:
        for ad in adlar:
            grup = self.gruplar.get(ad)
            if grup is None:
                async with self.kilit:
                    grup = self.gruplar.get(ad)
                    if grup is None:
                        katman = get_channel_layer()
                        grup = _Grup(await katman.new_channel("canli."))
                        await katman.group_add(ad, grup.kanal)
                        grup.gorev = asyncio.get_running_loop().create_task(self._dinle(katman, grup))
                        self.gruplar[ad] = grup
            grup.uyeler.add(soket)

    async def ayril(self, soket, adlar) -> None:
        for ad in adlar:
            grup = self.gruplar.get(ad)
            if grup is None:
                continue
            grup.uyeler.discard(soket)
            if grup.uyeler:
                continue
            async with self.kilit:
                if self.gruplar.get(ad) is grup and not grup.uyeler:
                    del self.gruplar[ad]  # before the await: a socket joining meanwhile subscribes again
                    grup.gorev.cancel()
                    try:
                        await get_channel_layer().group_discard(ad, grup.kanal)
                    except Exception:
                        logger.warning("Süreç %s grubundan çıkarılamadı.", ad, exc_info=True)

    async def _dinle(self, katman, grup: _Grup):
        while True:
            try:
                mesaj = await katman.receive(grup.kanal)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("Kanal katmanından okunamadı; yeniden denenecek.", exc_info=True)
                await asyncio.sleep(1)
                continue
            try:
                self.isle(grup.uyeler, mesaj)
            except Exception:
                logger.exception("Canlı mesaj dağıtılamadı.")

    def isle(self, kume: set, mesaj: dict) -> None:
        """One message of the layer, for the local members of its group (no await: frames go out
        in the order they came, and none waits for a slow socket)."""
        if not kume:
            return
        if mesaj.get("type") != "cerceve":
            for soket in tuple(kume):
                soket.kontrol_mesaji(mesaj)
            return
        metin = mesaj["metin"]
        alicilar = tuple(kume)
        if mesaj.get("coklu"):
            yazilmis = self.coklu.get(mesaj["olay_id"])
            if yazilmis is None:
                yazilmis = self.coklu[mesaj["olay_id"]] = set()
                if len(self.coklu) > COKLU_HAFIZA:
                    self.coklu.popitem(last=False)
            alicilar = [s for s in alicilar if s not in yazilmis]
            yazilmis.update(alicilar)
        baytlar = None
        for soket in alicilar:
            if soket.kapaniyor:
                continue
            yazici = soket.yazici
            if yazici is not None and soket.akis_acik and not soket.giden:
                if baytlar is None:
                    baytlar = cerceve_baytlari(metin)
                    self.kodlanan += 1
                if yazici.yaz(baytlar):
                    self.yazilan += 1
                    continue
            self.siraya_konan += 1
            soket.siraya_koy(metin)


_dagiticilar: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Dagitici]" = weakref.WeakKeyDictionary()


def dagitici() -> Dagitici:
    """This event loop's fan-out (one per socket process; tasks cannot cross loops)."""
    dongu = asyncio.get_running_loop()
    d = _dagiticilar.get(dongu)
    if d is None:
        d = _dagiticilar[dongu] = Dagitici()
    return d
