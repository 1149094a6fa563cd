"""Contacts (CONTRACT 25) probed as an attacker and a careless client would: every bad edit, attribute
declaration or merge is the contract's envelope with the right status (never a 500), changes
nothing, and the list and the contact still read afterwards."""
import json

import pytest

from chat.tests.yardimci import baslat, ok, operator_istemcisi
from kisiler.models import Kisi
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import modul_verisi, widget_client

from .test_kisiler_api import KISILER, NITELIKLER, hata, kisi_url, nitelik_url

pytestmark = pytest.mark.django_db
KOTU_METINLER = ["a\x00b", "a\ud800b", "\udfff", "x" * 100_000]
KOTU_DEGERLER = [True, 0, -1, 1.5, 2**64, [], ["a"], {}, {"a": 1}, *KOTU_METINLER]


def _gonder(client, method: str, yol: str, govde):
    return client.generic(method, yol, json.dumps(govde), content_type="application/json")


@pytest.fixture(scope="module")
def ortam(django_db_setup, django_db_blocker, tmp_path_factory):
    # Written once for the module's ~60 cases, none of which may change it (each runs and rolls
    # back in its own test transaction).
    with modul_verisi(django_db_blocker, tmp_path_factory):
        musteri = MusteriFactory(firma_adi="Anadolu Yazılım")
        yield _ortam_kur(musteri, MusteriFactory(firma_adi="Başka Firma"), widget_client(musteri))


def _ortam_kur(musteri, diger_musteri, widget):
    _, op = operator_istemcisi(musteri)
    _, yonetici = operator_istemcisi(musteri, rol="yonetici")
    _, yabanci = operator_istemcisi(diger_musteri, rol="sahip")
    ok(yonetici.put(nitelik_url(musteri.id), {"nitelikler": NITELIKLER}, format="json"))
    baslat(widget, "z-1", ad="Ayşe", email="ayse@ornek.com")
    baslat(widget, "z-2", ad="Bora")
    baslat(widget_client(diger_musteri), "z-1", ad="Yabancı")
    kisiler = {k["ziyaretci_idleri"][0]: k for k in ok(op.get(KISILER))["kisiler"]}
    [yabanci_kisi] = ok(yabanci.get(KISILER))["kisiler"]
    return {"m": musteri, "d": diger_musteri, "op": op, "yonetici": yonetici, "yabanci": yabanci,
            "kisi": kisiler["z-1"], "kisi2": kisiler["z-2"], "yabanci_kisi": yabanci_kisi}


def _nitelik_alir(anahtar: str, deger) -> bool:
    """Whether a declared attribute of NITELIKLER takes this value of KOTU_DEGERLER."""
    if anahtar == "koltuk":
        return type(deger) in (int, float)
    if anahtar == "vip":
        return deger is True
    if anahtar == "not_":
        return isinstance(deger, str) and len(deger) <= 1000 and deger not in KOTU_METINLER[:3]
    return False


def _okunur(o) -> None:
    kisiler = ok(o["op"].get(KISILER))["kisiler"]
    assert {k["id"] for k in kisiler} == {o["kisi"]["id"], o["kisi2"]["id"]}
    assert ok(o["op"].get(kisi_url(o["kisi"]["id"])))["kisi"] == o["kisi"]
    assert ok(o["op"].get(nitelik_url(o["m"].id)))["nitelikler"] == NITELIKLER


def test_every_bad_value_of_every_field_is_a_400_naming_it_and_changes_nothing(ortam):
    o = ortam
    url = kisi_url(o["kisi"]["id"])
    for alan in ("ad", "email", "telefon", "sirket"):
        for deger in KOTU_DEGERLER:
            h = hata(_gonder(o["op"], "PATCH", url, {alan: deger}), 400, "GECERSIZ_ISTEK")
            assert alan in h["alanlar"], (alan, deger, h)
    for anahtar in ("plan", "koltuk", "yenileme", "vip", "not_"):
        for deger in KOTU_DEGERLER:
            if _nitelik_alir(anahtar, deger):
                continue
            h = hata(_gonder(o["op"], "PATCH", url, {"nitelikler": {anahtar: deger}}), 400, "GECERSIZ_ISTEK")
            assert f"nitelikler.{anahtar}" in h["alanlar"], (anahtar, deger, h)
    _okunur(o)


