import pytest


@pytest.fixture(autouse=True)
def _webhook_govdesi_serbest(settings):
    """These tests are about the outbox and delivery (CONTRACT 7), which carry an event's body as an
    opaque JSON object: they publish webhook events with bodies of their own (`{"sira": i}`, `{}`)
    to follow them through signing, retries and ordering. The payload types are checked for every
    event in supportdesk/tests/test_dinleyiciler.py and by every other test that publishes."""
    settings.OLAY_VERISI_DENETLE = False
