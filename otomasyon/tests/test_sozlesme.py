"""CONTRACT 23, line by line, where the other files leave a line unproved: `sira` order, `sahip`
writes, every condition field and operation, a visitor's ticket reply as `ziyaretci_mesaji`,
macros' roles (turning a macro shared, deleting, applying another's personal macro) and a macro's
refused action answering with its own code."""
import pytest

from chat.models import Mesaj
from otomasyon.models import Makro
from supportdesk.testing.fixtures import ulasilabilir_yap
from tenants.models import Ekip, Etiket
from tickets.models import Ticket, TicketYanit

from .yardimci import START, W_TICKET, etiket, hata, istemci, kural_yaz, kurallar_url, makrolar_url, ok, operator_yap

pytestmark = pytest.mark.django_db


@pytest.fixture
def yc(musteri):
    return istemci(operator_yap(musteri, rol="yonetici"))


def _notlar(oturum_id) -> list[str]:
    return list(Mesaj.objects.filter(oturum_id=oturum_id, ozel=True).order_by("id").values_list("icerik", flat=True))


def test_rules_run_and_list_in_sira_order_and_an_owner_writes_them(musteri, widget):
    sc = istemci(operator_yap(musteri, rol="sahip"))
    ikinci = kural_yaz(sc, musteri.id, ad="İkinci", olay="chat_baslatildi", sira=5, eylemler=[{"tur": "not", "icerik": "5"}])
    birinci = kural_yaz(sc, musteri.id, ad="Birinci", olay="chat_baslatildi", sira=-1,
                        eylemler=[{"tur": "not", "icerik": "-1"}])
    esit = kural_yaz(sc, musteri.id, ad="Eşit", olay="chat_baslatildi", sira=5, eylemler=[{"tur": "not", "icerik": "5b"}])
    assert [k["id"] for k in ok(sc.get(kurallar_url(musteri.id)))["kurallar"]] == [birinci["id"], ikinci["id"], esit["id"]]
    o = ok(widget.post(START, {"ziyaretci_id": "z1"}, format="json"), 201)["oturum"]
    assert _notlar(o["id"]) == ["-1", "5", "5b"]
    # A change of `sira` reorders the next run at once (the cached rules are dropped).
    ok(sc.put(f"/api/v1/operator/kurallar/{birinci['id']}", {"sira": 9}, format="json"))
    o = ok(widget.post(START, {"ziyaretci_id": "z2"}, format="json"), 201)["oturum"]
    assert _notlar(o["id"]) == ["5", "5b", "-1"]
    ok(sc.delete(f"/api/v1/operator/kurallar/{esit['id']}"))


def _kosul_kurali(yc, musteri, kosul: dict, olay="chat_baslatildi") -> None:
    kural_yaz(yc, musteri.id, olay=olay, kosullar=[kosul], eylemler=[{"tur": "not", "icerik": "tuttu"}])


@pytest.mark.parametrize(("kosul", "govde", "tutar"), [
    ({"alan": "kanal", "islem": "esit", "deger": "widget"}, {}, True),
    ({"alan": "kanal", "islem": "esit_degil", "deger": "widget"}, {}, False),
    ({"alan": "dil", "islem": "esit", "deger": "tr"}, {}, True),
    ({"alan": "dil", "islem": "esit", "deger": "en"}, {}, False),
    ({"alan": "metin", "islem": "icermez", "deger": "İADE"}, {"mesaj": "iade istiyorum"}, False),
    ({"alan": "metin", "islem": "icermez", "deger": "iade"}, {"mesaj": "Fatura"}, True),
    ({"alan": "metin", "islem": "baslar", "deger": "FAT"}, {"mesaj": "fatura"}, True),
    ({"alan": "metin", "islem": "esit", "deger": "fatura"}, {"mesaj": "fatura nerede"}, False),
    ({"alan": "ziyaretci_email", "islem": "esit", "deger": "AYSE@ORNEK.COM"}, {"email": "ayse@ornek.com"}, True),
    ({"alan": "ziyaretci_email", "islem": "icerir", "deger": "@ornek.com"}, {}, False),
    ({"alan": "oncelik", "islem": "esit_degil", "deger": "acil"}, {}, True),  # null on chats
    ({"alan": "etiket", "islem": "icermez", "deger": "vip"}, {}, True),
    ({"alan": "mesai", "islem": "esit", "deger": "acik"}, {}, True),  # no hours set: always open
    ({"alan": "mesai", "islem": "esit", "deger": "kapali"}, {}, False),
])
def test_each_condition_field_and_operation_on_a_chat_start(musteri, widget, yc, kosul, govde, tutar):
    _kosul_kurali(yc, musteri, kosul)
    o = ok(widget.post(START, {"ziyaretci_id": "z1", **govde}, format="json"), 201)["oturum"]
    assert _notlar(o["id"]) == (["tuttu"] if tutar else [])


