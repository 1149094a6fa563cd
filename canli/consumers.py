"""The two sockets of CONTRACT 11. They only push: REST stays the only way to write.

Both accept the WebSocket first, so that a refusal can say why: one `hata` frame, then the close
code (4401 credentials, 4403 origin or identity, 4429 limits). Frames published by `canli.yayin`
reach a socket through its process's local fan-out (`canli.dagitim`): one layer subscription per
process and group, each frame encoded once per process and written to every local member; one
event sent to two groups a socket is in (an operator of two tenants) is delivered once. A socket
has no channel of its own on the layer.
"""
import asyncio
import json
import logging
import time
import uuid
import weakref
from collections import deque
from types import SimpleNamespace
from urllib.parse import parse_qsl

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext_lazy

from chat.services import chat_operator_okudu, chat_ziyaretci_okudu
from supportdesk.core import gunluk, varlik
from supportdesk.core.dil import dilde, tarayici_dili, widget_dili

from . import dagitim, gruplar, soket_izni, yayin
from .soket_izni import Ret
from .varlik_tarama import taramayi_baslat

logger = logging.getLogger("supportdesk.canli")

YAZIYOR_ARALIGI = 2.0  # at most one `yaziyor` per chat every 2 s (CONTRACT 11)
KOPMA_KODLARI = frozenset({1005, 1006})  # `websocket.disconnect` codes of a connection lost without a close frame


