"""CONTRACT 16: a ticket's owner and priority (`PATCH /operator/ticket/{id}`), the operator shape's
`operator_id` / `operator_adi`, and the filters and orders of `GET /operator/tickets`."""
import pytest

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.models import Etiket
from tenants.tests.test_auth import hata
from tickets.models import Ticket
from webhooks.models import Olay

from .test_tickets import ac, ok, op_client

pytestmark = pytest.mark.django_db
OP = "/api/v1/operator"


@pytest.fixture
def ortam(musteri):
    class Ortam:
        m = musteri
        ben = operator_yap(musteri)
        arkadas = operator_yap(musteri)
        yabanci = operator_yap(MusteriFactory())
        widget = widget_client(musteri)
    Ortam.arkadas.ad = "Zeynep Kaya"
    Ortam.arkadas.save()
    Ortam.client = op_client(Ortam.ben)
    return Ortam


def _patch(o, ticket_id, govde, client=None):
    return (client or o.client).patch(f"{OP}/ticket/{ticket_id}", govde, format="json")


def test_sahip_ve_oncelik_ayarlanir_ve_kaldirilir(ortam):
    t = ac(ortam.widget)
    assert ok(ortam.client.get(f"{OP}/ticket/{t['id']}"))["ticket"]["operator_id"] is None
    yeni = ok(_patch(ortam, t["id"], {"operator_id": ortam.arkadas.id, "oncelik": "acil"}))["ticket"]
    assert (yeni["operator_id"], yeni["operator_adi"], yeni["oncelik"]) == (ortam.arkadas.id, "Zeynep Kaya", "acil")
    assert yeni["guncellenme"] > t["guncellenme"]
    # One without a display name is named by its e-mail to colleagues.
    assert ok(_patch(ortam, t["id"], {"operator_id": ortam.ben.id}))["ticket"]["operator_adi"] == ortam.ben.email
    bos = ok(_patch(ortam, t["id"], {"operator_id": None}))["ticket"]
    assert (bos["operator_id"], bos["operator_adi"], bos["oncelik"]) == (None, None, "acil")
    # The widget never sees an owner.
    wt = ok(ortam.widget.get(f"/api/v1/widget/ticket/{t['id']}", {"ziyaretci_id": "z1"}))["ticket"]
    assert "operator_id" not in wt and "operator_adi" not in wt


@pytest.mark.parametrize("govde", [{}, {"oncelik": "cok_acil"}, {"oncelik": None}, {"operator_id": "1"},
                                   {"operator_id": True}, {"operator_id": 0}])
def test_gecersiz_girdi_400_hicbir_sey_degismez(ortam, govde):
    t = ac(ortam.widget)
    hata(_patch(ortam, t["id"], govde), 400, "GECERSIZ_ISTEK")
    assert Ticket.objects.filter(pk=t["id"], operator__isnull=True, oncelik="normal").exists()


def test_uye_olmayan_sahip_ve_baska_projenin_ticketi_404(ortam):
    t = ac(ortam.widget)
    hata(_patch(ortam, t["id"], {"operator_id": ortam.yabanci.id, "oncelik": "acil"}), 404, "BULUNAMADI")
    hata(_patch(ortam, t["id"], {"operator_id": 10**15}), 404, "BULUNAMADI")
    hata(_patch(ortam, t["id"], {"oncelik": "acil"}, client=op_client(ortam.yabanci)), 404, "BULUNAMADI")
    assert Ticket.objects.filter(pk=t["id"], operator__isnull=True, oncelik="normal").exists()


def test_kapali_ticket_409(ortam):
    t = ac(ortam.widget)
    ok(ortam.client.put(f"{OP}/ticket/{t['id']}/status", {"durum": "kapandi"}, format="json"))
    hata(_patch(ortam, t["id"], {"oncelik": "acil"}), 409, "DURUM_CAKISMASI")


def test_degisiklik_ticket_guncellendi_olayidir_webhook_degildir(ortam):
    # Issue 40: no dead event. A change of owner or priority is stated once, as the ticket's
    # `ticket_guncellendi` (the consoles' frame); the audit log does not record it and no webhook
    # sees it.
    from supportdesk.core import olaylar

    t = ac(ortam.widget)
    gelen = []
    olaylar.dinle("ticket_guncellendi", islem_icinde=True)(gelen.append)
    try:
        ok(_patch(ortam, t["id"], {"oncelik": "yuksek"}))
        ok(_patch(ortam, t["id"], {"oncelik": "yuksek"}))  # no change: no event
    finally:
        olaylar.dinlemeyi_birak(gelen.append)
    [olay] = gelen
    assert olay.veri["ticket"].pk == t["id"] and olay.veri["ticket"].oncelik == "yuksek"
    assert "ticket_duzenlendi" not in olaylar.TUM_OLAYLAR
    assert set(Olay.objects.values_list("olay", flat=True)) == {"yeni_ticket"}


def _idler(o, **params):
    return [t["id"] for t in ok(o.client.get(f"{OP}/tickets", params))["ticketlar"]]


