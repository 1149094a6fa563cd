"""Rules and macros (CONTRACT 23) probed as an attacker and a careless client would: every bad body
is the contract's error envelope with the right status (never a 500), changes nothing, and leaves
every later read of the lists working."""
import json

import pytest

from otomasyon.models import Kural, Makro

from .yardimci import etiket, hata, istemci, kurallar_url, makrolar_url, ok, operator_yap

pytestmark = pytest.mark.django_db

API = "/api/v1"
# Values no field of a rule or a macro takes where a name, a string or an id is expected.
KOTU_DEGERLER = [None, True, 0, -1, 1.5, 2**63, 2**64, 10**30, 1e308, "", "x" * 70_000, "a\x00b", "a\ud800b",
                 "\udfff", [], [1, 1], {}, {"a": 1}, [[]]]


def _gonder(client, method: str, yol: str, govde) -> object:
    # Raw JSON: the test client's own encoder would refuse a lone surrogate before the server sees it.
    return client.generic(method, yol, json.dumps(govde), content_type="application/json")


def _hata_zarfi(res, etiket_: str) -> dict:
    assert res.status_code in (400, 403, 404, 409), f"{etiket_}: {res.status_code} {res.content[:300]!r}"
    body = json.loads(res.content.decode("utf-8"))
    assert body["basarili"] is False and body["hata"]["kod"], f"{etiket_}: {body}"
    return body["hata"]


@pytest.fixture
def ortam(musteri, diger_musteri):
    yonetici = operator_yap(musteri, rol="yonetici")
    yc = istemci(yonetici)
    vip = etiket(musteri, "VIP")
    yabanci_etiket = etiket(diger_musteri, "Yabancı")
    res = yc.post(kurallar_url(musteri.id), {"ad": "Kural", "olay": "chat_baslatildi", "kosullar": [],
                                             "eylemler": [{"tur": "etiket_ekle", "etiket_id": vip.id}]}, format="json")
    kural = ok(res, 201)["kural"]
    res = yc.post(makrolar_url(musteri.id), {"ad": "Makro", "paylasimli": True,
                                             "eylemler": [{"tur": "mesaj", "icerik": "Merhaba"}]}, format="json")
    makro = ok(res, 201)["makro"]
    return {"m": musteri, "d": diger_musteri, "yc": yc, "vip": vip.id, "yabanci_etiket": yabanci_etiket.id,
            "kural": kural, "makro": makro}


def _listeler_okunur(o) -> None:
    assert ok(o["yc"].get(kurallar_url(o["m"].id)))["kurallar"] == [o["kural"]]
    assert ok(o["yc"].get(makrolar_url(o["m"].id)))["makrolar"] == [o["makro"]]
    ok(o["yc"].get(f"{API}/operator/kurallar/{o['kural']['id']}/calismalar"))


def _kural_govdesi(o) -> dict:
    return {"ad": "Yeni", "aktif": True, "olay": "ziyaretci_mesaji", "sira": 1,
            "kosullar": [{"alan": "metin", "islem": "icerir", "deger": "fatura"}],
            "eylemler": [{"tur": "etiket_ekle", "etiket_id": o["vip"]}]}


# The values of KOTU_DEGERLER that a field does take.
GECERLI = {"aktif": [True], "paylasimli": [True], "sira": [0, -1], "kosullar": [[]], "kosullar.0.deger": [""]}


def _gecerli_mi(yer: str, deger) -> bool:
    return any(type(g) is type(deger) and g == deger for g in GECERLI.get(yer, []))


def _bozuklar(govde: dict):
    """(label, body): each field, and each part of the first condition and action, set to each bad value."""
    for alan in govde:
        for i, deger in enumerate(KOTU_DEGERLER):
            if not _gecerli_mi(alan, deger):
                yield f"{alan}={i}", {**govde, alan: deger}
    for liste in ("kosullar", "eylemler"):
        if not govde.get(liste):
            continue
        for parca in govde[liste][0]:
            for i, deger in enumerate(KOTU_DEGERLER):
                if not _gecerli_mi(f"{liste}.0.{parca}", deger):
                    yield f"{liste}.0.{parca}={i}", {**govde, liste: [{**govde[liste][0], parca: deger}]}


