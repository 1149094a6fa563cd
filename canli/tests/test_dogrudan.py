"""The fan-out's direct publisher (canli.dogrudan, issue 41): what it publishes from sync code is
received through the channel layer's own `group_add` / `receive`, as a socket process receives
it; a layer it cannot stand in for is left to the layer; a dead Redis is logged, never raised.
Skipped without REDIS_URL (CI has it)."""
import asyncio
import logging
import socket
import threading
import time

import pytest
from channels.layers import get_channel_layer

from canli import dogrudan, yayin


@pytest.fixture
def redis_katmani():
    if dogrudan.yayinci(get_channel_layer()) is None:
        pytest.skip("Redis pub/sub katmanı yok (REDIS_URL).")
    return get_channel_layer()


def _katmandan_al(katman, gruplar: list[str], yayinla) -> list[dict]:
    """Join `gruplar` through the layer, call `yayinla()` from another thread (sync code, as an
    after-commit hook), and return what each group's member received."""

    async def al():
        kanallar = []
        for grup in gruplar:
            kanal = await katman.new_channel()
            await katman.group_add(grup, kanal)
            kanallar.append(kanal)
        try:
            is_parcacigi = threading.Thread(target=yayinla)
            is_parcacigi.start()
            alinan = [await asyncio.wait_for(katman.receive(k), 5) for k in kanallar]
            is_parcacigi.join()
            return alinan
        finally:
            for grup, kanal in zip(gruplar, kanallar, strict=True):
                await katman.group_discard(grup, kanal)
            await katman.flush()

    return asyncio.run(al())


def test_bir_olayin_iki_grubu_tek_gidiste_katmanin_kendi_aboneligine_varir(redis_katmani):
    gruplar = ["operator.musteri.991", "ziyaretci.991.dogrudan"]
    alinan = _katmandan_al(redis_katmani, gruplar, lambda: yayin.gruba_gonder(
        "olay-1", [(gruplar[0], "mesaj", {"mesaj": {"icerik": "Merhaba ğüşiöç"}}),
                   (gruplar[1], "mesaj", {"mesaj": {"icerik": "Merhaba ğüşiöç"}, "onceki_id": None})]))
    assert [m["type"] for m in alinan] == ["cerceve", "cerceve"]
    assert {m["olay_id"] for m in alinan} == {"olay-1"} and all(m["coklu"] for m in alinan)
    assert alinan[0]["metin"] == '{"tip":"mesaj","data":{"mesaj":{"icerik":"Merhaba ğüşiöç"}}}'
    assert '"onceki_id":null' in alinan[1]["metin"]


def test_tek_grup_ve_uyelik_degisikligi_de_ayni_yoldan_gider(redis_katmani):
    alinan = _katmandan_al(redis_katmani, ["operator.kullanici.992"],
                           lambda: yayin.uyelik_degisti_bildir("operator.kullanici.992"))
    assert alinan == [{"type": "uyelik.degisti"}]
    alinan = _katmandan_al(redis_katmani, ["operator.kullanici.992"], lambda: yayin.gruba_gonder(
        "olay-2", [("operator.kullanici.992", "operator_durumu", {"durum": "mesgul"})]))
    assert alinan[0]["coklu"] is False and alinan[0]["olay_id"] == "olay-2"


def test_baska_bir_katman_katmanin_kendisine_birakilir(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    assert dogrudan.yayinci(get_channel_layer()) is None
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": dogrudan.PUBSUB_KATMANI, "CONFIG": {
        "hosts": ["redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1"]}}}
    assert dogrudan.yayinci(get_channel_layer()) is None  # two shards: the layer picks the shard
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": dogrudan.PUBSUB_KATMANI, "CONFIG": {
        "hosts": [{"sentinels": [("127.0.0.1", 26379)], "master_name": "m"}]}}}
    assert dogrudan.yayinci(get_channel_layer()) is None


def test_ulasilamayan_redis_kaydedilir_firlatilmaz(settings, caplog):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": dogrudan.PUBSUB_KATMANI, "CONFIG": {
        "hosts": ["redis://127.0.0.1:1/0"], "prefix": "asgi-yok"}}}
    assert dogrudan.yayinci(get_channel_layer()) is not None
    with caplog.at_level(logging.WARNING, logger="supportdesk.canli"):
        yayin.gruba_gonder("olay-3", [("operator.musteri.993", "chat_yeni", {"oturum": {}})])
    assert "olay-3" in caplog.text and "gönderilemedi" in caplog.text
    assert settings.REDIS_CONNECT_TIMEOUT <= 1


def test_cevap_vermeyen_redis_bir_sure_sorulmaz(settings, caplog, monkeypatch):
    # A Redis that accepts and never answers (a host dropping packets holds a thread as long): the
    # first publish waits for the socket timeout; the next ones within SUSKUNLUK are dropped at
    # once, without a connection (the listener counts them); after it, Redis is asked again.
    dinleyici = socket.create_server(("127.0.0.1", 0))
    baglantilar = []

    def kabul_et():
        while True:
            try:
                baglantilar.append(dinleyici.accept()[0])
            except OSError:
                return

    threading.Thread(target=kabul_et, daemon=True).start()
    settings.REDIS_SOCKET_TIMEOUT = 0.3
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": dogrudan.PUBSUB_KATMANI, "CONFIG": {
        "hosts": [f"redis://127.0.0.1:{dinleyici.getsockname()[1]}/0"], "prefix": "asgi-sessiz"}}}
    assert dogrudan.yayinci(get_channel_layer()) is not None
    cerceve = [("operator.musteri.994", "chat_yeni", {"oturum": {}})]
    try:
        with caplog.at_level(logging.WARNING, logger="supportdesk.canli"):
            yayin.gruba_gonder("olay-4", cerceve)
            assert len(baglantilar) == 1 and "olay-4" in caplog.text
            caplog.clear()
            yayin.gruba_gonder("olay-5", cerceve)
        assert len(baglantilar) == 1 and "olay-5" in caplog.text and "denenmeden" in caplog.text
        simdi = time.monotonic()
        monkeypatch.setattr(dogrudan.time, "monotonic", lambda: simdi + dogrudan.SUSKUNLUK + 0.01)
        yayin.gruba_gonder("olay-6", cerceve)
        assert len(baglantilar) == 2  # asked again once the window has passed
    finally:
        dinleyici.close()
        for b in baglantilar:
            b.close()