def test_the_page_the_visitor_is_on_and_the_team_are_conditions(musteri, widget, yc):
    ekip = Ekip.objects.create(musteri=musteri, ad="Satış", anahtar="satis", widgetta_secilir=True)
    _kosul_kurali(yc, musteri, {"alan": "sayfa_url", "islem": "baslar", "deger": "https://ornek.com/FIYAT"})
    _kosul_kurali(yc, musteri, {"alan": "ekip_id", "islem": "esit", "deger": ekip.id})
    ok(widget.post("/api/v1/context/page-info", {"ziyaretci_id": "z1", "url": "https://ornek.com/fiyatlar"},
                   format="json"), 201)
    o = ok(widget.post(START, {"ziyaretci_id": "z1", "ekip_id": ekip.id}, format="json"), 201)["oturum"]
    assert _notlar(o["id"]) == ["tuttu", "tuttu"]
    o = ok(widget.post(START, {"ziyaretci_id": "z2"}, format="json"), 201)["oturum"]
    assert _notlar(o["id"]) == []


def test_a_ticket_priority_condition_and_a_visitors_ticket_reply_is_ziyaretci_mesaji(musteri, widget, yc):
    kural_yaz(yc, musteri.id, olay="ticket_olusturuldu", kosullar=[{"alan": "oncelik", "islem": "esit", "deger": "acil"}],
              eylemler=[{"tur": "not", "icerik": "acil geldi"}])
    kural_yaz(yc, musteri.id, olay="ziyaretci_mesaji", kosullar=[{"alan": "metin", "islem": "icerir", "deger": "hala"}],
              eylemler=[{"tur": "oncelik", "oncelik": "yuksek"}])
    acil = ok(widget.post(W_TICKET, {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M", "oncelik": "acil"},
                          format="json"), 201)["ticket"]
    normal = ok(widget.post(W_TICKET, {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M"}, format="json"), 201)["ticket"]
    assert TicketYanit.objects.filter(ticket_id=acil["id"], ozel=True, icerik="acil geldi").exists()
    assert not TicketYanit.objects.filter(ticket_id=normal["id"], ozel=True).exists()
    ok(widget.post(f"/api/v1/widget/ticket/{normal['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Bekliyorum"},
                   format="json"), 201)
    assert Ticket.objects.get(pk=normal["id"]).oncelik == "normal"
    ok(widget.post(f"/api/v1/widget/ticket/{normal['id']}/reply", {"ziyaretci_id": "z1", "icerik": "HÂLÂ bekliyorum"},
                   format="json"), 201)  # folded both ways: "hâlâ" holds for "hala"
    assert Ticket.objects.get(pk=normal["id"]).oncelik == "yuksek"


# --- macros ----------------------------------------------------------------------------------------
@pytest.fixture
def uye(musteri):
    return ulasilabilir_yap(operator_yap(musteri))


def _makro(client, musteri_id: int, **govde) -> dict:
    return ok(client.post(makrolar_url(musteri_id), {"ad": "Makro", **govde}, format="json"), 201)["makro"]


def test_only_an_admin_makes_a_macro_shared_and_a_shared_one_is_theirs_to_delete(musteri, uye, yc):
    uc = istemci(uye)
    kendi = _makro(uc, musteri.id, eylemler=[{"tur": "kapat"}])
    url = f"/api/v1/operator/makrolar/{kendi['id']}"
    hata(uc.put(url, {"paylasimli": True}, format="json"), 403, "YETKISIZ")
    assert Makro.objects.get(pk=kendi["id"]).paylasimli is False
    paylasilan = _makro(yc, musteri.id, paylasimli=True, eylemler=[{"tur": "kapat"}])
    hata(uc.delete(f"/api/v1/operator/makrolar/{paylasilan['id']}"), 403, "YETKISIZ")
    sahip = istemci(operator_yap(musteri, rol="sahip"))
    assert ok(sahip.put(f"/api/v1/operator/makrolar/{paylasilan['id']}", {"ad": "Kapat"}, format="json"))["makro"][
        "ad"] == "Kapat"
    ok(sahip.delete(f"/api/v1/operator/makrolar/{paylasilan['id']}"))
    ok(uc.delete(url))  # its owner deletes its own
    assert not Makro.objects.exists()


def test_another_members_personal_macro_cannot_be_applied(musteri, uye):
    kendi = _makro(istemci(uye), musteri.id, eylemler=[{"tur": "not", "icerik": "x"}])
    ticket = Ticket.objects.create(musteri=musteri, ziyaretci_id="z1", konu="k")
    for kim in (operator_yap(musteri), operator_yap(musteri, rol="yonetici")):
        hata(istemci(kim).post(f"/api/v1/operator/makrolar/{kendi['id']}/uygula", {"tur": "ticket", "id": ticket.id},
                               format="json"), 404, "BULUNAMADI")
    assert not TicketYanit.objects.exists()


def test_a_macros_refused_action_answers_with_its_own_code_and_nothing_stays(musteri, uye):
    vip, gecici = etiket(musteri, "VIP"), etiket(musteri, "Geçici")
    m = _makro(istemci(uye), musteri.id, eylemler=[{"tur": "etiket_ekle", "etiket_id": vip.id},
                                                   {"tur": "oncelik", "oncelik": "acil"},
                                                   {"tur": "etiket_ekle", "etiket_id": gecici.id}])
    Etiket.objects.filter(pk=gecici.id).delete()  # the label went after the macro was written
    ticket = Ticket.objects.create(musteri=musteri, ziyaretci_id="z1", konu="k")
    h = hata(istemci(uye).post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "ticket", "id": ticket.id},
                               format="json"), 404, "BULUNAMADI")
    assert h["mesaj"] == "Etiket bulunamadı."  # the label action's own refusal
    ticket.refresh_from_db()
    assert ticket.oncelik == "normal" and not ticket.etiketler.exists()
