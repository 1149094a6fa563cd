import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")

app = Celery("supportdesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _json_gunluk(app) -> None:
    """LOG_FORMAT=json (supportdesk.core.gunluk): what Celery prints instead of logging. Beat's banner
    (printed before it sets logging up, with no signal before) is left out by making the app's Beat
    quiet (the worker's is, at `celeryd_after_setup`); the worker's shutdown and restart notices
    (`safe_say`, written from signal handlers) become JSON lines, written as Celery writes them (one
    `os.write`, no logging lock inside a signal handler). Web and socket processes run neither."""
    import logging
    import sys

    from celery.apps import worker as celery_isci
    from celery.apps.beat import Beat

    from supportdesk.core.gunluk import JsonBicimi

    class SessizBeat(Beat):
        def __init__(self, *args, **kwargs):
            kwargs["quiet"] = True
            super().__init__(*args, **kwargs)

    app.Beat = app.subclass_with_self(SessizBeat)

    def json_soyle(msg, f=sys.__stderr__):
        kayit = logging.LogRecord("celery.apps.worker", logging.INFO, __file__, 0, str(msg).strip(), None, None)
        try:
            os.write(f.fileno(), (JsonBicimi().format(kayit) + "\n").encode())
        except (OSError, ValueError):
            pass  # as Celery's own: a lost notice must never abort a shutdown

    celery_isci.safe_say = json_soyle


from supportdesk.core.gunluk import json_mu, surec_turu  # noqa: E402

if json_mu() and surec_turu() in ("worker", "beat"):
    _json_gunluk(app)
