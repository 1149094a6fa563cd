"""Frames out of order, in the widget in headless Chromium (issue 38): many operator answers in one
chat written at once through two web processes reach the widget's socket in publishing order, not
stored order; the widget shows every line once, in the stored order (it sees a gap by a frame's
`onceki_id` and reads with `sonra`, docs/api.md)."""
import threading

import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .test_widget_tarayici import _sayfa, _sohbet_baslat, ev_sahibi  # noqa: F401  (fixture)
from .yardimci import Rest, giris

pytestmark = TARAYICI_ISARETLERI

ADET = 40


@pytest.fixture
def tarayici():
    with chromium() as browser:
        yield browser


def test_widget_es_zamanli_mesajlari_saklanan_sirada_bir_kez_gosterir(tarayici, ev_sahibi, canli_sunucu_baslat):  # noqa: F811
    a, b = canli_sunucu_baslat(), canli_sunucu_baslat()
    musteri = MusteriFactory()
    context, page, site = _sayfa(tarayici, ev_sahibi, a, musteri)
    with page.expect_websocket(lambda ws: "/ws/v1/widget/" in ws.url) as bilgi:
        page.goto(site)
    bilgi.value.wait_for_event("framesent")  # the `kimlik` frame: subscribed
    _sohbet_baslat(page, "Sipariş sorusu")
    op = operator_yap(musteri)
    token = giris(a, op)
    operatorler = [Rest(a, token=token), Rest(b, token=token)]
    [oturum] = operatorler[0].get("operator/chats")["oturumlar"]
    operatorler[0].post(f"operator/chat/{oturum['id']}/accept", beklenen=200)

    # The operator's answers, all at once, through both web processes.
    engel = threading.Barrier(ADET)

    def yaz(i):
        engel.wait(timeout=10)
        operatorler[i % 2].post(f"operator/chat/{oturum['id']}/message", {"icerik": f"yanıt {i}"}, 201)

    parcaciklar = [threading.Thread(target=yaz, args=(i,)) for i in range(ADET)]
    for p in parcaciklar:
        p.start()
    for p in parcaciklar:
        p.join(timeout=60)

    saklanan = [m["id"] for m in operatorler[0].get(f"operator/chat/{oturum['id']}/messages")["mesajlar"]]
    assert len(saklanan) >= ADET + 2
    satirlar = page.locator("[role=log] .m[data-id]")
    # Every line arrived (well before the 30 s poll of an open socket could bring it)...
    satirlar.nth(len(saklanan) - 1).wait_for(timeout=15_000)
    # ... once each, in the stored order.
    assert satirlar.evaluate_all("els => els.map((e) => Number(e.dataset.id))") == saklanan
    context.close()