def test_every_bad_value_in_a_new_rule_is_a_400_naming_a_field_and_creates_nothing(ortam):
    o = ortam
    for etiket_, govde in _bozuklar(_kural_govdesi(o)):
        h = _hata_zarfi(_gonder(o["yc"], "POST", kurallar_url(o["m"].id), govde), etiket_)
        assert h["kod"] == "GECERSIZ_ISTEK" and h.get("alanlar"), f"{etiket_}: {h}"
    assert Kural.objects.count() == 1
    _listeler_okunur(o)


def test_every_bad_value_in_a_rule_change_is_a_400_and_changes_nothing(ortam):
    o = ortam
    url = f"{API}/operator/kurallar/{o['kural']['id']}"
    for etiket_, govde in _bozuklar(_kural_govdesi(o)):
        h = _hata_zarfi(_gonder(o["yc"], "PUT", url, govde), etiket_)
        assert h["kod"] == "GECERSIZ_ISTEK" and h.get("alanlar"), f"{etiket_}: {h}"
    _listeler_okunur(o)


@pytest.mark.parametrize("tur", [[], ["kapat"], {}, {"a": 1}, [[]]], ids=["bos-liste", "liste", "bos-nesne", "nesne",
                                                                         "ic-ice"])
def test_an_action_type_that_is_a_list_or_an_object_is_a_400_not_a_500(ortam, tur):
    # `tur` was looked up in a dict of actions: an unhashable value raised TypeError (500).
    o = ortam
    govde = {"ad": "x", "eylemler": [{"tur": tur}]}
    assert "eylemler.0.tur" in hata(_gonder(o["yc"], "POST", kurallar_url(o["m"].id), {**govde, "olay": "chat_baslatildi"}),
                                    400, "GECERSIZ_ISTEK")["alanlar"]
    assert "eylemler.0.tur" in hata(_gonder(o["yc"], "POST", makrolar_url(o["m"].id), govde), 400,
                                    "GECERSIZ_ISTEK")["alanlar"]
    _listeler_okunur(o)


@pytest.mark.parametrize("metin", ["a\ud800b", "\udfff", "\ud83d"], ids=["yuksek", "alcak", "yarim-emoji"])
def test_a_lone_surrogate_in_a_name_a_condition_or_a_text_action_is_a_400(ortam, metin):
    # No UTF-8 form: the driver failed on it while saving (500).
    o = ortam
    yc, m = o["yc"], o["m"].id
    for yol, govde, alan in (
        (kurallar_url(m), {"ad": metin, "olay": "chat_baslatildi", "eylemler": [{"tur": "kapat"}]}, "ad"),
        (kurallar_url(m), {"ad": "x", "olay": "chat_baslatildi", "eylemler": [{"tur": "kapat"}],
                           "kosullar": [{"alan": "metin", "islem": "icerir", "deger": metin}]}, "kosullar.0.deger"),
        (kurallar_url(m), {"ad": "x", "olay": "chat_baslatildi", "eylemler": [{"tur": "not", "icerik": metin}]},
         "eylemler.0.icerik"),
        (makrolar_url(m), {"ad": metin, "eylemler": [{"tur": "kapat"}]}, "ad"),
        (makrolar_url(m), {"ad": "x", "eylemler": [{"tur": "mesaj", "icerik": metin}]}, "eylemler.0.icerik"),
        (f"{API}/operator/makrolar/{o['makro']['id']}", {"ad": metin}, "ad"),
        (f"{API}/operator/kurallar/{o['kural']['id']}", {"ad": metin}, "ad"),
    ):
        method = "POST" if yol.endswith(("kurallar", "makrolar")) else "PUT"
        assert alan in hata(_gonder(yc, method, yol, govde), 400, "GECERSIZ_ISTEK")["alanlar"], (yol, alan)
    assert (Kural.objects.count(), Makro.objects.count()) == (1, 1)
    _listeler_okunur(o)