class _Soket(AsyncWebsocketConsumer):
    kimlik_beklenir = True
    # No channel of the layer per socket (Channels makes one, with its queue and a receive task,
    # when the alias names a layer): the process's fan-out (`canli.dagitim`) subscribes once for
    # all its sockets. An alias that names no layer leaves `channel_layer` None.
    channel_layer_alias = "canli-soketin-kanali-yok"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.soket_id = uuid.uuid4().hex
        self.gruplar: list[str] = []
        self.yazici: dagitim._HamYazici | None = None  # set in __call__ when the connection can take ready bytes
        self.akis_acik = False  # frames go straight out (False: they wait in `giden` until `hazir` is out)
        self.giden: deque[str] | None = None  # frames waiting for this socket, in order
        self.giden_gorevi: asyncio.Task | None = None
        self.kontrol_gorevleri: set[asyncio.Task] = set()  # layer messages being handled (`kontrol_mesaji`)
        self.cerceve_zamanlari: deque[float] = deque()
        self.yaziyor_son: dict[int, float] = {}
        self.hazir = False  # counted in the presence store (`say_ve_hazirla`): to be closed there
        self.kapaniyor = False
        self.istemci_gitti = False
        self.koptu = False  # the connection ended without a closing handshake (issue 39)
        self.temizlendi = False
        self.gorevler: list[asyncio.Task] = []
        # The language of the socket's `hata` frames (CONTRACT 19): an operator socket speaks its
        # user's, a widget socket its widget's (the language its chats are made in); until they
        # are known, the handshake's Accept-Language, else the default.
        self.dil: str | None = None

    async def __call__(self, scope, receive, send):
        # Channels calls `disconnect` only for the client's `websocket.disconnect`: an exception
        # in any handler ends the consumer without it, and the socket's tasks (the presence
        # refresh above all) would live on, keeping an operator online and a visitor's socket
        # counted forever. Whatever ends the consumer, `_temizle` runs.
        # Its log lines carry the connection's id, `ws-<soket_id>` (CONTRACT 20), and the caller once known.
        tokenlar = gunluk.istek_baslat(f"ws-{self.soket_id}")
        acilis = time.monotonic()
        self.yazici = dagitim._HamYazici.bul(send)
        try:
            await super().__call__(scope, receive, self._istemci_gittiyse_birak(send))
        except Exception:
            logger.exception("Soket beklenmedik bir hatayla kapandı.")
            try:
                await self.close(code=1011)  # "internal error": the client learns the socket is gone
            except Exception:
                logger.debug("Soket 1011 ile kapatılamadı.", exc_info=True)
        finally:
            await self._temizle()
            if settings.ISTEK_GUNLUGU:
                gunluk.soket_kapandi(type(self).__name__, self.scope.get("path", ""), time.monotonic() - acilis)
            gunluk.istek_bitir(tokenlar)

    def _istemci_gittiyse_birak(self, send):
        """The server's `send`, made quiet once the client has gone. A refusal (4429 above all: a
        client over its limit tends to be one that drops connections) or a frame may find the
        client gone between its connect and our answer; uvicorn then raises ClientDisconnected (an
        OSError) from `send`. That is no error of ours: the frame is dropped, and the consumer ends
        on the `websocket.disconnect` the server has queued, cleaning up as after any close."""
        async def gonder(message):
            if self.istemci_gitti:
                return
            try:
                await send(message)
            except OSError:
                self.istemci_gitti = self.kapaniyor = True
                logger.debug("İstemci gitmiş; %s gönderilmedi.", message.get("type"))
        return gonder

    async def connect(self):
        taramayi_baslat()
        await self.accept()
        try:
            await self.baglaninca()
        except Ret as ret:
            await self.reddet(ret)
            return
        if not self.hazir:
            self.gorevler.append(asyncio.create_task(self._kimlik_zaman_asimi()))

    async def baglaninca(self):
        raise NotImplementedError

    async def kimlik_gelince(self, data: dict):
        raise NotImplementedError

    async def istemci_cercevesi(self, tip: str, data: dict):
        raise NotImplementedError

    async def _kimlik_zaman_asimi(self):
        await asyncio.sleep(settings.CANLI_KIMLIK_SURESI)
        if not self.hazir and not self.kapaniyor:
            await self.reddet(Ret(4401, "KIMLIK_GEREKLI", gettext_lazy("Kimlik çerçevesi zamanında gelmedi.")))

    async def reddet(self, ret: Ret):
        if self.kapaniyor:
            return
        self.kapaniyor = True
        await self.gonder("hata", {"kod": ret.kod, "mesaj": self.metin(ret.mesaj)})
        await self.close(code=ret.kapanis)

    def el_sikismasi(self) -> SimpleNamespace:
        """The handshake as far as `supportdesk.core.dil` reads a request: its Accept-Language."""
        return SimpleNamespace(META={"HTTP_ACCEPT_LANGUAGE": _baslik(self.scope, b"accept-language") or ""})

    def metin(self, mesaj) -> str:
        """A (lazy) message in the socket's language."""
        with dilde(self.dil or tarayici_dili(self.el_sikismasi())):
            return str(mesaj)

    async def gonder(self, tip: str, data: dict):
        await self.send(text_data=yayin.cerceve_metni(tip, data))

    async def gruplara_katil(self, adlar: list[str]):
        self.gruplar.extend(adlar)  # first: `_temizle` leaves them all, even if joining fails half-way
        await dagitim.dagitici().katil(self, adlar)

    # --- frames from the process's fan-out (canli.dagitim) ---------------------------------
    def siraya_koy(self, metin: str) -> None:
        """A frame this socket cannot take as ready bytes now: it waits in the socket's line (in
        order, behind any before it) and goes out through ASGI's `send`."""
        if self.giden is None:
            self.giden = deque()
        self.giden.append(metin)
        self._gideni_bosalt()

    def akisi_ac(self) -> None:
        """From here on frames go out (called once `hazir` has been sent)."""
        self.akis_acik = True
        self._gideni_bosalt()

    def _gideni_bosalt(self) -> None:
        if self.akis_acik and self.giden and (self.giden_gorevi is None or self.giden_gorevi.done()):
            self.giden_gorevi = asyncio.get_running_loop().create_task(self._giden_gonder())

    async def _giden_gonder(self):
        while self.giden and self.akis_acik and not self.kapaniyor:
            metin = self.giden.popleft()
            try:
                await self.send(text_data=metin)
            except Exception:
                logger.debug("Çerçeve gönderilemedi.", exc_info=True)
        if self.kapaniyor and self.giden:
            self.giden.clear()

    def kontrol_mesaji(self, mesaj: dict) -> None:
        """A layer message that is not a frame (`uyelik.degisti`): Channels' dispatch (the handler
        named by its type) in a task of its own."""
        if self.kapaniyor:
            return
        gorev = asyncio.get_running_loop().create_task(self._kontrol(mesaj))
        self.kontrol_gorevleri.add(gorev)
        gorev.add_done_callback(self.kontrol_gorevleri.discard)

    async def _kontrol(self, mesaj: dict):
        # As when the message came through the consumer's own channel: a handler's exception (or
        # a type with no handler) ends the socket with 1011 and cleans it up (`__call__`).
        try:
            await self.dispatch(mesaj)
        except Exception:
            logger.exception("Soket beklenmedik bir hatayla kapandı.")
            try:
                await self.close(code=1011)
            except Exception:
                logger.debug("Soket 1011 ile kapatılamadı.", exc_info=True)
            await self._temizle()

    # --- frames from the client -----------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if self.kapaniyor:
            return
        # Refused before anything else, authentication included (the server has bounded the read:
        # uvicorn's --ws-max-size). A text frame longer in characters than the limit is over it in
        # bytes too: no UTF-8 copy of a large frame is made to find that out.
        if text_data is not None:
            boyut = len(text_data) if len(text_data) > settings.CANLI_MAKS_CERCEVE_BAYT else len(text_data.encode())
        else:
            boyut = len(bytes_data or b"")
        simdi = time.monotonic()
        self.cerceve_zamanlari.append(simdi)
        while self.cerceve_zamanlari and self.cerceve_zamanlari[0] <= simdi - 1:
            self.cerceve_zamanlari.popleft()
        if boyut > settings.CANLI_MAKS_CERCEVE_BAYT:
            return await self.reddet(Ret(4429, "LIMIT_ASILDI", gettext_lazy("Çerçeve çok büyük.")))
        if len(self.cerceve_zamanlari) > settings.CANLI_MAKS_CERCEVE_SANIYE:
            return await self.reddet(Ret(4429, "LIMIT_ASILDI", gettext_lazy("Saniyede çok fazla çerçeve.")))
        try:
            cerceve = json.loads(text_data) if text_data is not None else None
        except (ValueError, RecursionError):  # RecursionError: deeply nested arrays, well under the size limit
            cerceve = None
        if not isinstance(cerceve, dict) or not isinstance(cerceve.get("tip"), str) \
                or not isinstance(cerceve.get("data", {}), dict):
            return await self.gecersiz(gettext_lazy("Çerçeve {\"tip\", \"data\"} biçiminde bir JSON nesnesi olmalı."))
        tip, data = cerceve["tip"], cerceve.get("data") or {}
        try:
            if tip == "kimlik" and not self.hazir:
                await self.kimlik_gelince(data)
            elif self.hazir and tip in ("yaziyor", "okundu"):
                await self.istemci_cercevesi(tip, data)
            else:
                await self.gecersiz(gettext_lazy("Bilinmeyen ya da beklenmeyen çerçeve."))
        except Ret as ret:
            await self.reddet(ret)

    async def gecersiz(self, mesaj: str):
        await self.gonder("hata", {"kod": "GECERSIZ_ISTEK", "mesaj": self.metin(mesaj)})

    def _yaziyor_izinli(self, oturum_id: int) -> bool:
        simdi = time.monotonic()
        if simdi - self.yaziyor_son.get(oturum_id, -YAZIYOR_ARALIGI) < YAZIYOR_ARALIGI:
            return False
        self.yaziyor_son[oturum_id] = simdi
        return True

    async def isaret_gonder(self, tip: str, data: dict, oturum, hedefler: list[str]):
        """Relay the client's `yaziyor` / `okundu` for a chat it may see to the other side."""
        if oturum is None:
            return await self.gecersiz(gettext_lazy("Sohbet bulunamadı."))
        veri = {"oturum_id": oturum.id}
        if tip == "okundu":
            mesaj_id = data.get("mesaj_id")
            if isinstance(mesaj_id, bool) or not isinstance(mesaj_id, int) or mesaj_id < 1:
                return await self.gecersiz(gettext_lazy("mesaj_id pozitif bir tam sayı olmalı."))
            veri["mesaj_id"] = mesaj_id
            await self.okundu_kaydet(oturum, mesaj_id)
        elif not self._yaziyor_izinli(oturum.id):
            return
        await yayin.agruba_gonder(uuid.uuid4().hex, [(g, tip, veri) for g in hedefler])

    async def okundu_kaydet(self, oturum, mesaj_id: int):
        """What a side's `okundu` leaves behind besides the relay (nothing, unless overridden)."""

    async def disconnect(self, code):
        # 1005/1006: no close frame came (a killed client, a network gone silent that the
        # server's ping timed out): presence ends after the short window (varlik.soket_kapandi).
        self.koptu = code in KOPMA_KODLARI
        await self._temizle()

    async def _temizle(self):
        """Once, however the consumer ends (the client's close, a refusal, an exception): stop the
        socket's tasks, close its presence entry, leave its groups. Each step is tried on its own,
        so a failing one (Redis down) does not keep the others from running."""
        if self.temizlendi:
            return
        self.temizlendi = self.kapaniyor = True
        for gorev in self.gorevler:
            gorev.cancel()
        if self.giden_gorevi is not None:
            self.giden_gorevi.cancel()
        for gorev in list(self.kontrol_gorevleri):
            if gorev is not asyncio.current_task():
                gorev.cancel()
        if self.hazir:
            yenileyici = _varlik_yenileyici()
            yenileyici.cikar(self)
            try:
                async with yenileyici.kilit:  # never overwritten by a refresh already under way
                    await database_sync_to_async(varlik.soket_kapandi)(anahtar=self.varlik_anahtari, soket_id=self.soket_id,
                                                                       koptu=self.koptu)
            except Exception:
                logger.warning("Soketin varlık kaydı kapatılamadı; süresi dolunca düşecek.", exc_info=True)
        if self.gruplar:
            try:
                await dagitim.dagitici().ayril(self, self.gruplar)
            except Exception:
                logger.warning("Soket gruplarından çıkarılamadı.", exc_info=True)

    async def say_ve_hazirla(self, anahtar, sinir: int):
        self.varlik_anahtari = anahtar
        if not await database_sync_to_async(varlik.soket_ac)(anahtar=anahtar, soket_id=self.soket_id, sinir=sinir):
            raise Ret(4429, "LIMIT_ASILDI", gettext_lazy("Açık bağlantı sınırına ulaşıldı."))
        self.hazir = True
        _varlik_yenileyici().ekle(self)  # kept counted (limits, presence) while open