def test_suzgecler(ortam):
    t1 = ac(ortam.widget, konu="Şifremi unuttum", mesaj="Giriş yapamıyorum")
    t2 = ac(ortam.widget, konu="Fatura", mesaj="ÖDEME hatası aldım", oncelik="acil")
    t3 = ac(ortam.widget, konu="Diğer", mesaj="x")
    ok(_patch(ortam, t1["id"], {"operator_id": ortam.ben.id}))
    ok(_patch(ortam, t2["id"], {"operator_id": ortam.arkadas.id}))
    e = Etiket.objects.create(musteri=ortam.m, ad="VIP", anahtar="vip")
    ok(ortam.client.put(f"{OP}/ticket/{t3['id']}/etiketler", {"etiket_idleri": [e.id]}, format="json"))
    ok(ortam.client.post(f"{OP}/ticket/{t3['id']}/reply", {"icerik": "iç not: iade süreci", "ozel": True}, format="json"),
       201)
    assert _idler(ortam, operator_id="ben") == [t1["id"]]
    assert _idler(ortam, operator_id=str(ortam.arkadas.id)) == [t2["id"]]
    assert _idler(ortam, operator_id="yok") == [t3["id"]]
    assert _idler(ortam, oncelik="acil") == [t2["id"]]
    assert _idler(ortam, etiket_id=e.id) == [t3["id"]]
    assert _idler(ortam, q="sifre") == [t1["id"]]  # Turkish folding: "sifre" finds "Şifremi"
    assert _idler(ortam, q="odeme") == [t2["id"]]  # in the text, folded
    assert _idler(ortam, q="İADE") == [t3["id"]]  # notes are searched too (operators only)
    assert _idler(ortam, q="yok-boyle-bir-sey") == []
    assert _idler(ortam, durum="acik", oncelik="acil", operator_id=str(ortam.arkadas.id)) == [t2["id"]]


def test_siralama_guncellenme_varsayilan_olusturulma_secilir(ortam):
    t1, t2 = ac(ortam.widget), ac(ortam.widget)
    ok(_patch(ortam, t1["id"], {"oncelik": "yuksek"}))  # t1 is now the most recently updated
    assert _idler(ortam) == [t1["id"], t2["id"]]
    assert _idler(ortam, siralama="guncellenme") == [t1["id"], t2["id"]]
    assert _idler(ortam, siralama="olusturulma") == [t2["id"], t1["id"]]
    sayfa = ok(ortam.client.get(f"{OP}/tickets", {"limit": 1, "siralama": "olusturulma"}))
    devam = ok(ortam.client.get(f"{OP}/tickets", {"limit": 1, "siralama": "olusturulma", "cursor": sayfa["sonraki"]}))
    assert [t["id"] for t in sayfa["ticketlar"] + devam["ticketlar"]] == [t2["id"], t1["id"]]


@pytest.mark.parametrize("params", [{"operator_id": "biri"}, {"operator_id": "-1"}, {"operator_id": "0"},
                                    {"etiket_id": "x"}, {"etiket_id": "0"}, {"siralama": "sla_yok"},
                                    {"siralama": "konu"}, {"q": "x" * 201}, {"oncelik": "orta"}])
def test_gecersiz_suzgec_400(ortam, params):
    hata(ortam.client.get(f"{OP}/tickets", params), 400, "GECERSIZ_ISTEK")


def test_baska_projenin_etiketiyle_suzme_404(ortam):
    yabanci = Etiket.objects.create(musteri=ortam.yabanci.uyelikler.get().musteri, ad="Y", anahtar="y")
    hata(ortam.client.get(f"{OP}/tickets", {"etiket_id": yabanci.id}), 404, "BULUNAMADI")
    hata(ortam.client.get(f"{OP}/chats", {"etiket_id": yabanci.id}), 404, "BULUNAMADI")


def test_sohbet_listesi_etiket_ve_q_ile(ortam):
    w = ortam.widget
    o1 = ok(w.post("/api/v1/widget/chat/start", {"ziyaretci_id": "a", "ad": "Ayşe Öztürk", "mesaj": "Merhaba"},
                   format="json"), 201)["oturum"]
    o2 = ok(w.post("/api/v1/widget/chat/start", {"ziyaretci_id": "b", "mesaj": "Şifre sorunu"}, format="json"),
            201)["oturum"]
    e = Etiket.objects.create(musteri=ortam.m, ad="VIP", anahtar="vip")
    ok(ortam.client.put(f"{OP}/chat/{o2['id']}/etiketler", {"etiket_idleri": [e.id]}, format="json"))

    def ids(**p):
        return [o["id"] for o in ok(ortam.client.get(f"{OP}/chats", p))["oturumlar"]]

    assert ids() == [o1["id"], o2["id"]]
    assert ids(etiket_id=e.id) == [o2["id"]]
    assert ids(q="ozturk") == [o1["id"]]
    assert ids(q="SIFRE") == [o2["id"]]
    for bozuk in ({"etiket_id": "x"}, {"q": "x" * 201}):
        hata(ortam.client.get(f"{OP}/chats", bozuk), 400, "GECERSIZ_ISTEK")
