"""Settings for the test suite: the real ones, with development defaults (DATABASE_URL and
REDIS_URL still come from the environment, so CI runs on PostgreSQL and Redis)."""
import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
