"""Django's Redis cache, keeping one client per connection pool for the process; and the one way
the code base drops cached values when it writes (`simdi_ve_commit_sonrasi`).

Django's `RedisCacheClient.get_client()` builds a new `redis.Redis` for every cache call, and with
it redis-py's table of response callbacks: on this machine that costs more than the command's own
round trip. A client is safe to share between threads (each command takes a connection from the
pool), so one per pool is kept. Everything else is Django's backend unchanged.
"""
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db import connection, transaction


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


class RedisOnbellek(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _TekIstemci
