"""A real SMTP server on loopback (aiosmtpd) for the mail tests, and the settings that point the
service at it. Celery runs eagerly here: a queued task sends at once, after the commit."""
import logging
from email import policy
from email.parser import BytesParser

import pytest
from aiosmtpd.controller import Controller
from celery import current_app

from supportdesk.testing.sunucu import bos_port

logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command


class _Isleyici:
    def __init__(self, kutu):
        self.kutu = kutu

    async def handle_DATA(self, server, session, envelope):
        mesaj = BytesParser(policy=policy.default).parsebytes(envelope.content)
        self.kutu.append((list(envelope.rcpt_tos), mesaj))
        return "250 OK"


class SmtpSunucu:
    """Received mails in `mesajlar` as (envelope recipients, EmailMessage). `durdur()` and
    `baslat()` take the server down and bring it back on the same port (`bos_port`: below the
    kernel's ephemeral range, so no outgoing connection takes it while the server is down)."""

    def __init__(self):
        self.port = bos_port()
        self.mesajlar: list = []
        self._kontrol = None
        self.baslat()

    def baslat(self):
        self._kontrol = Controller(_Isleyici(self.mesajlar), hostname="127.0.0.1", port=self.port)
        self._kontrol.start()

    def durdur(self):
        if self._kontrol is not None:
            self._kontrol.stop()
            self._kontrol = None

    def alicinin(self, adres: str) -> list:
        return [m for alicilar, m in self.mesajlar if adres in alicilar]


@pytest.fixture
def smtp(settings):
    sunucu = SmtpSunucu()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", sunucu.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 2
    settings.EPOSTA_SWEEP_GRACE_SECONDS = 0
    settings.EPOSTA_BACKOFF_BASE_SECONDS = 0
    settings.EPOSTA_BACKOFF_JITTER = 0
    settings.SITE_URL = "http://testserver"
    yield sunucu
    sunucu.durdur()


@pytest.fixture(autouse=True)
def _celery_eager():
    onceki = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = onceki
