"""CONTRACT 17's frames through real sockets: `sla_uyari` and `sla_ihlal` (`{"ticket"}`, the
operator shape) reach the ticket's owner only, or every member of its tenant when it has none;
never another tenant. The sweep runs here (`tickets.tasks.sla_tara`); its frames cross to the live
server's sockets through the channel layer, as a Celery worker's would."""
from datetime import timedelta

import pytest
from django.db.models import F

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tickets.models import Ticket
from tickets.tasks import sla_tara

from .yardimci import Rest, giris, operator_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


def _geri_al(ticket_id, dakika):
    fark = timedelta(minutes=dakika)
    alanlar = ["olusturulma", "sla_ilk_vade", "sla_ilk_uyari", "sla_vade", "sla_uyari"]
    Ticket.objects.filter(pk=ticket_id).update(**{a: F(a) - fark for a in alanlar})


def test_sla_frames_go_to_the_owner_or_every_member(canli_sunucu):
    a, b = MusteriFactory(), MusteriFactory()
    sahip, a2, b1 = operator_yap(a, rol="sahip"), operator_yap(a), operator_yap(b)
    tokenlar = {k: giris(canli_sunucu, u) for k, u in (("sahip", sahip), ("a2", a2), ("b1", b1))}
    Rest(canli_sunucu, token=tokenlar["sahip"]).post(f"operator/tenants/{a.id}/sla", {
        "aktif": True, "mesai_icinde": False, "uyari_dk": 10,
        "hedefler": {"normal": {"ilk_yanit_dk": 30}}}, 200, yontem="PUT")
    widget = Rest(canli_sunucu, api_key=a.api_key)
    sahipsiz = widget.post("widget/ticket/create", {"ziyaretci_id": "z1", "konu": "k", "mesaj": "m"}, 201)["ticket"]
    sahipli = widget.post("widget/ticket/create", {"ziyaretci_id": "z2", "konu": "k", "mesaj": "m"}, 201)["ticket"]
    Ticket.objects.filter(pk=sahipli["id"]).update(operator=a2)
    soketler = {k: operator_soketi(canli_sunucu, t)[0] for k, t in tokenlar.items()}

    _geri_al(sahipsiz["id"], 21)
    sla_tara()
    for k in ("sahip", "a2"):
        d = soketler[k].bekle("sla_uyari")
        assert set(d) == {"ticket"} and d["ticket"]["id"] == sahipsiz["id"]
        assert d["ticket"]["sla"]["ilk_yanit"]["durum"] == "bekliyor"

    _geri_al(sahipli["id"], 31)
    sla_tara()
    d = soketler["a2"].bekle("sla_ihlal")
    assert d["ticket"]["id"] == sahipli["id"] and d["ticket"]["sla"]["ilk_yanit"]["durum"] == "ihlal"
    assert [c for c in soketler["sahip"].sessiz() if c["tip"].startswith("sla_")] == []  # the owner's only
    assert [c for c in soketler["b1"].sessiz(0.3) if c["tip"].startswith("sla_")] == []  # never another tenant
    for s in soketler.values():
        s.kapat()
