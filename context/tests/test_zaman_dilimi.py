"""Issue 13: one time rule for every answer (CONTRACT, top: ISO 8601, `+00:00`), also with a
local TIME_ZONE, where the context endpoints used to answer `+03:00` and the chat ones `+00:00`."""
import base64
import re

import pytest
from rest_framework.test import APIClient

from supportdesk.testing.fixtures import giris_yap, operator_yap

from .yardimci import CUSTOMER_INFO, ERROR_LOG, PAGE_INFO, SCREENSHOT, imzali

pytestmark = pytest.mark.django_db
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$")
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


def zamanlar(deger) -> list[str]:
    if isinstance(deger, dict):
        return [z for v in deger.values() for z in zamanlar(v)]
    if isinstance(deger, list):
        return [z for v in deger for z in zamanlar(v)]
    return [deger] if isinstance(deger, str) and ISO.match(deger) else []


def test_every_time_in_context_and_chat_answers_is_utc(settings, widget, musteri):
    settings.TIME_ZONE = "Europe/Istanbul"
    yanitlar = [
        widget.post(CUSTOMER_INFO, imzali(musteri, paket="Pro"), format="json"),
        widget.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": "https://x.example/"}, format="json"),
        widget.post(ERROR_LOG, {"ziyaretci_id": "z-1", "mesaj": "TypeError"}, format="json"),
        widget.post(SCREENSHOT, {"ziyaretci_id": "z-1", "gorsel": "data:image/png;base64,"
                                 + base64.b64encode(PNG).decode()}, format="json"),
        widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-1", "mesaj": "Merhaba"}, format="json"),
        widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z-1", "konu": "K", "mesaj": "M"}, format="json"),
    ]
    operator = APIClient()
    operator.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(APIClient(), operator_yap(musteri))}")
    yanitlar += [operator.get("/api/v1/operator/context/z-1"), operator.get("/api/v1/operator/chats"),
                 operator.get("/api/v1/operator/tickets")]
    hepsi = []
    for res in yanitlar:
        assert res.status_code in (200, 201), res.content
        hepsi += zamanlar(res.json())
    assert len(hepsi) >= 12, hepsi
    assert all(z.endswith("+00:00") for z in hepsi), [z for z in hepsi if not z.endswith("+00:00")]
