"""Rules over HTTP (CONTRACT 23): who may read and write, validation (nothing changes on an error),
isolation between tenants, the audit entry, and the runs list."""
import pytest

from denetim.models import DenetimKaydi
from otomasyon.models import Kural

from .yardimci import etiket, hata, istemci, kural_yaz, kurallar_url, ok, operator_yap

pytestmark = pytest.mark.django_db


@pytest.fixture
def yonetici(musteri):
    return operator_yap(musteri, rol="yonetici")


@pytest.fixture
def yc(yonetici):
    return istemci(yonetici)


def test_an_admin_creates_changes_lists_and_deletes_a_rule_and_each_write_is_audited(musteri, yc, yonetici):
    vip = etiket(musteri, "VIP")
    kural = kural_yaz(yc, musteri.id, ad="Fatura", olay="chat_baslatildi", sira=2,
                      kosullar=[{"alan": "metin", "islem": "icerir", "deger": "fatura"}],
                      eylemler=[{"tur": "etiket_ekle", "etiket_id": vip.id}, {"tur": "not", "icerik": " Bak "}])
    assert kural == {"id": kural["id"], "ad": "Fatura", "aktif": True, "olay": "chat_baslatildi", "sira": 2,
                     "kosullar": [{"alan": "metin", "islem": "icerir", "deger": "fatura"}],
                     "eylemler": [{"tur": "etiket_ekle", "etiket_id": vip.id}, {"tur": "not", "icerik": "Bak"}]}
    url = f"/api/v1/operator/kurallar/{kural['id']}"
    degisen = ok(yc.put(url, {"aktif": False, "ad": "Fatura 2"}, format="json"))["kural"]
    assert degisen["aktif"] is False and degisen["ad"] == "Fatura 2" and degisen["eylemler"] == kural["eylemler"]
    assert [k["id"] for k in ok(yc.get(kurallar_url(musteri.id)))["kurallar"]] == [kural["id"]]
    ok(yc.delete(url))
    assert not Kural.objects.exists()
    kayitlar = DenetimKaydi.objects.filter(eylem="kural_degisti").order_by("id")
    assert [k.ayrinti["islem"] for k in kayitlar] == ["olusturuldu", "degisti", "silindi"]
    assert {k.kullanici_id for k in kayitlar} == {yonetici.id}


def test_a_plain_operator_reads_but_may_not_write(musteri, yc):
    kural = kural_yaz(yc, musteri.id, olay="ziyaretci_mesaji", eylemler=[{"tur": "kapat"}])
    oc = istemci(operator_yap(musteri))
    assert len(ok(oc.get(kurallar_url(musteri.id)))["kurallar"]) == 1
    assert ok(oc.get(f"/api/v1/operator/kurallar/{kural['id']}/calismalar")) == {"calismalar": []}
    hata(oc.post(kurallar_url(musteri.id), {"ad": "x", "olay": "chat_baslatildi", "eylemler": [{"tur": "kapat"}]},
                 format="json"), 403, "YETKISIZ")
    hata(oc.put(f"/api/v1/operator/kurallar/{kural['id']}", {"aktif": False}, format="json"), 403, "YETKISIZ")
    hata(oc.delete(f"/api/v1/operator/kurallar/{kural['id']}"), 403, "YETKISIZ")
    assert Kural.objects.get().aktif is True


def test_another_tenants_rules_are_404_and_never_listed(musteri, diger_musteri, yc):
    yabanci = istemci(operator_yap(diger_musteri, rol="sahip"))
    kural = kural_yaz(yabanci, diger_musteri.id, olay="chat_baslatildi", eylemler=[{"tur": "kapat"}])
    hata(yc.get(kurallar_url(diger_musteri.id)), 404, "BULUNAMADI")
    hata(yc.post(kurallar_url(diger_musteri.id), {"ad": "x", "olay": "chat_baslatildi",
                                                  "eylemler": [{"tur": "kapat"}]}, format="json"), 404, "BULUNAMADI")
    for islem in (yc.put, yc.delete):
        hata(islem(f"/api/v1/operator/kurallar/{kural['id']}", {"aktif": False}, format="json"), 404, "BULUNAMADI")
    hata(yc.get(f"/api/v1/operator/kurallar/{kural['id']}/calismalar"), 404, "BULUNAMADI")
    assert ok(yc.get(kurallar_url(musteri.id)))["kurallar"] == []


