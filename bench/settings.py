"""The service's own settings plus one bare view (bench/urls.py) to compare against."""
from supportdesk.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
