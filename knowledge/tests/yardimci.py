"""The help center and campaigns as a visitor's widget sees them."""
from rest_framework.test import APIClient

ZIYARETCI = "kb-ziyaretci"


class ZiyaretciIstemcisi(APIClient):
    """A widget client whose GETs name the visitor (CONTRACT 2), as the widget's own calls do;
    `test_kb_and_campaign_calls_name_the_visitor` covers the calls that leave it out."""

    def get(self, path, data=None, **extra):
        return super().get(path, {"ziyaretci_id": ZIYARETCI, **(data or {})}, **extra)


def ziyaretci_istemcisi(musteri) -> ZiyaretciIstemcisi:
    client = ZiyaretciIstemcisi()
    client.credentials(HTTP_X_API_KEY=musteri.api_key)
    return client
