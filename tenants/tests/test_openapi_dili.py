"""Issue 39.9: the OpenAPI document speaks the reader's language everywhere, not only for chat,
tickets and the widget: every operation's summary follows `Accept-Language` (CONTRACT 19)."""
import json
import re

import pytest

pytestmark = pytest.mark.django_db
TURKCE_HARF = re.compile(r"[çğıöşüÇĞİÖŞÜ]")


def _ozetler(api, dil: str) -> dict[str, str]:
    res = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json", HTTP_ACCEPT_LANGUAGE=dil)
    assert res.status_code == 200
    sema = json.loads(res.content)
    return {f"{yontem.upper()} {yol}": islem.get("summary", "") for yol, islemler in sema["paths"].items()
            for yontem, islem in islemler.items() if isinstance(islem, dict)}


def test_every_summary_is_english_for_an_english_reader(api):
    ozetler = _ozetler(api, "en-US")
    turkce = {ad: ozet for ad, ozet in ozetler.items() if TURKCE_HARF.search(ozet)}
    assert not turkce, turkce
    assert ozetler["GET /api/v1/operator/tenants/{musteri_id}/denetim"] == \
        "The project's audit log, newest first (owner, admin)"
    assert ozetler["POST /api/v1/auth/login"] == "Operator login"


def test_the_same_summaries_are_turkish_for_a_turkish_reader(api):
    ozetler = _ozetler(api, "tr")
    assert ozetler["GET /api/v1/operator/tenants/{musteri_id}/denetim"] == \
        "Projenin denetim kaydı, en yeni önce (sahip, yönetici)"
    assert ozetler["POST /api/v1/auth/login"] == "Operatör girişi"
