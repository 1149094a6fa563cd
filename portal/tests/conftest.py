import pytest


@pytest.fixture(autouse=True)
def _playwright_icin_async_izni(request, monkeypatch):
    """Playwright's sync API runs an event loop in the test thread, so Django would refuse the
    test's own (plain synchronous) ORM calls. Allowed only for browser tests and only while they
    run: the variable must never leak into other tests or subprocesses (`check --deploy` flags it)."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def _celery_eager():
    """The sign-up and password-reset forms hand their work to a task: run it here, after the
    commit, as a worker would (with REDIS_URL set the suite would otherwise queue it in Redis)."""
    from celery import current_app

    onceki = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = onceki
