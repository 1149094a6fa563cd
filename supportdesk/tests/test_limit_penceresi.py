"""Every test starts at the start of the request limiter's windows (conftest, `_limit_penceresi_basinda`):
a test that sends a limit's worth of requests and expects the next one refused never straddles a
window's end, whatever the wall clock says."""
import time

from supportdesk.core import throttling


def test_bir_test_limit_pencerelerinin_basinda_baslar():
    for sure in (1, 60, 3600, 86400):
        p = throttling.pencere("deneme", (2, sure))
        assert sure - 0.5 - 1.0 < p.kalan <= sure - 0.5, (sure, p.kalan)


def test_saat_gercek_zamanla_ilerler():
    once = throttling.pencere("deneme", (2, 60)).kalan
    time.sleep(0.2)
    assert 0.2 <= once - throttling.pencere("deneme", (2, 60)).kalan < 1.0
    assert abs(throttling.time.monotonic() - time.monotonic()) < 1.0  # the rest of `time` is the real one
