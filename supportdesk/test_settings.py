"""Settings for the test suite: the real ones, with development defaults. DATABASE_URL and
REDIS_URL come from the environment; where they are not set, the machine's PostgreSQL and Redis
are used when they answer, as CI does, and SQLite and in-memory stand-ins only where they do not
(supportdesk.testing.altyapi; the run's summary says which). Parallel workers (pytest-xdist) each get
a Redis database of their own there, and with it their own channel-layer prefix (settings.py)."""
import os

from .testing.altyapi import ortami_hazirla

ortami_hazirla(os.environ)

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true")
# Mail is sent by the (eager) task in the test's own thread, never by a stray thread (eposta.services).
os.environ.setdefault("EPOSTA_YEREL_ISCI", "false")
# The search rows likewise (arama.dinleyiciler).
os.environ.setdefault("ARAMA_YEREL_ISCI", "false")
os.environ.setdefault("ARAMA_BIRIKTIRME_SANIYE", "0")
os.environ.setdefault("KURAL_BIRIKTIRME_SANIYE", "0")
# Timed jobs are run by hand in tests, never by the runner's timetable in the test process.
os.environ.setdefault("KOSUCU_ZAMANLAYICI", "false")
# The login lockout (django-axes) is off unless a test turns it on (settings.AXES_ENABLED = True):
# many tests fail logins on purpose, and each would count towards the next one's lockout.
os.environ.setdefault("GIRIS_KILIDI", "false")
# Every published event is checked against its declared payload type (supportdesk.core.olaylar).
os.environ.setdefault("OLAY_VERISI_DENETLE", "true")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The test worker's embedded beat (supportdesk.testing.celery_worker) keeps its schedule in a file:
# the tests' cache.clear() empties the Redis database that would hold redbeat's lock.
if os.environ.get("BEAT_DOSYADA") == "true":
    CELERY_BEAT_SCHEDULER = "celery.beat:PersistentScheduler"
