"""Django's Redis cache, keeping one client per connection pool for the process; and the one way
the code base drops cached values when it writes (`simdi_ve_commit_sonrasi`).

Django's `RedisCacheClient.get_client()` builds a new `redis.Redis` for every cache call, and with
it redis-py's table of response callbacks: on this machine that costs more than the command's own
round trip. A client is safe to share between threads (each command takes a connection from the
pool), so one per pool is kept. Everything else is Django's backend unchanged.

Redis Cluster (issue 44, CONTRACT 26): a `REDIS_URL` of the form
`redis+cluster://host:port,host:port,...` (any of the nodes; the client learns the rest) makes the
cache one `redis.cluster.RedisCluster` client (redis-py's own, which follows MOVED/ASK and
failovers). Django's RedisCache cannot: it builds a plain `redis.Redis` per server and sends MGET,
MSET and DEL of many keys as one command, which a cluster refuses across slots. Here those are
split into per-slot groups (`get_many`, `set_many`, `delete_many`) and `clear` empties every
primary. The code base's own keys are hash-tagged so that what one script or one check touches
shares a slot (`{t:<tenant id>}` for a tenant's keys, `{varlik}` for presence, the limit's own key
for its windows): docs/production.md, "Redis Cluster".
"""
import logging

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db import connection, transaction
from redis.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.exceptions import NoScriptError

from .redis_adresi import kume_dugumleri, kume_mi

logger = logging.getLogger("supportdesk.onbellek")


def tenant_etiketi(musteri_id) -> str:
    """The hash tag of a tenant's keys: every key of one tenant lands on one cluster slot."""
    return f"{{t:{musteri_id}}}"


def simdi_ve_commit_sonrasi(gecersiz_kil) -> None:
    """Run a cache invalidation now and, inside a transaction, again once it commits: a request
    racing the write can neither go on using the old value (now) nor cache what it read before the
    commit (after). Outside a transaction once is enough."""
    gecersiz_kil()
    if connection.in_atomic_block:
        transaction.on_commit(gecersiz_kil)


class _TekIstemci(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        istemciler = self.__dict__.setdefault("_istemciler", {})
        istemci = istemciler.get(id(pool))
        if istemci is None:
            istemci = istemciler[id(pool)] = self._client(connection_pool=pool)
        return istemci


def _kume_sinifi():
    class _Kume(RedisCluster):
        """A cluster client whose scripts are loaded on every primary when registered: a script's
        first call inside a pipeline (presence refreshes many sockets at once) cannot load it on
        a NOSCRIPT as a direct call does."""

        def register_script(self, script):
            betik = super().register_script(script)
            self.__dict__.setdefault("_betikler", []).append(script)
            try:
                self.script_load(script)
            except Exception:
                logger.warning("Redis Cluster: betik yüklenemedi.", exc_info=True)
            return betik

        def betikleri_yukle(self) -> None:
            """Load every registered script on every primary again (a NOSCRIPT in a pipeline:
            a node restarted or a replica promoted since they were loaded)."""
            for script in self.__dict__.get("_betikler", []):
                self.script_load(script)

    return _Kume


def betik_boruya(boru, betik, *, keys, args) -> None:
    """Queue a registered script (`register_script`) in a non-transactional pipeline. redis-py's
    cluster pipeline refuses the script object's own call (its `evalsha` is blocked there); the
    raw EVALSHA is routed by its keys like any command, so it is queued as one (its keys in one
    slot, as every script here)."""

    if isinstance(boru, ClusterPipeline):
        boru.execute_command("EVALSHA", betik.sha, len(keys), *keys, *args)
    else:
        betik(keys=keys, args=args, client=boru)


def boru_hatasi(istemci, hata: Exception) -> None:
    """After a pipeline failed: on a cluster whose node lost the scripts (NOSCRIPT), load them
    again so the next call works (a direct script call does this by itself)."""

    if isinstance(hata, NoScriptError) or "NOSCRIPT" in str(hata):
        yukle = getattr(istemci, "betikleri_yukle", None)
        if yukle is not None:
            try:
                yukle()
            except Exception:
                logger.warning("Redis Cluster: betikler yeniden yüklenemedi.", exc_info=True)


class _KumeIstemcisi(RedisCacheClient):
    """Django's cache client on a Redis Cluster: one client for the process; many-key commands
    in per-slot groups."""

    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._kume_url = ",".join(servers)
        self._kume_secenekleri = {k: v for k, v in options.items() if k not in ("parser_class", "pool_class")}

    def get_client(self, key=None, *, write=False):
        istemci = self.__dict__.get("_kume")
        if istemci is None:
            dugumler = [ClusterNode(h, p) for h, p in kume_dugumleri(self._kume_url)]
            istemci = self.__dict__["_kume"] = _kume_sinifi()(startup_nodes=dugumler, **self._kume_secenekleri)
        return istemci

    def get_many(self, keys):
        keys = list(keys)
        if not keys:
            return {}
        ret = self.get_client(None).mget_nonatomic(keys)
        return {k: self._serializer.loads(v) for k, v in zip(keys, ret, strict=True) if v is not None}

    def set_many(self, data, timeout):
        if timeout == 0:
            return self.delete_many(data)
        with self.get_client(None, write=True).pipeline(transaction=False) as boru:
            for k, v in data.items():
                boru.set(k, self._serializer.dumps(v), ex=timeout)
            boru.execute()

    def delete_many(self, keys):
        keys = list(keys)
        if keys:
            self.get_client(None, write=True).delete(*keys)  # split by slot by redis-py (DEL per slot)

    def clear(self):
        return bool(self.get_client(None, write=True).flushdb(target_nodes="primaries"))


class RedisOnbellek(RedisCache):
    def __init__(self, server, params):
        if isinstance(server, str) and kume_mi(server):
            server = [server]  # one URL: Django would split its node list at the commas
        super().__init__(server, params)
        self._class = _KumeIstemcisi if kume_mi(self._servers[0]) else _TekIstemci

    @property
    def kume(self) -> bool:
        return self._class is _KumeIstemcisi