@pytest.mark.parametrize("metin", ["a\ud800b", "\udfff", "a\x00b"], ids=["yuksek", "alcak", "nul"])
def test_a_lone_surrogate_or_nul_in_a_text_attribute_is_a_400_not_a_500(ortam, metin):
    # A text attribute is stored in jsonb: PostgreSQL refuses both (a lone surrogate was a 500).
    o = ortam
    h = hata(_gonder(o["op"], "PATCH", kisi_url(o["kisi"]["id"]), {"nitelikler": {"not_": metin}}), 400,
             "GECERSIZ_ISTEK")
    assert "nitelikler.not_" in h["alanlar"], h
    _okunur(o)


@pytest.mark.parametrize("metin", ["a\ud800b", "\udfff", "a\x00b"], ids=["yuksek", "alcak", "nul"])
def test_a_lone_surrogate_or_nul_in_a_choice_of_a_declaration_is_a_400_not_a_500(ortam, metin):
    o = ortam
    tanim = [{"anahtar": "plan", "ad": "Plan", "tur": "secim", "secenekler": ["Temel", metin]}]
    h = hata(_gonder(o["yonetici"], "PUT", nitelik_url(o["m"].id), {"nitelikler": tanim}), 400, "GECERSIZ_ISTEK")
    assert "[0].secenekler" in h["alanlar"], h
    h = hata(_gonder(o["yonetici"], "PUT", nitelik_url(o["m"].id), {"nitelikler": [{**tanim[0], "ad": metin}]}), 400,
             "GECERSIZ_ISTEK")
    assert "[0].ad" in h["alanlar"], h
    _okunur(o)


@pytest.mark.parametrize("govde", [
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": []}]},
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": {}}]},
    {"nitelikler": [{"anahtar": [], "ad": "A", "tur": "metin"}]},
    {"nitelikler": [{"anahtar": "a" * 41, "ad": "A", "tur": "metin"}]},
    {"nitelikler": [{"anahtar": "A", "ad": "A", "tur": "metin"}]},
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": "secim", "secenekler": "Temel"}]},
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": "secim", "secenekler": [["x"]]}]},
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": "secim", "secenekler": ["x", "x"]}]},
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": "metin", "fazla": 1}]},
    {"nitelikler": [{"anahtar": "a", "ad": "A", "tur": "metin"}] * 2},
    {"nitelikler": [{"anahtar": f"a{i}", "ad": "A", "tur": "metin"} for i in range(201)]},
    {"nitelikler": {"anahtar": "a"}}, {"nitelikler": None}, {}, [], "x",
], ids=lambda g: json.dumps(g)[:60])
def test_a_bad_declaration_is_a_400_and_keeps_the_old_ones(ortam, govde):
    o = ortam
    hata(_gonder(o["yonetici"], "PUT", nitelik_url(o["m"].id), govde), 400, "GECERSIZ_ISTEK")
    _okunur(o)


@pytest.mark.parametrize("kisi_id", [None, "1", 1.5, True, [], {}, 0, -1, 2**63, 2**64], ids=repr)
def test_a_merge_with_a_bad_second_id_is_a_4xx_and_merges_nothing(ortam, kisi_id):
    o = ortam
    res = _gonder(o["yonetici"], "POST", kisi_url(o["kisi"]["id"], "/birlestir"), {"kisi_id": kisi_id})
    assert res.status_code in (400, 404), res.content
    assert res.json()["hata"]["kod"] in ("GECERSIZ_ISTEK", "BULUNAMADI")
    assert Kisi.objects.filter(musteri=o["m"]).count() == 2
    _okunur(o)


