"""Fixtures shared by every app's tests: tenants, operators with tokens, widget clients."""
import contextlib

import pytest
from rest_framework.test import APIClient

from tenants.services import uyelik_ekle

from .factories import TEST_SIFRE, KullaniciFactory, MusteriFactory


@contextlib.contextmanager
def modul_verisi(django_db_blocker, tmp_path_factory):
    """Rows written once for a whole module (committed, outside any test's transaction) and removed
    when it ends, for a module of many cases that each need the same tenant, operator, chat and
    ticket and must change none of them: a bad-input module, whose every case sends one refused
    call. Each case still runs in its own transaction (`django_db`), rolled back at its end, so
    whatever a case does write is gone before the next one; what this saves is building the same
    rows over HTTP for every case (~0.6 s each on a loaded machine). Files go to a media folder of
    the module's own."""
    from django.core.management import call_command
    from django.test import override_settings

    from . import bosalt

    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=str(tmp_path_factory.mktemp("media"))):
        try:
            yield
        finally:
            from django.core.cache import cache

            cache.clear()
            if not bosalt.bosalt("default"):
                call_command("flush", verbosity=0, interactive=False)


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def musteri(db):
    return MusteriFactory(firma_adi="Anadolu Yazılım")


@pytest.fixture
def diger_musteri(db):
    return MusteriFactory(firma_adi="Başka Firma")


def operator_yap(*musteriler, rol="operator", max_chat=None, email=None):
    kwargs = {"email": email} if email else {}
    user = KullaniciFactory(**kwargs)
    for m in musteriler:
        uyelik_ekle(kullanici=user, musteri=m, rol=rol, max_chat_per_tenant=max_chat)
    return user


def giris_yap(client: APIClient, user) -> str:
    """Log in through the real endpoint and return the bearer token."""
    res = client.post("/api/v1/auth/login", {"email": user.email, "sifre": TEST_SIFRE}, format="json")
    assert res.status_code == 200, res.content
    return res.json()["data"]["token"]


@pytest.fixture
def operator(musteri):
    return operator_yap(musteri)


def ulasilabilir_yap(*kullanicilar, durum="cevrimici"):
    """Operators reachable now (CONTRACT 11's presence): status `durum` (`cevrimici` or `mesgul`)
    and an authenticated REST call just now, as a logged-in console that set its status."""
    from supportdesk.core import varlik

    for k in kullanicilar:
        k.durum = durum
        k.save(update_fields=["durum"])  # a save, not an update: the poll snapshots' signals see it
        varlik.rest_cagrisi(kullanici_id=k.pk)
    return kullanicilar[0] if len(kullanicilar) == 1 else kullanicilar


@pytest.fixture
def nobetci(musteri):
    """A reachable `cevrimici` operator of `musteri`. With nobody reachable a chat started inside
    hours is offered a ticket at once (CONTRACT 15); tests of a chat that waits need someone."""
    return ulasilabilir_yap(operator_yap(musteri))


@pytest.fixture
def operator_client(operator):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, operator)}")
    return client


def widget_client(musteri, **extra) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=musteri.api_key, **extra)
    return client


@pytest.fixture
def widget(musteri):
    return widget_client(musteri)


@pytest.fixture
def webhook_alici():
    """A real HTTP receiver on loopback (see supportdesk.testing.receiver.WebhookAlici)."""
    from .receiver import WebhookAlici

    alici = WebhookAlici()
    yield alici
    alici.kapat()


@pytest.fixture(autouse=True)
def _webhook_yerel_isci_kapali(settings):
    # Tests deliver explicitly (teslimatlari_simdi_gonder) or through a real worker, never from a
    # stray runner lane of the test process (webhooks/kuyruk.yerel_havuz).
    settings.WEBHOOK_LOCAL_WORKER = False


from .canli_sunucu import canli_sunucu, canli_sunucu_baslat  # noqa: E402,F401  (socket tests)
from .celery_worker import celery_worker_sureci  # noqa: E402,F401  (fixture for webhook/event tests)
