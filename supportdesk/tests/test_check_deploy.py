"""`check --deploy` refuses a configuration that cannot work across processes (CONTRACT 20), each
with an error naming what is missing; plain `check` (development) is not affected."""
import io

import pytest
from django.core.management import CommandError, call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

# Only the engine's name is read here; no connection is made with the overridden settings.
pytestmark = pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")

URETIM = {
    "DATABASES": {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "supportdesk"}},
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "CHANNEL_LAYERS": {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer"}},
    # One host (compose, make prod): MEDIA_ROOT shared by every process, served by the web processes.
    "SERVE_MEDIA": True,
    "MEDIA_PAYLASIMLI": True,
    "EMAIL_URL": "smtp://127.0.0.1:25",
}
YEREL = {
    "DATABASES": {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}},
    "REDIS_URL": "",
    "CHANNEL_LAYERS": {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}},
    "SERVE_MEDIA": True,
    "MEDIA_PAYLASIMLI": False,
    "EMAIL_URL": "",
}


def denetle(**ayarlar) -> str:
    """The errors of `check --deploy` (only ours: the deployment tag) as text; empty when none."""
    with override_settings(**ayarlar):
        try:
            call_command("check", deploy=True, tags=["deployment"], stdout=io.StringIO())
        except (SystemCheckError, CommandError) as hata:
            return str(hata)
    return ""


def test_a_production_configuration_passes():
    assert denetle(**URETIM) == ""


@pytest.mark.parametrize("ayar, kod, ad", [
    ("DATABASES", "supportdesk.E001", "DATABASE_URL"),
    ("REDIS_URL", "supportdesk.E002", "REDIS_URL"),
    ("CHANNEL_LAYERS", "supportdesk.E003", "channel layer"),
    ("MEDIA_PAYLASIMLI", "supportdesk.E004", "MEDIA_PAYLASIMLI"),
    ("EMAIL_URL", "supportdesk.E005", "EMAIL_URL"),
])
def test_each_single_process_setting_is_an_error_naming_it(ayar, kod, ad):
    cikti = denetle(**{**URETIM, ayar: YEREL[ayar]})
    assert "(ERROR)" in cikti or "ERRORS" in cikti, cikti
    assert kod in cikti and ad in cikti, cikti
    assert cikti.count("supportdesk.E0") == 1, cikti


def test_uploads_in_a_bucket_need_neither_a_shared_folder_nor_serve_media():
    storages = {"default": {"BACKEND": "storages.backends.s3.S3Storage"},
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    for serve in (True, False):
        assert denetle(**{**URETIM, "SERVE_MEDIA": serve, "MEDIA_PAYLASIMLI": False, "STORAGES": storages}) == ""


def test_uploads_on_a_shared_disk_that_nothing_serves_are_an_error():
    """The single-host compose install whose attachments all answered 404 (issue 37)."""
    cikti = denetle(**{**URETIM, "SERVE_MEDIA": False})
    assert "supportdesk.E021" in cikti and "SERVE_MEDIA" in cikti and "/media/" in cikti, cikti
    assert cikti.count("supportdesk.E0") == 1, cikti


def test_all_of_them_at_once_and_development_is_unaffected():
    cikti = denetle(**YEREL)
    for kod in ("E001", "E002", "E003", "E004", "E005"):
        assert f"supportdesk.{kod}" in cikti, cikti
    with override_settings(**YEREL):
        call_command("check", stdout=io.StringIO())  # no --deploy: no error
