"""`taban.settings` plus the measurement switches of `taban.kapat` (bench/karma_bench.py)."""
from .settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "taban.kapat.KapatConfig"]  # noqa: F405
