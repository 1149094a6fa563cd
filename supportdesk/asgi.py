"""ASGI entry point: the sockets of CONTRACT 11 under /ws/, and Django's HTTP.

Production runs it for /ws/ only (uvicorn or daphne beside gunicorn, which keeps REST on
`supportdesk.wsgi`); development (`make run`) serves everything from it on one port.
"""
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")
django_http = get_asgi_application()  # sets Django up before the consumers are imported

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from canli.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_http,
    "websocket": URLRouter(websocket_urlpatterns),
})

# Everything imported so far (Django, the apps, their modules: most of a socket process's objects
# at start) lives as long as the process: out of the collector's reach, so a full collection with
# thousands of sockets open walks only what came after (issue 32, docs/performance.md).
gc.collect()
gc.freeze()
# A full collection is considered after 100 collections of the middle generation instead of 10:
# each opening socket leaves ~40 KB of long-lived objects, and at the default 5,000 sockets
# opening triggered 18 full collections in a process, none with this (docs/performance.md).
gc.set_threshold(700, 10, 100)
