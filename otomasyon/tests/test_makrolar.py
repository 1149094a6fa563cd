"""Macros over HTTP (CONTRACT 23): who sees and edits which, and `uygula`: the caller's own actions,
in one transaction, all or nothing."""
import pytest

from chat.models import Mesaj, Oturum
from otomasyon.models import Makro
from supportdesk.testing.fixtures import ulasilabilir_yap
from tickets.models import Ticket

from .yardimci import etiket, hata, istemci, makrolar_url, ok, operator_yap

pytestmark = pytest.mark.django_db


@pytest.fixture
def uye(musteri):
    return ulasilabilir_yap(operator_yap(musteri))


@pytest.fixture
def uc(uye):
    return istemci(uye)


def _makro(client, musteri_id: int, status: int = 201, **govde) -> dict:
    return ok(client.post(makrolar_url(musteri_id), {"ad": "Makro", **govde}, format="json"), status)["makro"]


def test_personal_macros_are_the_owners_and_shared_ones_need_an_admin(musteri, uye, uc):
    kisisel = _makro(uc, musteri.id, eylemler=[{"tur": "mesaj", "icerik": "Merhaba"}])
    assert kisisel == {"id": kisisel["id"], "ad": "Makro", "paylasimli": False, "sahip_id": uye.id,
                       "eylemler": [{"tur": "mesaj", "icerik": "Merhaba"}]}
    hata(uc.post(makrolar_url(musteri.id), {"ad": "P", "paylasimli": True, "eylemler": [{"tur": "kapat"}]},
                 format="json"), 403, "YETKISIZ")
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    paylasilan = _makro(yc, musteri.id, paylasimli=True, eylemler=[{"tur": "kapat"}])
    baska = istemci(operator_yap(musteri))
    assert [m["id"] for m in ok(baska.get(makrolar_url(musteri.id)))["makrolar"]] == [paylasilan["id"]]
    assert {m["id"] for m in ok(uc.get(makrolar_url(musteri.id)))["makrolar"]} == {kisisel["id"], paylasilan["id"]}
    # Another's personal macro is as missing as another tenant's; a shared one is the admins'.
    hata(baska.put(f"/api/v1/operator/makrolar/{kisisel['id']}", {"ad": "x"}, format="json"), 404, "BULUNAMADI")
    hata(yc.delete(f"/api/v1/operator/makrolar/{kisisel['id']}"), 404, "BULUNAMADI")
    hata(uc.put(f"/api/v1/operator/makrolar/{paylasilan['id']}", {"ad": "x"}, format="json"), 403, "YETKISIZ")
    assert ok(uc.put(f"/api/v1/operator/makrolar/{kisisel['id']}", {"ad": "Selam"}, format="json"))["makro"]["ad"] == "Selam"
    ok(yc.delete(f"/api/v1/operator/makrolar/{paylasilan['id']}"))
    assert list(Makro.objects.values_list("ad", flat=True)) == ["Selam"]


def test_a_bad_macro_is_400_and_another_tenants_are_404(musteri, diger_musteri, uc):
    yabanci = etiket(diger_musteri, "Yabancı")
    h = hata(uc.post(makrolar_url(musteri.id), {"ad": "x", "eylemler": [{"tur": "etiket_ekle", "etiket_id": yabanci.id}]},
                     format="json"), 400, "GECERSIZ_ISTEK")
    assert "eylemler.0.etiket_id" in h["alanlar"]
    hata(uc.post(makrolar_url(musteri.id), {"ad": "x", "eylemler": [{"tur": "mesaj"}]}, format="json"),
         400, "GECERSIZ_ISTEK")
    hata(uc.get(makrolar_url(diger_musteri.id)), 404, "BULUNAMADI")
    diger = istemci(operator_yap(diger_musteri))
    m = _makro(diger, diger_musteri.id, eylemler=[{"tur": "kapat"}])
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "chat", "id": 1}, format="json"), 404, "BULUNAMADI")
    assert Makro.objects.count() == 1


