"""Export and erasure of a visitor id the tenant never saw (CONTRACT 18, issue 38): 404
`BULUNAMADI`, not a 200 with nothing; a visitor that was erased stays known (a second erasure
answers 200 with zeros)."""
import pytest
from rest_framework.test import APIClient

from denetim.models import DenetimKaydi
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client

pytestmark = pytest.mark.django_db

OP = "/api/v1/operator/ziyaretci"
Z = "z_" + "c" * 32


@pytest.fixture
def sahip(musteri):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, operator_yap(musteri, rol='sahip'))}")
    return client


def _hata(res, status, kod):
    assert res.status_code == status, res.content
    assert res.json()["basarili"] is False and res.json()["hata"]["kod"] == kod, res.content


@pytest.mark.parametrize("musteri_idli", [True, False])
def test_an_id_the_tenant_never_saw_is_404(musteri, diger_musteri, sahip, musteri_idli):
    # Seen by another tenant only: still unknown here.
    w = widget_client(diger_musteri)
    assert w.post("/api/v1/widget/chat/start", {"ziyaretci_id": Z, "mesaj": "Merhaba"}, format="json").status_code == 201
    ek = f"?musteri_id={musteri.id}" if musteri_idli else ""
    _hata(sahip.get(f"{OP}/{Z}/disa-aktar{ek}"), 404, "BULUNAMADI")
    _hata(sahip.delete(f"{OP}/{Z}{ek}"), 404, "BULUNAMADI")
    _hata(sahip.get(f"{OP}/bilinmeyen-123/disa-aktar{ek}"), 404, "BULUNAMADI")
    _hata(sahip.delete(f"{OP}/bilinmeyen-123{ek}"), 404, "BULUNAMADI")
    assert not DenetimKaydi.objects.filter(musteri_id=musteri.id, eylem__startswith="ziyaretci_").exists()


@pytest.mark.parametrize("iz", ["sohbet", "ticket", "baglam"])
def test_a_visitor_is_known_once_seen_and_stays_known_after_its_erasure(musteri, sahip, iz):
    _hata(sahip.get(f"{OP}/{Z}/disa-aktar?musteri_id={musteri.id}"), 404, "BULUNAMADI")
    w = widget_client(musteri)
    if iz == "sohbet":
        res = w.post("/api/v1/widget/chat/start", {"ziyaretci_id": Z, "mesaj": "Merhaba"}, format="json")
    elif iz == "ticket":
        res = w.post("/api/v1/widget/ticket/create", {"ziyaretci_id": Z, "konu": "Fatura", "mesaj": "Yok"}, format="json")
    else:
        res = w.post("/api/v1/context/page-info", {"ziyaretci_id": Z, "url": "https://ornek.com/a"}, format="json")
    assert res.status_code in (200, 201), res.content
    assert sahip.get(f"{OP}/{Z}/disa-aktar?musteri_id={musteri.id}").status_code == 200
    assert sum(sahip.delete(f"{OP}/{Z}?musteri_id={musteri.id}").json()["data"]["silinen"].values()) > 0
    again = sahip.delete(f"{OP}/{Z}?musteri_id={musteri.id}")
    assert again.status_code == 200, again.content
    assert set(again.json()["data"]["silinen"].values()) == {0}
    assert sahip.get(f"{OP}/{Z}/disa-aktar?musteri_id={musteri.id}").status_code == 200