class WidgetSoketi(_Soket):
    """`/ws/v1/widget/?api_key=…&ziyaretci_id=…` (CONTRACT 11, "Widget socket")."""

    async def baglaninca(self):
        sorgu = _sorgu(self.scope)
        origin = _baslik(self.scope, b"origin")
        ip = (self.scope.get("client") or ["?"])[0]
        self.musteri = await database_sync_to_async(soket_izni.widget_musterisi)(
            api_key=sorgu.get("api_key", ""), origin=origin, ip=ip
        )
        gunluk.baglam_ekle(musteri_id=self.musteri.pk)
        self.dil = widget_dili(self.musteri, self.el_sikismasi())
        self.ziyaretci_id = soket_izni.ziyaretci_kimligi(sorgu.get("ziyaretci_id"))
        try:
            await database_sync_to_async(soket_izni.ziyaretci_erisimi_dogrula)(
                musteri=self.musteri, ziyaretci_id=self.ziyaretci_id, token=None
            )
        except Ret:
            return  # a bound visitor: its token comes in the `kimlik` frame within the time allowed
        await self._hazirla()

    async def kimlik_gelince(self, data: dict):
        token = data.get("ziyaretci_token")
        self.token = token if isinstance(token, str) and len(token) <= 4096 else None
        await database_sync_to_async(soket_izni.ziyaretci_erisimi_dogrula)(
            musteri=self.musteri, ziyaretci_id=self.ziyaretci_id, token=self.token
        )
        await self._hazirla()
        # The portal can revoke a visitor's tokens: re-checked like an operator's token.
        self.gorevler.append(asyncio.create_task(self._token_denetle()))

    async def _token_denetle(self):
        while not self.kapaniyor:
            await asyncio.sleep(settings.CANLI_TOKEN_KONTROL_ARALIGI)
            try:
                await database_sync_to_async(soket_izni.ziyaretci_erisimi_dogrula)(
                    musteri=self.musteri, ziyaretci_id=self.ziyaretci_id, token=self.token
                )
            except Ret as ret:
                await self.reddet(ret)
                return

    async def _hazirla(self):
        await self.say_ve_hazirla(varlik.ziyaretci_anahtari(self.musteri.pk, self.ziyaretci_id),
                                  settings.CANLI_MAKS_SOKET_ZIYARETCI)
        await self.gruplara_katil([gruplar.ziyaretci(self.musteri.pk, self.ziyaretci_id)])
        self.akisi_ac()  # a widget socket has no `hazir`: frames flow once it is in its group

    async def istemci_cercevesi(self, tip: str, data: dict):
        oturum = await database_sync_to_async(soket_izni.ziyaretci_oturumu)(
            musteri=self.musteri, ziyaretci_id=self.ziyaretci_id, oturum_id=data.get("oturum_id")
        )
        hedefler = yayin.operator_gruplari(oturum) if oturum is not None else []
        await self.isaret_gonder(tip, data, oturum, hedefler)

    async def okundu_kaydet(self, oturum, mesaj_id: int):
        # Kept before the relay, so a console reloaded after the frame still shows the read marks.
        await database_sync_to_async(chat_ziyaretci_okudu)(oturum_id=oturum.id, mesaj_id=mesaj_id)


