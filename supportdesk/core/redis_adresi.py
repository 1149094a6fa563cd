"""Redis addresses (no Django import: the settings read them): a Redis Cluster's URL,
`redis+cluster://host:port,host:port,...` (issue 44, CONTRACT 26)."""
from urllib.parse import urlsplit

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