def test_applying_claims_a_waiting_chat_and_runs_every_action_as_the_caller(musteri, uye, uc):
    vip = etiket(musteri, "VIP")
    m = _makro(uc, musteri.id, eylemler=[{"tur": "etiket_ekle", "etiket_id": vip.id},
                                         {"tur": "mesaj", "icerik": "Merhaba, bakıyorum."},
                                         {"tur": "not", "icerik": "VIP müşteri"}])
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z1")
    data = ok(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "chat", "id": oturum.id}, format="json"))
    assert data["oturum"]["durum"] == "aktif" and data["oturum"]["operator_id"] == uye.id
    assert [e["ad"] for e in data["oturum"]["etiketler"]] == ["VIP"]
    assert list(Mesaj.objects.filter(oturum=oturum).values_list("gonderen", "ozel", "operator_id")) == [
        ("sistem", False, None), ("operator", False, uye.id), ("operator", True, uye.id)]


def test_a_refused_action_undoes_the_whole_macro(musteri, uye, uc):
    vip = etiket(musteri, "VIP")
    m = _makro(uc, musteri.id, eylemler=[{"tur": "etiket_ekle", "etiket_id": vip.id}, {"tur": "kapat"},
                                         {"tur": "mesaj", "icerik": "Kapandıktan sonra"}])
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z1", durum="aktif", operator=uye)
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "chat", "id": oturum.id}, format="json"),
         409, "DURUM_CAKISMASI")
    oturum.refresh_from_db()
    assert oturum.durum == "aktif" and not oturum.etiketler.exists() and not Mesaj.objects.exists()


def test_a_plain_operator_macro_on_a_colleagues_chat_is_409_and_changes_nothing(musteri, uc):
    vip = etiket(musteri, "VIP")
    m = _makro(uc, musteri.id, eylemler=[{"tur": "etiket_ekle", "etiket_id": vip.id},
                                         {"tur": "mesaj", "icerik": "Ben de buradayım"}])
    meslektas = operator_yap(musteri)
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z1", durum="aktif", operator=meslektas)
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "chat", "id": oturum.id}, format="json"),
         409, "DURUM_CAKISMASI")
    assert not oturum.etiketler.exists()


def test_applying_to_a_ticket_and_bad_targets(musteri, diger_musteri, uye, uc):
    m = _makro(uc, musteri.id, eylemler=[{"tur": "oncelik", "oncelik": "yuksek"}, {"tur": "durum", "durum": "beklemede"},
                                         {"tur": "mesaj", "icerik": "Yanıtınızı bekliyoruz."}])
    ticket = Ticket.objects.create(musteri=musteri, ziyaretci_id="z1", konu="k")
    data = ok(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "ticket", "id": ticket.id}, format="json"))
    assert (data["ticket"]["oncelik"], data["ticket"]["durum"]) == ("yuksek", "beklemede")
    yabanci = Ticket.objects.create(musteri=diger_musteri, ziyaretci_id="z1", konu="k")
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "ticket", "id": yabanci.id}, format="json"),
         404, "BULUNAMADI")
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "dosya", "id": ticket.id}, format="json"),
         400, "GECERSIZ_ISTEK")
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "ticket", "id": "x"}, format="json"),
         404, "BULUNAMADI")
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", ["x"], format="json"), 400, "GECERSIZ_ISTEK")
    # A closed ticket refuses the reply: nothing of the macro stays.
    kapali = Ticket.objects.create(musteri=musteri, ziyaretci_id="z2", konu="k", durum="kapandi")
    hata(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "ticket", "id": kapali.id}, format="json"),
         409, "DURUM_CAKISMASI")
    assert Ticket.objects.get(pk=kapali.id).oncelik == "normal"


def test_a_macro_gives_a_ticket_to_a_team(musteri, uc):
    from tenants.models import Ekip

    ekip = Ekip.objects.create(musteri=musteri, ad="Satış", anahtar="satis")
    m = _makro(uc, musteri.id, eylemler=[{"tur": "ekibe_ata", "ekip_id": ekip.id}])
    ticket = Ticket.objects.create(musteri=musteri, ziyaretci_id="z1", konu="k")
    ok(uc.post(f"/api/v1/operator/makrolar/{m['id']}/uygula", {"tur": "ticket", "id": ticket.id}, format="json"))
    assert Ticket.objects.get(pk=ticket.id).ekip_id == ekip.id