class OperatorSoketi(_Soket):
    """`/ws/v1/operator/`: first frame `kimlik {"token"}` (CONTRACT 11, "Operator socket").

    The socket belongs to the user's tenants as they are now, not as they were at `kimlik`: they
    are re-read on every token re-check (`_TokenBekcisi`) and at once when a membership of the user
    is created or deleted or one of its tenants deactivated (`uyelik_degisti`, sent by
    `canli.yayin`); see `uyelikleri_yenile`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.musteri_idleri: list[int] = []
        self.uyelik_kilidi = asyncio.Lock()  # one re-read and its group changes at a time; and none after `_temizle`

    async def baglaninca(self):
        return None  # everything waits for the `kimlik` frame

    async def kimlik_gelince(self, data: dict):
        token = data.get("token")
        kullanici_id, musteri_idleri, _, self.dil = await database_sync_to_async(soket_izni.operator_kimligi)(token)
        self.token, self.kullanici_id, self.musteri_idleri = token, kullanici_id, musteri_idleri
        gunluk.baglam_ekle(kullanici_id=kullanici_id)
        await self.say_ve_hazirla(kullanici_id, settings.CANLI_MAKS_SOKET_OPERATOR)
        await self.gruplara_katil([gruplar.operator_kullanici(kullanici_id),
                                   *(gruplar.operator_musteri(m) for m in musteri_idleri)])
        _token_bekcisi().ekle(self)
        await self.gonder("hazir", {"musteri_idleri": musteri_idleri})
        self.akisi_ac()  # frames published since the groups were joined wait until here: `hazir` is first

    async def _temizle(self):
        self.kapaniyor = True  # a re-read under way changes no group from here on
        if getattr(self, "token", None) is not None:
            _token_bekcisi().cikar(self)
        async with self.uyelik_kilidi:  # one that is changing them finishes first: every group it joined is left
            await super()._temizle()

    async def uyelik_degisti(self, mesaj: dict):
        """Channel-layer message `uyelik.degisti` (`canli.yayin.uyelik_degisti_bildir`): a membership of
        this user was created or deleted, or one of its tenants deactivated."""
        await self.uyelikleri_yenile()

    async def uyelikleri_yenile(self):
        """Re-read the user's tenants. When they changed: the socket leaves the groups of tenants left
        and joins those of tenants joined, its frames (`yaziyor`, `okundu`) are checked against the new
        list (a tenant left is refused as any other tenant's), and the client gets a fresh `hazir`
        with the new `musteri_idleri`. With no tenant left the socket is closed (4403 `YETKISIZ`)."""
        async with self.uyelik_kilidi:
            if self.kapaniyor or not self.hazir:
                return
            try:
                yeni = await database_sync_to_async(soket_izni.kullanicinin_musterileri)(self.kullanici_id)
            except Exception:
                logger.warning("Operatörün projeleri okunamadı; sonraki denetimde yeniden denenecek.", exc_info=True)
                return
            eski = set(self.musteri_idleri)
            if self.kapaniyor or set(yeni) == eski:
                return
            self.musteri_idleri = yeni
            if not yeni:
                await self.reddet(Ret(4403, "YETKISIZ", gettext_lazy("Artık hiçbir projenin üyesi değilsiniz.")))
                return
            # Frames wait from here until the fresh `hazir` is out: a new tenant's frames follow it.
            self.akis_acik = False
            birakilan = [gruplar.operator_musteri(m) for m in eski.difference(yeni)]
            for ad in birakilan:
                self.gruplar.remove(ad)
            try:
                await dagitim.dagitici().ayril(self, birakilan)
                await self.gruplara_katil([gruplar.operator_musteri(m) for m in yeni if m not in eski])
                await self.gonder("hazir", {"musteri_idleri": yeni})
            finally:
                self.akisi_ac()

    async def istemci_cercevesi(self, tip: str, data: dict):
        oturum = await database_sync_to_async(soket_izni.operator_oturumu)(
            musteri_idleri=self.musteri_idleri, oturum_id=data.get("oturum_id")
        )
        hedefler = [gruplar.ziyaretci(oturum.musteri_id, oturum.ziyaretci_id)] if oturum is not None else []
        await self.isaret_gonder(tip, data, oturum, hedefler)

    async def okundu_kaydet(self, oturum, mesaj_id: int):
        # Kept before the relay (issue 39), so a widget reloaded after the frame still shows the
        # read marks of the visitor's messages (`oturum.operator_son_okunan`).
        await database_sync_to_async(chat_operator_okudu)(oturum_id=oturum.id, musteri_id=oturum.musteri_id,
                                                          mesaj_id=mesaj_id)


class _TokenBekcisi:
    """Logout, deactivation (and whatever else REST refuses a token for) closes an operator
    socket within CANLI_TOKEN_KONTROL_ARALIGI seconds: the same check as every REST request, run
    once per token and process each interval however many of this process's sockets hold that
    token (an operator's tabs; 500 sockets of one token were 125 checks a second, each a trip to
    the shared sync thread that the sockets' other work queues behind). The same check reads the
    user's tenants: a socket whose tenants differ re-reads them itself (`uyelikleri_yenile`), so
    a membership removed or added, or a tenant deactivated, reaches it within the interval even
    when its `uyelik_degisti` message was lost."""

    def __init__(self):
        self.soketler: dict[str, set[OperatorSoketi]] = {}
        self.gorevler: dict[str, asyncio.Task] = {}

    def ekle(self, soket: "OperatorSoketi") -> None:
        self.soketler.setdefault(soket.token, set()).add(soket)
        if soket.token not in self.gorevler:
            self.gorevler[soket.token] = asyncio.create_task(self._denetle(soket.token))

    def cikar(self, soket: "OperatorSoketi") -> None:
        kume = self.soketler.get(soket.token)
        if kume is None:
            return
        kume.discard(soket)
        if not kume:
            del self.soketler[soket.token]
            self.gorevler.pop(soket.token).cancel()

    async def _denetle(self, token: str) -> None:
        while True:
            await asyncio.sleep(settings.CANLI_TOKEN_KONTROL_ARALIGI)
            try:
                musteri_idleri = await database_sync_to_async(soket_izni.token_musterileri)(token)
            except Exception:
                logger.warning("Operatör tokenı denetlenemedi; sonraki aralıkta yeniden denenecek.", exc_info=True)
                continue
            if musteri_idleri is None:
                break
            # Each socket re-reads under its own lock: this read, older than one made meanwhile on
            # an `uyelik_degisti` message, never undoes it. Only changed sockets cost a query.
            for soket in list(self.soketler.get(token, ())):
                if set(soket.musteri_idleri) != set(musteri_idleri):
                    try:
                        await soket.uyelikleri_yenile()
                    except Exception:
                        logger.warning("Soketin projeleri güncellenemedi.", exc_info=True)
        # Refused: forget the token first, so the sockets' own closing does not cancel this task.
        kume = self.soketler.pop(token, set())
        self.gorevler.pop(token, None)
        for soket in kume:
            try:
                await soket.reddet(Ret(4401, "GECERSIZ_TOKEN", gettext_lazy("Oturum kapatıldı ya da token geçersiz.")))
            except Exception:  # a socket that went away meanwhile; the others still close
                logger.debug("Soket kapatılamadı.", exc_info=True)


class _VarlikYenileyici:
    """Keeps every open socket of this process counted (limits, presence): every TTL / 3 one
    `varlik.soketleri_yenile` for all of them (one thread hop and one Redis round trip), where each
    socket had its own task, hop and round trip (at 2,000 sockets 200 a second, most of an idle
    socket process's CPU). A socket that closes is taken out first and its closing score is
    written under `kilit`, so a refresh under way never makes a closed socket live again."""

    def __init__(self):
        self.soketler: dict[_Soket, None] = {}
        self.kilit = asyncio.Lock()
        self.gorev: asyncio.Task | None = None

    def ekle(self, soket: "_Soket") -> None:
        self.soketler[soket] = None
        if self.gorev is None or self.gorev.done():
            self.gorev = asyncio.get_running_loop().create_task(self._dongu())

    def cikar(self, soket: "_Soket") -> None:
        self.soketler.pop(soket, None)

    async def _dongu(self) -> None:
        while self.soketler:
            await asyncio.sleep(max(0.2, varlik.soket_ttl() / 3))
            async with self.kilit:
                ciftler = [(s.varlik_anahtari, s.soket_id) for s in self.soketler if not s.kapaniyor]
                try:
                    await database_sync_to_async(varlik.soketleri_yenile)(ciftler)
                except Exception:
                    logger.warning("Soketlerin varlık kaydı yenilenemedi.", exc_info=True)


_yenileyiciler: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _VarlikYenileyici]" = weakref.WeakKeyDictionary()


def _varlik_yenileyici() -> _VarlikYenileyici:
    dongu = asyncio.get_running_loop()
    y = _yenileyiciler.get(dongu)
    if y is None:
        y = _yenileyiciler[dongu] = _VarlikYenileyici()
    return y


_bekciler: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _TokenBekcisi]" = weakref.WeakKeyDictionary()


def _token_bekcisi() -> _TokenBekcisi:
    """This event loop's watcher (one per socket process; tasks cannot cross loops)."""
    dongu = asyncio.get_running_loop()
    bekci = _bekciler.get(dongu)
    if bekci is None:
        bekci = _bekciler[dongu] = _TokenBekcisi()
    return bekci


def _sorgu(scope) -> dict[str, str]:
    return dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))


def _baslik(scope, ad: bytes) -> str | None:
    for anahtar, deger in scope.get("headers", []):
        if anahtar == ad:
            return deger.decode("latin-1")
    return None
