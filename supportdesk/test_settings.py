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

# A connection per request in the test process, closed when the request ends (Django's default),
# not kept for a minute as in production: the live servers of the browser tests answer from
# threads of their own (uvicorn's loop, its thread pools), a new set per test, and each kept its
# connection open after its test; with three workers one worker held 65 idle connections and the
# run met PostgreSQL's 100 ("too many clients already"). The test client keeps its own (the test's
# transaction); the processes tests start keep their production settings.
for _ayar in DATABASES.values():  # noqa: F405
    _ayar["CONN_MAX_AGE"] = 0

# The test worker's embedded beat (supportdesk.testing.celery_worker) keeps its schedule in a file:
# the tests' cache.clear() empties the Redis database that would hold redbeat's lock.
if os.environ.get("BEAT_DOSYADA") == "true":
    CELERY_BEAT_SCHEDULER = "celery.beat:PersistentScheduler"