def test_every_bad_value_in_a_macro_is_a_400_and_stores_nothing(ortam):
    o = ortam
    govde = {"ad": "Yeni", "paylasimli": False, "eylemler": [{"tur": "mesaj", "icerik": "Merhaba"}]}
    for yol, method in ((makrolar_url(o["m"].id), "POST"), (f"{API}/operator/makrolar/{o['makro']['id']}", "PUT")):
        for etiket_, bozuk in _bozuklar(govde):
            h = _hata_zarfi(_gonder(o["yc"], method, yol, bozuk), f"{method} {etiket_}")
            assert h["kod"] == "GECERSIZ_ISTEK" and h.get("alanlar"), f"{method} {etiket_}: {h}"
    assert Makro.objects.count() == 1
    _listeler_okunur(o)


def test_twenty_one_actions_or_conditions_are_refused_and_twenty_are_taken(ortam):
    o = ortam
    eylem = {"tur": "etiket_ekle", "etiket_id": o["vip"]}
    kosul = {"alan": "metin", "islem": "icerir", "deger": "x"}
    for liste, parca in (("eylemler", eylem), ("kosullar", kosul)):
        govde = {"ad": "x", "olay": "chat_baslatildi", "eylemler": [eylem], liste: [parca] * 21}
        assert liste in hata(o["yc"].post(kurallar_url(o["m"].id), govde, format="json"), 400,
                             "GECERSIZ_ISTEK")["alanlar"]
        ok(o["yc"].post(kurallar_url(o["m"].id), {**govde, liste: [parca] * 20}, format="json"), 201)


def test_ids_of_another_tenant_in_an_action_or_a_condition_are_a_400_like_unknown_ones(ortam, diger_musteri):
    o = ortam
    yabanci = operator_yap(diger_musteri, rol="sahip")
    yabanci_ekip = ok(istemci(yabanci).post(f"{API}/operator/tenants/{diger_musteri.id}/ekipler", {"ad": "Gizli"},
                                            format="json"), 201)["ekip"]["id"]
    for eylem, alan in (({"tur": "etiket_ekle", "etiket_id": o["yabanci_etiket"]}, "eylemler.0.etiket_id"),
                        ({"tur": "etiket_ekle", "etiket_id": 10**9}, "eylemler.0.etiket_id"),
                        ({"tur": "operatore_ata", "operator_id": yabanci.id}, "eylemler.0.operator_id"),
                        ({"tur": "ekibe_ata", "ekip_id": yabanci_ekip}, "eylemler.0.ekip_id")):
        for yol, ek in ((kurallar_url(o["m"].id), {"olay": "chat_baslatildi"}), (makrolar_url(o["m"].id), {})):
            h = hata(o["yc"].post(yol, {"ad": "x", "eylemler": [eylem], **ek}, format="json"), 400, "GECERSIZ_ISTEK")
            assert alan in h["alanlar"], h
    kosul = {"alan": "ekip_id", "islem": "esit", "deger": yabanci_ekip}
    h = hata(o["yc"].post(kurallar_url(o["m"].id), {"ad": "x", "olay": "chat_baslatildi", "kosullar": [kosul],
                                                    "eylemler": [{"tur": "kapat"}]}, format="json"), 400, "GECERSIZ_ISTEK")
    assert "kosullar.0.deger" in h["alanlar"]
    _listeler_okunur(o)


@pytest.mark.parametrize("govde", [{"tur": []}, {"tur": {}}, {"tur": "chat", "id": []}, {"tur": "chat", "id": {}},
                                   {"tur": "ticket", "id": "1"}, {"tur": "ticket", "id": 2**64},
                                   {"tur": "ticket", "id": -1}, {"tur": "ticket", "id": True},
                                   {"tur": "ticket", "id": None}, {"tur": "ticket"}, {}, [], "x"],
                         ids=lambda g: json.dumps(g))
