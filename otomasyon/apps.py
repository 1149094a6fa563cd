from django.apps import AppConfig


class OtomasyonConfig(AppConfig):
    """Automation rules and macros (CONTRACT 23). Above chat and tickets: a rule's and a macro's
    actions are those apps' own actions; they reach the rules through the one seam in
    `supportdesk.core.kurallar`, which this app fills in at start."""

    name = "otomasyon"
    verbose_name = "otomasyon"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from supportdesk.core import kurallar

        from . import motor

        kurallar.calistirici_kaydet(motor.calistir, motor.on_degerlendir)
