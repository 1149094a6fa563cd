"""supportdesk.core.onbellek: Django's Redis cache with one client per pool for the process."""
import os
import threading

import pytest
from django.core.cache import caches

from supportdesk.core.onbellek import RedisOnbellek


@pytest.fixture
def onbellek():
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("Gerçek bir Redis ister (REDIS_URL).")
    onbellek = RedisOnbellek(url, {"KEY_PREFIX": "onbellek-testi"})
    yield onbellek
    onbellek.clear()


def test_the_settings_use_it_with_redis():
    if os.environ.get("REDIS_URL"):
        assert isinstance(caches["default"], RedisOnbellek)


def test_one_client_per_pool_and_the_cache_works_from_many_threads(onbellek):
    assert onbellek._cache.get_client(write=True) is onbellek._cache.get_client("x", write=True)
    hatalar = []

    def yaz(i):
        try:
            for j in range(50):
                onbellek.set(f"k{i}:{j}", {"i": i, "j": j}, 30)
                assert onbellek.get(f"k{i}:{j}") == {"i": i, "j": j}
        except Exception as e:  # noqa: BLE001
            hatalar.append(e)

    threads = [threading.Thread(target=yaz, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert hatalar == []
    assert onbellek.get_many([f"k{i}:49" for i in range(8)]) == {f"k{i}:49": {"i": i, "j": 49} for i in range(8)}
    assert onbellek.add("sayac", 1) and onbellek.incr("sayac") == 2