def test_another_tenants_contact_is_404_everywhere_and_never_listed(ortam):
    o = ortam
    yabanci = o["yabanci_kisi"]["id"]
    for method, yol, govde in (("GET", kisi_url(yabanci), None), ("PATCH", kisi_url(yabanci), {"ad": "Sızma"}),
                               ("POST", kisi_url(yabanci, "/birlestir"), {"kisi_id": o["kisi"]["id"]}),
                               ("GET", nitelik_url(o["d"].id), None),
                               ("PUT", nitelik_url(o["d"].id), {"nitelikler": []})):
        hata(_gonder(o["yonetici"], method, yol, govde), 404, "BULUNAMADI")
    # Merging another tenant's contact into one's own: the second id reads as unknown.
    a = hata(o["yonetici"].post(kisi_url(o["kisi"]["id"], "/birlestir"), {"kisi_id": yabanci}, format="json"), 404,
             "BULUNAMADI")
    b = hata(o["yonetici"].post(kisi_url(o["kisi"]["id"], "/birlestir"), {"kisi_id": 10**12}, format="json"), 404,
             "BULUNAMADI")
    assert a == b
    assert Kisi.objects.get(pk=yabanci).ad == "Yabancı"
    res = o["op"].get(f"{KISILER}?musteri_id={o['d'].id}")
    assert res.status_code == 404 or res.json()["data"]["kisiler"] == [], res.content
    assert yabanci not in {k["id"] for k in ok(o["op"].get(f"{KISILER}?limit=200"))["kisiler"]}
    _okunur(o)


def test_roles_a_plain_operator_may_edit_but_not_merge_or_declare(ortam):
    o = ortam
    hata(o["op"].post(kisi_url(o["kisi"]["id"], "/birlestir"), {"kisi_id": o["kisi2"]["id"]}, format="json"), 403,
         "YETKISIZ")
    hata(o["op"].put(nitelik_url(o["m"].id), {"nitelikler": []}, format="json"), 403, "YETKISIZ")
    _okunur(o)


@pytest.mark.parametrize("sorgu", ["musteri_id=abc", "musteri_id=-1", "musteri_id=0", "musteri_id=99999999999999999999",
                                   "q=%00", "q=" + "a" * 5000, "cursor=bozuk", "cursor=%00", "limit=0", "limit=-1",
                                   "limit=abc", "limit=99999999999999999999", "q=%ED%A0%80"])
def test_bad_list_parameters_are_a_4xx_envelope_never_a_500(ortam, sorgu):
    res = ortam["op"].get(f"{KISILER}?{sorgu}")
    if res.status_code != 200:
        assert res.status_code in (400, 404), res.content
        assert res.json()["basarili"] is False and res.json()["hata"]["kod"] in ("GECERSIZ_ISTEK", "BULUNAMADI")


@pytest.mark.parametrize(("method", "yol"), [("POST", KISILER), ("DELETE", KISILER), ("PUT", "{kisi}"),
                                             ("DELETE", "{kisi}"), ("GET", "{kisi}/birlestir"),
                                             ("POST", "nitelik"), ("PATCH", "nitelik")])
def test_a_wrong_method_is_a_405_envelope(ortam, method, yol):
    yol = {"{kisi}": kisi_url(ortam["kisi"]["id"]), "{kisi}/birlestir": kisi_url(ortam["kisi"]["id"], "/birlestir"),
           "nitelik": nitelik_url(ortam["m"].id)}.get(yol, yol)
    hata(ortam["yonetici"].generic(method, yol, b"{}", content_type="application/json"), 405, "YONTEM_DESTEKLENMIYOR")


@pytest.mark.parametrize(("govde", "content_type", "status"), [
    (b"{bozuk", "application/json", 400), (b'{"ad": NaN}', "application/json", 400),
    (b"ad=x", "application/x-www-form-urlencoded", 415), (b"[]", "application/json", 400),
])
def test_malformed_json_and_wrong_content_types(ortam, govde, content_type, status):
    o = ortam
    for method, yol in (("PATCH", kisi_url(o["kisi"]["id"])), ("PUT", nitelik_url(o["m"].id)),
                        ("POST", kisi_url(o["kisi"]["id"], "/birlestir"))):
        res = o["yonetici"].generic(method, yol, govde, content_type=content_type)
        assert res.status_code == status, (yol, res.content)
        assert res.json()["basarili"] is False
    _okunur(o)