@pytest.mark.parametrize(("govde", "alan"), [
    ({"olay": "bilinmeyen"}, "olay"),
    ({"kosullar": [{"alan": "renk", "islem": "esit", "deger": "x"}]}, "kosullar.0.alan"),
    ({"kosullar": [{"alan": "metin", "islem": "benzer", "deger": "x"}]}, "kosullar.0.islem"),
    ({"kosullar": [{"alan": "metin", "islem": "esit", "deger": 5}]}, "kosullar.0.deger"),
    ({"kosullar": [{"alan": "mesai", "islem": "esit", "deger": "belki"}]}, "kosullar.0.deger"),
    ({"kosullar": "metin"}, "kosullar"),
    ({"eylemler": []}, "eylemler"),
    ({"eylemler": [{"tur": "uc"}]}, "eylemler.0.tur"),
    ({"eylemler": [{"tur": "mesaj", "icerik": "macro only"}]}, "eylemler.0.tur"),
    ({"eylemler": [{"tur": "oncelik", "oncelik": "cok"}]}, "eylemler.0.oncelik"),
    ({"eylemler": [{"tur": "durum", "durum": "silindi"}]}, "eylemler.0.durum"),
    ({"eylemler": [{"tur": "not", "icerik": "  "}]}, "eylemler.0.icerik"),
    ({"eylemler": [{"tur": "kapat", "fazla": 1}]}, "eylemler.0"),
    ({"eylemler": [{"tur": "etiket_ekle", "etiket_id": "1"}]}, "eylemler.0.etiket_id"),
    ({"sira": "bir"}, "sira"),
    ({"aktif": "evet"}, "aktif"),
    ({"ad": ""}, "ad"),
    ({"bilinmeyen": 1}, "bilinmeyen"),
])
def test_a_bad_rule_is_400_naming_its_place_and_creates_nothing(musteri, yc, govde, alan):
    tam = {"ad": "Kural", "olay": "chat_baslatildi", "kosullar": [], "eylemler": [{"tur": "kapat"}], **govde}
    h = hata(yc.post(kurallar_url(musteri.id), tam, format="json"), 400, "GECERSIZ_ISTEK")
    assert alan in h["alanlar"], h
    assert not Kural.objects.exists() and not DenetimKaydi.objects.filter(eylem="kural_degisti").exists()


def test_ids_of_another_tenant_are_400_and_a_bad_change_changes_nothing(musteri, diger_musteri, yc):
    from chat.models import HazirYanit
    from tenants.models import Ekip

    yabanci_etiket = etiket(diger_musteri, "Yabancı")
    yabanci_hazir = HazirYanit.objects.create(musteri=diger_musteri, kisayol="/x", baslik="x", icerik="x")
    yabanci_ekip = Ekip.objects.create(musteri=diger_musteri, ad="Satış", anahtar="satis")
    yabanci_uye = operator_yap(diger_musteri)
    for eylem, alan in (({"tur": "etiket_ekle", "etiket_id": yabanci_etiket.id}, "etiket_id"),
                        ({"tur": "hazir_yanit", "hazir_yanit_id": yabanci_hazir.id}, "hazir_yanit_id"),
                        ({"tur": "ekibe_ata", "ekip_id": yabanci_ekip.id}, "ekip_id"),
                        ({"tur": "operatore_ata", "operator_id": yabanci_uye.id}, "operator_id")):
        h = hata(yc.post(kurallar_url(musteri.id), {"ad": "x", "olay": "chat_baslatildi", "eylemler": [eylem]},
                         format="json"), 400, "GECERSIZ_ISTEK")
        assert f"eylemler.0.{alan}" in h["alanlar"]
    h = hata(yc.post(kurallar_url(musteri.id), {"ad": "x", "olay": "chat_baslatildi", "eylemler": [{"tur": "kapat"}],
                                                "kosullar": [{"alan": "ekip_id", "islem": "esit",
                                                              "deger": yabanci_ekip.id}]}, format="json"),
             400, "GECERSIZ_ISTEK")
    assert "kosullar.0.deger" in h["alanlar"]
    kural = kural_yaz(yc, musteri.id, olay="chat_baslatildi", eylemler=[{"tur": "kapat"}])
    hata(yc.put(f"/api/v1/operator/kurallar/{kural['id']}",
                {"ad": "Yeni ad", "eylemler": [{"tur": "etiket_ekle", "etiket_id": yabanci_etiket.id}]}, format="json"),
         400, "GECERSIZ_ISTEK")
    assert Kural.objects.get().ad == "Kural"


def test_malformed_bodies_are_400_in_the_envelope(musteri, yc):
    res = yc.post(kurallar_url(musteri.id), "{bozuk", content_type="application/json")
    hata(res, 400, "GECERSIZ_ISTEK")
    hata(yc.post(kurallar_url(musteri.id), [1, 2], format="json"), 400, "GECERSIZ_ISTEK")
    hata(yc.put("/api/v1/operator/kurallar/99999999", {"aktif": True}, format="json"), 404, "BULUNAMADI")


def test_the_tenant_knows_whether_it_has_an_active_rule(musteri, yc):
    # Musteri.kurallar_var: the hot paths skip the rules (and their cache read) without one.
    from tenants.models import Musteri

    def var() -> bool:
        return Musteri.objects.get(pk=musteri.pk).kurallar_var

    assert var() is False
    kural = ok(yc.post(kurallar_url(musteri.id), {"ad": "Fatura", "olay": "chat_baslatildi",
                                                  "eylemler": [{"tur": "kapat"}]}, format="json"), 201)["kural"]
    assert var() is True
    url = f"/api/v1/operator/kurallar/{kural['id']}"
    ok(yc.put(url, {"aktif": False}, format="json"))
    assert var() is False
    ok(yc.put(url, {"aktif": True}, format="json"))
    assert var() is True
    ok(yc.delete(url))
    assert var() is False
