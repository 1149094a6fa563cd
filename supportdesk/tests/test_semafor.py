"""supportdesk/core/semafor.py: places shared by every process on Redis, freed on expiry, open without Redis."""
import threading
import time

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings

from supportdesk.core.semafor import ACIK, semafor_al, semafor_birak

OLU_REDIS = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                         "LOCATION": "redis://127.0.0.1:1/0"}}


@pytest.fixture
def redis_var():
    if not isinstance(caches["default"], RedisCache):
        pytest.skip("REDIS_URL yok: semafor yerel sınırlara bırakır (açık).")


def test_simultaneous_takers_get_exactly_the_places_and_expired_ones_free_themselves(redis_var):
    jetonlar = []
    engel = threading.Barrier(10)

    def al():
        engel.wait()
        jetonlar.append(semafor_al("test:semafor", 4, 0.5))

    threads = [threading.Thread(target=al) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    alinan = [j for j in jetonlar if j]
    assert len(alinan) == 4 and jetonlar.count(None) == 6 and ACIK not in alinan
    semafor_birak("test:semafor", alinan[0])
    assert semafor_al("test:semafor", 4, 0.5) and semafor_al("test:semafor", 4, 0.5) is None
    time.sleep(0.6)  # a holder that died: its place expires
    assert all(semafor_al("test:semafor", 4, 5) for _ in range(4))


def test_without_a_reachable_redis_it_is_open():
    with override_settings(CACHES=OLU_REDIS):
        assert semafor_al("test:olu", 1, 1) == ACIK
        semafor_birak("test:olu", ACIK)  # never raises
