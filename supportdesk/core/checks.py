"""`manage.py check --deploy` (CONTRACT 20): a configuration that cannot work across processes is
an error, not a warning, so the production guide's start-up check stops it. Registered for the
deployment tag only: `make run` (SQLite, in-memory layers, mail as files) is meant to run so."""
from django.conf import settings
from django.core.checks import Error, register

from . import katalog

DAGITIM = "deployment"  # our own tag: `check --deploy --tag deployment` runs these alone
IPUCU = "See docs/production.md and .env.example."


@register(DAGITIM, deploy=True)
def surecler_arasi_calisabilir(app_configs=None, **kwargs):
    hatalar = []
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        hatalar.append(Error(
            "DATABASE_URL is not set or names SQLite: several processes (gunicorn workers, the socket "
            "processes, Celery) need one server database.", hint="Set DATABASE_URL=postgres://… " + IPUCU,
            id="supportdesk.E001"))
    if not settings.REDIS_URL:
        hatalar.append(Error(
            "REDIS_URL is not set: Celery runs eagerly, and rate limits, caches and presence stay inside "
            "each process.", hint="Set REDIS_URL=redis://… " + IPUCU, id="supportdesk.E002"))
    if settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND") == "channels.layers.InMemoryChannelLayer":
        hatalar.append(Error(
            "The channel layer is in memory: an event committed in one process never reaches sockets "
            "held by another.", hint="Set REDIS_URL (or REDIS_CHANNEL_URL). " + IPUCU, id="supportdesk.E003"))
    hatalar += _yuklenen_dosyalar()
    if not settings.EMAIL_URL:
        hatalar.append(Error(
            "EMAIL_URL is not set: mails are written as files under EPOSTA_KLASORU and never sent.",
            hint="Set EMAIL_URL=smtp+tls://user:password@host:587 " + IPUCU, id="supportdesk.E005"))
    return hatalar


def _yuklenen_dosyalar() -> list[Error]:
    """One design per topology (docs/production.md, "Uploads"): more than one host keeps uploads in a
    bucket (signed URLs, nothing for the service to serve); one host keeps them in MEDIA_ROOT, shared
    by every process (compose's volume, `make prod`'s folder), and the web processes serve /media/."""
    if settings.STORAGES["default"]["BACKEND"] != "django.core.files.storage.FileSystemStorage":
        return []
    if not settings.MEDIA_PAYLASIMLI:
        return [Error(
            "Uploads are stored on this machine's disk (MEDIA_ROOT), and nothing says every process of "
            "the service shares that folder: a file written by one host or container would be missing "
            "on the others.",
            hint="More than one host: set S3_BUCKET (S3-compatible storage). One host "
                 "(compose, make prod) or a shared file system: set MEDIA_PAYLASIMLI=true. " + IPUCU,
            id="supportdesk.E004")]
    if not settings.SERVE_MEDIA:
        return [Error(
            "Uploads are on local disk but SERVE_MEDIA is off: nothing serves /media/, so every "
            "attachment, screenshot and logo answers 404.",
            hint="Set SERVE_MEDIA=true (the web processes serve them with their sandbox headers). " + IPUCU,
            id="supportdesk.E021")]
    return []


@register(DAGITIM, deploy=True)
def ceviri_kataloglari_derlenmis(app_configs=None, **kwargs):
    """A missing or stale `.mo` is no error anyone sees: every English user silently gets Turkish."""
    return [Error(
        f"The translation catalog {mo} is missing or older than {po.name}: its language falls back to "
        "Turkish for everyone.",
        hint="Run `python manage.py migrate` (it compiles missing catalogs) or `python manage.py "
             "compilemessages`, where the code can be written. " + IPUCU,
        id="supportdesk.E020") for po, mo in katalog.derlenmesi_gerekenler()]
