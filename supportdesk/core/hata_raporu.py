"""Error reporting (CONTRACT 20): `SENTRY_DSN` turns on sentry-sdk for Django, Celery and Redis.

No personal data leaves by default: `send_default_pii=False` (no user, IP, cookies), no request
bodies (a chat's first message or a visitor's e-mail would be one), no local variables of stack
frames (they hold requests and users), and our own credential headers and fields added to the
scrubber's list (`X-Api-Key` is there already; the visitor token is ours). Unhandled exceptions
and every ERROR log record with a traceback (the API's 500s are logged by its exception handler)
become events, tagged with the request id.
"""
import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.redis import RedisIntegration
from sentry_sdk.scrubber import DEFAULT_DENYLIST, DEFAULT_PII_DENYLIST, EventScrubber

from . import mesajlar
from .gunluk import current_request_id

EK_GIZLILER = ["x_ziyaretci_token", "x-ziyaretci-token", "ziyaretci_token", "sifre", "yeni_sifre", "email",
               "gizli_anahtar", "x_inbound_secret", "x-inbound-secret", "x_csrf_token"]


def baslat(dsn: str, *, ortam: str = "production", surum: str | None = None, iz_orani: float = 0.0) -> None:
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration(), RedisIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        include_local_variables=False,
        event_scrubber=EventScrubber(denylist=[*DEFAULT_DENYLIST, *EK_GIZLILER],
                                     pii_denylist=[*DEFAULT_PII_DENYLIST, *EK_GIZLILER], recursive=True),
        before_send=_istek_kimligi_ekle,
        environment=ortam,
        release=surum,
        traces_sample_rate=iz_orani,
    )


def _istek_kimligi_ekle(event, hint):
    istek_id = current_request_id()
    if istek_id != "-":
        event.setdefault("tags", {})["istek_id"] = istek_id
    # The query string can carry a widget key or a visitor id (the widget socket's address does).
    (event.get("request") or {}).pop("query_string", None)
    return event


def raporlaniyor() -> bool:
    return sentry_sdk.get_client().dsn is not None


def sunucu_hatasi_mesaji() -> str:
    """A 500's message: "our team was told" only when a report really went somewhere."""
    return mesajlar.SUNUCU_HATASI_BILDIRILDI if raporlaniyor() else mesajlar.SUNUCU_HATASI
