"""Socket test helpers: a real WebSocket client (`websockets`) and REST calls over HTTP, both
against the live server process (supportdesk.testing.canli_sunucu)."""
import json
import time

import requests
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from supportdesk.testing.factories import TEST_SIFRE

SURE = 2.0  # CONTRACT 11 tests: a frame arrives within 2 s of the REST call that caused it


class Rest:
    """REST through the live server (so its after-commit hooks run in that process)."""

    def __init__(self, sunucu, *, api_key=None, token=None, origin=None):
        self.sunucu, self.basliklar = sunucu, {}
        if api_key:
            self.basliklar["X-API-Key"] = api_key
        if token:
            self.basliklar["Authorization"] = f"Bearer {token}"
        if origin:
            self.basliklar["Origin"] = origin

    def istek(self, yontem, yol, beklenen=None, **kw):
        res = requests.request(yontem, f"{self.sunucu.url}/api/v1/{yol}", headers=self.basliklar, timeout=10, **kw)
        if beklenen is not None:
            assert res.status_code == beklenen, res.text
        return res

    def post(self, yol, govde=None, beklenen=None, yontem="POST"):
        res = self.istek(yontem, yol, json=govde or {})
        if beklenen is not None:
            assert res.status_code == beklenen, res.text
        return res.json()["data"] if res.ok else res.json()

    def get(self, yol, **params):
        res = self.istek("GET", yol, params=params)
        assert res.status_code == 200, res.text
        return res.json()["data"]


def giris(sunucu, user) -> str:
    res = requests.post(f"{sunucu.url}/api/v1/auth/login", json={"email": user.email, "sifre": TEST_SIFRE}, timeout=10)
    assert res.status_code == 200, res.text
    return res.json()["data"]["token"]


class Soket:
    def __init__(self, url, *, origin=None):
        self.ws = connect(url, origin=origin, open_timeout=5, close_timeout=2, max_size=2**20).__enter__()
        self.alinan: list[dict] = []  # every frame received
        self.bekleyen: list[dict] = []  # received, not yet taken by `bekle`

    def gonder(self, tip, data=None):
        self.ws.send(json.dumps({"tip": tip, "data": data or {}}))

    def bekle(self, tip, sure=SURE, kosul=None) -> dict:
        """The first frame of `tip` (meeting `kosul`) not taken yet, waiting up to `sure` seconds;
        frames of other types stay for later calls."""
        for cerceve in self.bekleyen:
            if cerceve["tip"] == tip and (kosul is None or kosul(cerceve["data"])):
                self.bekleyen.remove(cerceve)
                return cerceve["data"]
        bitis = time.monotonic() + sure
        while True:
            kalan = bitis - time.monotonic()
            assert kalan > 0, f"{tip} çerçevesi {sure} s içinde gelmedi; gelenler: {self.alinan}"
            try:
                cerceve = json.loads(self.ws.recv(timeout=kalan))
            except TimeoutError:
                continue
            self.alinan.append(cerceve)
            if cerceve["tip"] == tip and (kosul is None or kosul(cerceve["data"])):
                return cerceve["data"]
            self.bekleyen.append(cerceve)

    def sessiz(self, sure=0.7) -> list[dict]:
        """Frames arriving within `sure` seconds (for "nothing arrives")."""
        gelen = []
        bitis = time.monotonic() + sure
        while (kalan := bitis - time.monotonic()) > 0:
            try:
                gelen.append(json.loads(self.ws.recv(timeout=kalan)))
            except TimeoutError:
                break
        return gelen

    def kapanis(self, sure=SURE) -> tuple[list[dict], int]:
        """Frames until the server closes, and the close code."""
        gelen = []
        bitis = time.monotonic() + sure
        try:
            while (kalan := bitis - time.monotonic()) > 0:
                try:
                    gelen.append(json.loads(self.ws.recv(timeout=kalan)))
                except TimeoutError:
                    break
        except ConnectionClosed as e:
            return gelen, e.rcvd.code if e.rcvd else None
        raise AssertionError(f"Sunucu {sure} s içinde kapatmadı; gelenler: {gelen}")

    def kapat(self):
        self.ws.close()


def operator_soketi(sunucu, token) -> tuple[Soket, dict]:
    s = Soket(f"{sunucu.ws_url}/ws/v1/operator/")
    s.gonder("kimlik", {"token": token})
    return s, s.bekle("hazir")


def widget_soketi(sunucu, musteri, ziyaretci_id, *, origin=None) -> Soket:
    s = Soket(f"{sunucu.ws_url}/ws/v1/widget/?api_key={musteri.api_key}&ziyaretci_id={ziyaretci_id}", origin=origin)
    # A widget socket has no `hazir`: frames are handled after the connect, so the answer to an
    # unknown frame says the socket is subscribed.
    s.gonder("ping")
    assert s.bekle("hata")["kod"] == "GECERSIZ_ISTEK"
    s.alinan.clear()
    s.bekleyen.clear()
    return s
