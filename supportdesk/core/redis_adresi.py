"""Redis addresses (no Django import: the settings read them): a Redis Cluster's URL,
`redis+cluster://host:port,host:port,...` (issue 44, CONTRACT 26); and the one way the code base
builds a plain Redis client of its own, learning "down" fast (`hizli_istemci`)."""
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

KUME_SEMASI = "redis+cluster"


def kume_mi(url: str | None) -> bool:
    """Whether `url` names a Redis Cluster (`redis+cluster://host:port,...`)."""
    return bool(url) and url.split("://", 1)[0].lower() == KUME_SEMASI


def kume_dugumleri(url: str) -> list[tuple[str, int]]:
    """The (host, port) pairs of a cluster URL; a database number is refused (a cluster has one)."""
    govde = url.split("://", 1)[1]
    adresler, _, yol = govde.partition("/")
    if yol.split("?")[0] not in ("", "0"):
        raise ValueError("Redis Cluster has database 0 only: no /N in a redis+cluster:// URL.")
    dugumler = []
    for adres in adresler.split(","):
        parca = urlsplit("//" + adres.strip())
        if not parca.hostname:
            raise ValueError(f"Bad node in the Redis Cluster URL: {adres!r}")
        dugumler.append((parca.hostname, parca.port or 6379))
    return dugumler


def hizli_istemci(url: str, *, baglanti_suresi: float, soket_suresi: float) -> redis.Redis:
    """A pooled client of the plain Redis at `url` that learns "down" fast: no retries (redis-py's
    default spends about a second per call) and the given connect and socket timeouts (the
    service's REDIS_CONNECT_TIMEOUT and REDIS_SOCKET_TIMEOUT, as its cache has)."""
    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=baglanti_suresi,
                                socket_timeout=soket_suresi)
