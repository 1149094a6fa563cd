"""The served checkout's own settings, unchanged, plus the bare views' routes (taban/urls.py)."""
from supportdesk.settings import *  # noqa: F403

ROOT_URLCONF = "taban.urls"
