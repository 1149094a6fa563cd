"""`manage.py check --deploy` (CONTRACT 20): a configuration that cannot work across processes is
an error, not a warning, so the production guide's start-up check stops it. Registered for the
deployment tag only: `make run` (SQLite, in-memory layers, mail as files) is meant to run so."""
from django.conf import settings
from django.core.checks import Error, register

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
            "held by another.", hint="Set REDIS_URL (or CHANNEL_LAYER_URL). " + IPUCU, id="supportdesk.E003"))
    if settings.SERVE_MEDIA and settings.STORAGES["default"]["BACKEND"] == "django.core.files.storage.FileSystemStorage":
        hatalar.append(Error(
            "Uploads are stored on this machine's disk (MEDIA_ROOT) and served by Django (SERVE_MEDIA): "
            "another host or container does not see them.",
            hint="Set AWS_STORAGE_BUCKET_NAME (S3-compatible storage) and SERVE_MEDIA=false. " + IPUCU,
            id="supportdesk.E004"))
    if not settings.EMAIL_URL:
        hatalar.append(Error(
            "EMAIL_URL is not set: mails are written as files under EPOSTA_KLASORU and never sent.",
            hint="Set EMAIL_URL=smtp+tls://user:password@host:587 " + IPUCU, id="supportdesk.E005"))
    return hatalar


@register(DAGITIM, deploy=True)
def ceviri_kataloglari_derlenmis(app_configs=None, **kwargs):
    """A missing or stale `.mo` is no error anyone sees: every English user silently gets Turkish."""
    from . import katalog

    return [Error(
        f"The translation catalog {mo} is missing or older than {po.name}: its language falls back to "
        "Turkish for everyone.",
        hint="Run `python manage.py migrate` (it compiles missing catalogs) or `python manage.py "
             "compilemessages`, where the code can be written. " + IPUCU,
        id="supportdesk.E020") for po, mo in katalog.derlenmesi_gerekenler()]
