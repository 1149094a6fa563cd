"""Helpers of the chat tests: a visitor client and a logged-in operator in one call."""
from rest_framework.test import APIClient

from supportdesk.testing.fixtures import giris_yap, operator_yap, ulasilabilir_yap, widget_client  # noqa: F401 (re-exported)

START = "/api/v1/widget/chat/start"
W_MESAJ = "/api/v1/widget/chat/message"
W_MESAJLAR = "/api/v1/widget/chat/messages"
W_BITIR = "/api/v1/widget/chat/end"
W_PUAN = "/api/v1/widget/chat/rate"
CHATS = "/api/v1/operator/chats"


def op_url(oturum_id, islem: str) -> str:
    return f"/api/v1/operator/chat/{oturum_id}/{islem}"


def ok(res, status: int = 200) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is True, body
    return body["data"]


def operator_istemcisi(*musteriler, durum=None, **kw):
    """A logged-in operator; with `durum` (`cevrimici`, `mesgul`) also reachable with that status, so
    a chat started inside hours waits for it instead of being offered a ticket (CONTRACT 15)."""
    user = operator_yap(*musteriler, **kw)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    if durum:
        ulasilabilir_yap(user, durum=durum)
    return user, client


def baslat(client, ziyaretci_id: str = "z-1", status: int = 201, **govde) -> dict:
    return ok(client.post(START, {"ziyaretci_id": ziyaretci_id, **govde}, format="json"), status)["oturum"]


