import threading
import time

import pytest

from supportdesk.testing.tarayici import chromium


@pytest.fixture(autouse=True)
def _playwright_icin_async_izni(request, monkeypatch):
    """As in portal/tests: Playwright's sync API keeps an event loop in the test thread; allowed
    for browser tests only, and only while they run."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser


@pytest.fixture
def asgi_sunucu(transactional_db):
    """HTTP and both sockets from one ASGI server (uvicorn on an ephemeral port), as `make run`
    serves them: every frame the console gets comes from a real commit."""
    import uvicorn
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from canli.routing import websocket_urlpatterns

    uygulama = ProtocolTypeRouter({
        "http": ASGIStaticFilesHandler(get_asgi_application()),
        "websocket": URLRouter(websocket_urlpatterns),
    })
    sunucu = uvicorn.Server(uvicorn.Config(uygulama, host="127.0.0.1", port=0, log_level="warning", lifespan="off"))
    is_parcacigi = threading.Thread(target=sunucu.run, daemon=True)
    is_parcacigi.start()
    son = time.monotonic() + 15
    while not sunucu.started:
        assert time.monotonic() < son, "ASGI sunucusu 15 s içinde başlamadı"
        time.sleep(0.1)
    port = sunucu.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    sunucu.should_exit = True
    is_parcacigi.join(10)