def test_applying_a_macro_to_nonsense_is_a_4xx_envelope(ortam, govde):
    h = _hata_zarfi(_gonder(ortam["yc"], "POST", f"{API}/operator/makrolar/{ortam['makro']['id']}/uygula", govde),
                    json.dumps(govde))
    assert h["kod"] in ("GECERSIZ_ISTEK", "BULUNAMADI"), h


@pytest.mark.parametrize(("method", "yol"), [
    ("PATCH", "/operator/tenants/{m}/kurallar"), ("DELETE", "/operator/tenants/{m}/kurallar"),
    ("PATCH", "/operator/kurallar/{kural}"), ("GET", "/operator/kurallar/{kural}"),
    ("POST", "/operator/kurallar/{kural}/calismalar"), ("PUT", "/operator/tenants/{m}/makrolar"),
    ("POST", "/operator/makrolar/{makro}"), ("GET", "/operator/makrolar/{makro}/uygula"),
])
def test_a_wrong_method_is_a_405_envelope(ortam, method, yol):
    yol = API + yol.format(m=ortam["m"].id, kural=ortam["kural"]["id"], makro=ortam["makro"]["id"])
    hata(ortam["yc"].generic(method, yol, b"{}", content_type="application/json"), 405, "YONTEM_DESTEKLENMIYOR")


@pytest.mark.parametrize(("govde", "content_type", "status", "kod"), [
    (b"{bozuk", "application/json", 400, "GECERSIZ_ISTEK"),
    (b'{"ad": NaN}', "application/json", 400, "GECERSIZ_ISTEK"),
    (b"\xff\xfe", "application/json", 400, "GECERSIZ_ISTEK"),
    (b"ad=x&olay=chat_baslatildi", "application/x-www-form-urlencoded", 415, "DESTEKLENMEYEN_ICERIK_TIPI"),
    (b"<kural/>", "text/xml", 415, "DESTEKLENMEYEN_ICERIK_TIPI"),
])
def test_malformed_json_and_wrong_content_types_are_refused_in_the_envelope(ortam, govde, content_type, status, kod):
    o = ortam
    for yol, method in ((kurallar_url(o["m"].id), "POST"), (makrolar_url(o["m"].id), "POST"),
                        (f"{API}/operator/kurallar/{o['kural']['id']}", "PUT"),
                        (f"{API}/operator/makrolar/{o['makro']['id']}", "PUT")):
        hata(o["yc"].generic(method, yol, govde, content_type=content_type), status, kod)
    _listeler_okunur(o)


def test_roles_and_tenants_rules_are_written_by_admins_of_their_own_tenant_only(ortam, diger_musteri):
    o = ortam
    oc = istemci(operator_yap(o["m"]))
    uye_olmayan = istemci(operator_yap(diger_musteri, rol="sahip"))
    kural_url = f"{API}/operator/kurallar/{o['kural']['id']}"
    makro_url = f"{API}/operator/makrolar/{o['makro']['id']}"
    hata(oc.put(kural_url, {"ad": "Operatör"}, format="json"), 403, "YETKISIZ")
    hata(oc.put(makro_url, {"ad": "Operatör"}, format="json"), 403, "YETKISIZ")  # a shared macro
    hata(oc.post(makrolar_url(o["m"].id), {"ad": "P", "paylasimli": True, "eylemler": [{"tur": "kapat"}]},
                 format="json"), 403, "YETKISIZ")
    # A non-member is told nothing exists, whatever its role elsewhere and whatever the body.
    for method, yol in (("GET", kurallar_url(o["m"].id)), ("POST", kurallar_url(o["m"].id)), ("PUT", kural_url),
                        ("DELETE", kural_url), ("GET", f"{kural_url}/calismalar"), ("GET", makrolar_url(o["m"].id)),
                        ("PUT", makro_url), ("DELETE", makro_url), ("POST", f"{makro_url}/uygula")):
        hata(uye_olmayan.generic(method, yol, b"{}", content_type="application/json"), 404, "BULUNAMADI")
    _listeler_okunur(o)
