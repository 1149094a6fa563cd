"""The widget request's pre-read (`tenants.on_okuma`, issue 25): one component with named fields,
built by one script whose inputs are named once; the rate limiter only limits and takes its
verdict from the pre-read's `limit`. Needs Redis as the cache (CI has it) but for the first test."""
import math

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection

from supportdesk.core import throttling
from tenants import musteri_onbellegi

from .yardimci import W_MESAJLAR, baslat, ok, widget_client

pytestmark = pytest.mark.django_db


def test_a_scripts_inputs_are_named_once():
    assert throttling.argv(("a", "b"), {"b": 2, "a": 1}) == [1, 2]
    with pytest.raises(ValueError):
        throttling.argv(("a", "b"), {"a": 1})  # one missing
    with pytest.raises(ValueError):
        throttling.argv(("a",), {"a": 1, "c": 3})  # one nobody declared
    assert throttling.lua_argv(("sinir", "say")) == "local sinir = ARGV[1]\nlocal say = ARGV[2]\n"


@pytest.fixture
def redis_onbellek():
    if not isinstance(caches["default"], RedisCache):
        pytest.skip("Ön okuma Redis ister (CI kullanır).")


def _yokla(widget, o):
    return widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9})


def test_a_polls_pre_read_names_what_it_read(musteri, redis_onbellek):
    widget = widget_client(musteri)
    o = baslat(widget, "z")  # the process now holds the tenant and its members
    ok(_yokla(widget, o))  # the ordinary path: writes the snapshot
    yanit = _yokla(widget, o)
    ok(yanit)
    on = yanit.wsgi_request.on_okuma
    assert on.musteri_id == musteri.pk
    assert on.limit.izin and on.limit.bekleme == 0.0
    assert on.musteri_nesli is not None
    assert on.uyelik_nesli is not None and on.daraltildi and on.varlik == set()
    if connection.vendor == "postgresql":  # the snapshot is PostgreSQL's (chat.yoklama)
        assert len(on.yoklama_anahtarlari) == 4 and len(on.yoklama_ozeti) == 4
        assert on.yoklama_ozeti_icin(musteri.pk) == on.yoklama_ozeti
        assert on.yoklama_ozeti_icin(musteri.pk + 1) is None  # never another tenant's


def test_the_throttle_answers_with_the_pre_reads_verdict(musteri, redis_onbellek, settings):
    settings.WIDGET_RATE_LIMIT = "3/min"
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    ok(_yokla(widget, o))
    ok(_yokla(widget, o))
    yanit = _yokla(widget, o)
    assert yanit.status_code == 429, yanit.content
    assert yanit.json()["hata"]["kod"] == "LIMIT_ASILDI"
    on = yanit.wsgi_request.on_okuma
    assert on.limit.izin is False and on.limit.bekleme >= 1
    # The throttle's wait is the pre-read's (the exception handler rounds it up by a second).
    assert int(yanit["Retry-After"]) == math.ceil(on.limit.bekleme) + 1


def test_without_a_pre_read_the_limiter_limits_alone(musteri, redis_onbellek, settings):
    settings.WIDGET_RATE_LIMIT = "2/min"
    widget = widget_client(musteri)
    musteri_onbellegi.sifirla()
    o = baslat(widget, "z")
    musteri_onbellegi.sifirla()  # a process that does not hold the tenant: no pre-read
    assert ok(_yokla(widget, o)) is not None
    musteri_onbellegi.sifirla()
    yanit = _yokla(widget, o)
    assert not hasattr(yanit.wsgi_request, "on_okuma")
    assert yanit.status_code == 429 and int(yanit["Retry-After"]) >= 1
