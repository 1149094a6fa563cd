"""The Django admin's app config (INSTALLED_APPS names it instead of "django.contrib.admin"): its
site is `tenants.iki_adim.YonetimSitesi`, which asks a TOTP code at login (CONTRACT 18)."""
from django.contrib.admin.apps import AdminConfig


class YonetimAdminConfig(AdminConfig):
    default_site = "tenants.iki_adim.YonetimSitesi"
