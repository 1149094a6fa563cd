"""The socket fan-out's publisher for the Redis pub/sub channel layer (issue 41): an event's layer
messages, one per group, go out from the committing thread itself, in one round trip (a pipeline
of `PUBLISH`es), through this process's one synchronous Redis client.

What it sends is what `group_send` of channels-redis' `RedisPubSubChannelLayer` sends: the
message serialized by the layer (`serialize`, so its format and any encryption keys hold), to
the group's pub/sub channel (`<prefix>__group__<group>`, the name its `group_add` subscribes to;
canli/tests/test_dogrudan.py receives through the layer what this publishes, so a change of that
name in channels-redis fails there). Before it, each event's messages joined the runner's ordered
line and were sent by the layer's asyncio connection on its loop, one awaited `PUBLISH` per group
after a cross-thread wake-up: 0.48 ms of CPU per visitor message on the runner's thread, against
the floor's one synchronous `PUBLISH` (docs/performance.md).

Order: a thread publishes its events in the order of its commits, as it handed them to the ordered
line before; across threads and processes frames could always swap, and a `mesaj` frame names its
predecessor for that (`onceki_id`, docs/architecture.md). A dead Redis is learnt fast (the short
timeouts and no retries of the service's other Redis clients); the caller logs it and goes on. An
unreachable Redis is not asked again for `SUSKUNLUK` seconds: a host that drops packets would
otherwise hold every committing thread for the connect timeout, once per event (the runner's line
held them before); the frames meanwhile are lost, and clients re-read by polling, as with any
failed publish.
"""
import time

import redis
from django.conf import settings

from supportdesk.core.redis_adresi import hizli_istemci

PUBSUB_KATMANI = "channels_redis.pubsub.RedisPubSubChannelLayer"
_SEMALAR = ("redis://", "rediss://", "unix://")
SUSKUNLUK = 1.0  # seconds without a publish attempt after Redis could not be reached


class DogrudanYayinci:
    """`yayinla([(group, message), ...])`: the layer's `group_send` of each, in one round trip."""

    def __init__(self, katman, url: str, onek: str):
        self._katman = katman
        self._onek = onek
        self._sessiz_kadar = 0.0  # time.monotonic() until which Redis is not asked (SUSKUNLUK)
        self._istemci = hizli_istemci(url, baglanti_suresi=settings.REDIS_CONNECT_TIMEOUT,
                                      soket_suresi=settings.REDIS_SOCKET_TIMEOUT)

    def kanal(self, grup: str) -> str:
        return f"{self._onek}__group__{grup}"

    def yayinla(self, mesajlar: list[tuple[str, dict]]) -> None:
        if time.monotonic() < self._sessiz_kadar:
            raise redis.ConnectionError("Redis az önce ulaşılamadı; yayın denenmeden atlandı.")  # ceviri: yok
        try:
            if len(mesajlar) == 1:
                grup, mesaj = mesajlar[0]
                self._istemci.publish(self.kanal(grup), self._katman.serialize(mesaj))
                return
            with self._istemci.pipeline(transaction=False) as boru:
                for grup, mesaj in mesajlar:
                    boru.publish(self.kanal(grup), self._katman.serialize(mesaj))
                boru.execute()
        except (redis.ConnectionError, redis.TimeoutError):
            self._sessiz_kadar = time.monotonic() + SUSKUNLUK
            raise


_yayinci: tuple[object, DogrudanYayinci | None] | None = None


def yayinci(katman) -> DogrudanYayinci | None:
    """The publisher for `katman` (the process's default channel layer), or None where the layer is
    not the Redis pub/sub one on a single plain Redis (the in-memory layer of `make run`, a Sentinel
    host, several shards): those publish through the layer itself."""
    global _yayinci
    if _yayinci is None or _yayinci[0] is not katman:
        _yayinci = (katman, _kur(katman))
    return _yayinci[1]


def _kur(katman) -> DogrudanYayinci | None:
    ayar = settings.CHANNEL_LAYERS.get("default", {})
    if ayar.get("BACKEND") != PUBSUB_KATMANI:
        return None
    config = ayar.get("CONFIG", {})
    hosts = config.get("hosts") or []
    if len(hosts) != 1 or not isinstance(hosts[0], str) or not hosts[0].startswith(_SEMALAR):
        return None
    return DogrudanYayinci(katman, hosts[0], config.get("prefix", "asgi"))
