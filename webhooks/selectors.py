"""Reads, always scoped to one tenant in the query (`kapsamda`, HOUSE-STYLE 21)."""
from django.db.models import QuerySet

from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import id_coz
from supportdesk.core.metrikler import durum_sayilari

from .models import Teslimat, WebhookEndpoint


def _musteri_id(musteri) -> int:
    return getattr(musteri, "pk", musteri)


def webhook_endpoint_list(*, musteri) -> QuerySet[WebhookEndpoint]:
    """The tenant's endpoints, oldest first."""
    return WebhookEndpoint.objects.kapsamda([_musteri_id(musteri)]).order_by("id")


def webhook_endpoint_get(*, musteri, endpoint_id) -> WebhookEndpoint:
    """One endpoint of the tenant; the same Bulunamadi (404) for missing, malformed and another tenant's."""
    try:
        return webhook_endpoint_list(musteri=musteri).get(pk=id_coz(endpoint_id))
    except WebhookEndpoint.DoesNotExist:
        raise Bulunamadi() from None


def teslimat_list(*, musteri, endpoint: WebhookEndpoint | None = None) -> QuerySet[Teslimat]:
    """The tenant's deliveries, newest first, with event, endpoint and attempts loaded
    (a flat number of queries whatever the page size)."""
    qs = Teslimat.objects.kapsamda([_musteri_id(musteri)])
    if endpoint is not None:
        qs = qs.filter(endpoint_id=endpoint.pk)
    return qs.select_related("olay", "endpoint").prefetch_related("denemeler").order_by("-olusturulma", "-id")


def teslimat_get(*, musteri, teslimat_id) -> Teslimat:
    try:
        return teslimat_list(musteri=musteri).get(pk=id_coz(teslimat_id))
    except Teslimat.DoesNotExist:
        raise Bulunamadi() from None


def teslimat_sayilari_durumlara_gore() -> dict[str, int]:
    """Deliveries waiting (the backlog) and given up on (kept WEBHOOK_RETENTION_DAYS), of every
    tenant, for the `/metrics` gauge (CONTRACT 20): one query on the `durum` index."""
    return durum_sayilari(Teslimat.objects, (Teslimat.Durum.BEKLIYOR, Teslimat.Durum.BASARISIZ))
