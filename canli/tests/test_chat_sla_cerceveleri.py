"""CONTRACT 24's chat SLA frames through real sockets: the chat sweep (`chat.tasks.sla_tara`) sends
`sla_uyari` and `sla_ihlal` with `{"oturum"}` (the operator shape, its `sla.ilk_yanit` included) to
every member while the chat waits, to its operator only once taken; never another tenant."""
from datetime import timedelta

import pytest
from django.db.models import F

from chat.models import Oturum
from chat.tasks import sla_tara
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, giris, operator_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


def _geri_al(oturum_id, saniye):
    fark = timedelta(seconds=saniye)
    Oturum.objects.filter(pk=oturum_id).update(**{a: F(a) - fark for a in ("baslangic", "sla_ilk_vade", "sla_ilk_uyari")})


def test_chat_sla_frames_go_to_every_member_while_waiting_then_to_its_operator(canli_sunucu):
    a, b = MusteriFactory(), MusteriFactory()
    sahip, a2, b1 = operator_yap(a, rol="sahip"), operator_yap(a), operator_yap(b)
    tokenlar = {k: giris(canli_sunucu, u) for k, u in (("sahip", sahip), ("a2", a2), ("b1", b1))}
    Rest(canli_sunucu, token=tokenlar["sahip"]).post(f"operator/tenants/{a.id}/sla", {
        "aktif": True, "mesai_icinde": False, "uyari_dk": 1, "chat_ilk_yanit_sn": 300}, 200, yontem="PUT")
    widget = Rest(canli_sunucu, api_key=a.api_key)
    bekleyen = widget.post("widget/chat/start", {"ziyaretci_id": "z1"}, 201)["oturum"]
    alinan = widget.post("widget/chat/start", {"ziyaretci_id": "z2"}, 201)["oturum"]
    Rest(canli_sunucu, token=tokenlar["a2"]).post(f"operator/chat/{alinan['id']}/accept", {}, 200)
    soketler = {k: operator_soketi(canli_sunucu, t)[0] for k, t in tokenlar.items()}

    _geri_al(bekleyen["id"], 250)  # 50 s left: within the 1-minute warning
    sla_tara()
    for k in ("sahip", "a2"):
        d = soketler[k].bekle("sla_uyari")
        assert set(d) == {"oturum"} and d["oturum"]["id"] == bekleyen["id"]
        assert d["oturum"]["sla"]["ilk_yanit"]["durum"] == "bekliyor"

    _geri_al(alinan["id"], 301)
    sla_tara()
    d = soketler["a2"].bekle("sla_ihlal")
    assert d["oturum"]["id"] == alinan["id"] and d["oturum"]["sla"]["ilk_yanit"]["durum"] == "ihlal"
    assert [c for c in soketler["sahip"].sessiz() if c["tip"] == "sla_ihlal"] == []  # its operator's only
    assert [c for c in soketler["b1"].sessiz(0.3) if c["tip"].startswith("sla_")] == []  # never another tenant
    for s in soketler.values():
        s.kapat()
