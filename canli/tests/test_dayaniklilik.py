"""A socket that meets the unexpected (CONTRACT 11): a malformed frame gets `hata GECERSIZ_ISTEK`
and the socket stays open; a consumer that dies of an exception all the same leaves nothing
behind (its presence entry is closed, so an operator goes offline and a visitor's sockets stop
counting against its limit)."""
import json
import os
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from websockets.exceptions import ConnectionClosed

from canli import gruplar
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, Soket, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]

# ~3 KB, under the 4096-byte frame limit; json.loads of it raises RecursionError (not ValueError).
DERIN = '{"tip":"yaziyor","data":{"x":' + "[" * 1500 + "]" * 1500 + "}}"


def _redis_gerekli():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("Test süreci canlı sunucunun soketlerine kanal katmanıyla ulaşır: REDIS_URL ister.")


def _coktur(grup: str) -> None:
    """A message no handler exists for, sent to the group's sockets in the live server through the
    shared channel layer: Channels' dispatch raises ValueError inside each of those consumers."""
    async_to_sync(get_channel_layer().group_send)(grup, {"type": "boyle.bir.sey.yok"})


def _olu(soket: Soket, sure=3.0) -> int | None:
    """Wait until the server ends the connection; its close code (None: no close frame)."""
    bitis = time.monotonic() + sure
    try:
        while (kalan := bitis - time.monotonic()) > 0:
            try:
                soket.ws.recv(timeout=kalan)
            except TimeoutError:
                break
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None
    raise AssertionError(f"Sunucu {sure} s içinde bağlantıyı bitirmedi.")


def test_derin_ic_ice_json_gecersiz_istek_alir_soket_acik_kalir(canli_sunucu):
    musteri = MusteriFactory()
    op = operator_yap(musteri)
    operator, _ = operator_soketi(canli_sunucu, giris(canli_sunucu, op))
    ziyaretciler = [widget_soketi(canli_sunucu, musteri, "derin") for _ in range(5)]  # CANLI_MAKS_SOKET_ZIYARETCI

    for s in (operator, *ziyaretciler):
        assert len(DERIN.encode()) < 4096
        s.ws.send(DERIN)
        assert s.bekle("hata")["kod"] == "GECERSIZ_ISTEK"

    # Every socket still works: frames in both directions.
    widget = Rest(canli_sunucu, api_key=musteri.api_key)
    oturum = widget.post("widget/chat/start", {"ziyaretci_id": "derin", "mesaj": "Merhaba"}, 201)["oturum"]
    assert operator.bekle("chat_yeni")["oturum"]["id"] == oturum["id"]
    for s in ziyaretciler:
        assert s.bekle("mesaj")["mesaj"]["icerik"] == "Merhaba"
    ziyaretciler[0].gonder("yaziyor", {"oturum_id": oturum["id"]})
    assert operator.bekle("yaziyor") == {"oturum_id": oturum["id"]}
    for s in (operator, *ziyaretciler):
        s.kapat()


def test_coken_ziyaretci_soketleri_sinirda_yer_tutmaz(canli_sunucu):
    # Five sockets of one visitor (the limit) die of an exception at once: they close with 1011
    # and their places are free again at once, not held forever by their presence refresh.
    _redis_gerekli()
    musteri = MusteriFactory()
    acik = [widget_soketi(canli_sunucu, musteri, "coken") for _ in range(5)]
    _coktur(gruplar.ziyaretci(musteri.id, "coken"))
    assert [_olu(s) for s in acik] == [1011] * 5
    yeniler = [widget_soketi(canli_sunucu, musteri, "coken") for _ in range(5)]
    for s in yeniler:
        s.kapat()


def test_coken_operator_soketi_operatoru_cevrimici_birakmaz(canli_sunucu):
    # The operator's only socket dies of an exception: it goes `cevrimdisi` after the closing
    # window (1 s) as after a close, instead of staying online through the dead socket.
    _redis_gerekli()
    musteri = MusteriFactory()
    op1, op2 = operator_yap(musteri), operator_yap(musteri)
    t1 = giris(canli_sunucu, op1)
    s1, _ = operator_soketi(canli_sunucu, t1)
    s2, _ = operator_soketi(canli_sunucu, giris(canli_sunucu, op2))
    Rest(canli_sunucu, token=t1).post("operator/status", {"durum": "cevrimici"}, 200)
    assert s2.bekle("operator_durumu")["durum"] == "cevrimici"
    time.sleep(1.2)  # past the REST window (1 s): only the socket keeps op1 online

    _coktur(gruplar.operator_kullanici(op1.id))
    assert _olu(s1) == 1011
    assert s2.bekle("operator_durumu", sure=4) == {"operator_id": op1.id, "durum": "cevrimdisi",
                                                   "musteri_idleri": [musteri.id]}
    # The colleague's socket was not in op1's group: untouched.
    s2.ws.send(json.dumps({"tip": "selam", "data": {}}))
    assert s2.bekle("hata")["kod"] == "GECERSIZ_ISTEK"
    s2.kapat()
