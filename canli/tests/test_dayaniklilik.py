"""A socket that meets the unexpected (CONTRACT 11): a malformed frame gets `hata GECERSIZ_ISTEK`
and the socket stays open."""
import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]

# ~3 KB, under the 4096-byte frame limit; json.loads of it raises RecursionError (not ValueError).
DERIN = '{"tip":"yaziyor","data":{"x":' + "[" * 1500 + "]" * 1500 + "}}"


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
