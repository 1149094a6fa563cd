"""Teams (CONTRACT 22), the tenant's settings (15) and SLA (17), and a visitor's token (2a) probed as
an attacker and a careless client would: every answer is the contract's envelope with the right
status (never a 500), a refused write changes nothing, and every later read still works."""
import json

import pytest

from chat.tests.yardimci import ok, operator_istemcisi
from supportdesk.testing.fixtures import widget_client
from tenants.models import Ekip

from .test_etiketler import hata

pytestmark = pytest.mark.django_db
API = "/api/v1"
KOTU = [None, True, 0, -1, 1.5, 2**64, 10**30, "", "1", "a\x00b", "a\ud800b", "\udfff", [], [1], {}, {"a": 1},
        "x" * 70_000]


def _gonder(client, method: str, yol: str, govde):
    return client.generic(method, yol, json.dumps(govde), content_type="application/json")


@pytest.fixture
def ortam(musteri, diger_musteri, settings):
    settings.WIDGET_RATE_LIMIT = "100000/min"
    sahip, sc = operator_istemcisi(musteri, rol="sahip")
    _, yc = operator_istemcisi(diger_musteri, rol="sahip")
    ekip = ok(sc.post(f"{API}/operator/tenants/{musteri.id}/ekipler", {"ad": "Satış", "widgetta_secilir": True},
                      format="json"), 201)["ekip"]
    yabanci_ekip = ok(yc.post(f"{API}/operator/tenants/{diger_musteri.id}/ekipler",
                              {"ad": "Gizli", "widgetta_secilir": True}, format="json"), 201)["ekip"]
    return {"m": musteri, "d": diger_musteri, "sc": sc, "yc": yc, "ekip": ekip, "yabanci_ekip": yabanci_ekip,
            "ayarlar": ok(sc.get(f"{API}/operator/tenants/{musteri.id}/ayarlar"))["ayarlar"],
            "sla": ok(sc.get(f"{API}/operator/tenants/{musteri.id}/sla"))["sla"]}


def _okunur(o) -> None:
    m = o["m"].id
    assert ok(o["sc"].get(f"{API}/operator/tenants/{m}/ekipler"))["ekipler"] == [o["ekip"]]
    assert ok(o["sc"].get(f"{API}/operator/tenants/{m}/ayarlar"))["ayarlar"] == o["ayarlar"]
    assert ok(o["sc"].get(f"{API}/operator/tenants/{m}/sla"))["sla"] == o["sla"]
    assert ok(widget_client(o["m"]).post(f"{API}/widget/init", {"ziyaretci_id": "z1"}, format="json"))["ekipler"] == [
        {"id": o["ekip"]["id"], "ad": "Satış"}]


@pytest.mark.parametrize("metin", ["a\ud800b", "\udfff", "a\x00b"], ids=["yuksek", "alcak", "nul"])
def test_a_lone_surrogate_or_nul_in_the_closed_message_is_a_400(ortam, metin):
    # A lone surrogate has no UTF-8 form: saving the tenant failed in the driver (500).
    o = ortam
    h = hata(_gonder(o["sc"], "PUT", f"{API}/operator/tenants/{o['m'].id}/ayarlar", {"mesai_disi_mesaji": metin}),
             400, "GECERSIZ_ISTEK")
    assert "mesai_disi_mesaji" in h["alanlar"], h
    _okunur(o)


def test_every_bad_value_of_every_setting_is_a_400_naming_it(ortam):
    o = ortam
    yol = f"{API}/operator/tenants/{o['m'].id}/ayarlar"
    gecerli = [("sessiz_kapatma_dk", None), ("yeniden_atama_dk", None), ("saklama_gun", None),
               ("calisma_saatleri", None), ("mesai_disi_mesaji", ""), ("tatiller", [])]
    for alan in ("saat_dilimi", "atama_modu", "calisma_saatleri", "tatiller", "mesai_disi_mesaji",
                 "bekleme_zaman_asimi_dk", "sessiz_kapatma_dk", "yeniden_atama_dk", "saklama_gun", "dil"):
        for deger in [*KOTU, {"pzt": [["09:00", "25:00"]]}, {"pzt": [["10:00", "09:00"]]}, {"yok": []}]:
            if any(a == alan and type(d) is type(deger) and d == deger for a, d in gecerli) or (
                    alan == "mesai_disi_mesaji" and isinstance(deger, str) and len(deger) <= 500 and "\x00" not in deger
                    and not any("\ud800" <= c <= "\udfff" for c in deger)):
                continue
            if alan == "calisma_saatleri" and deger == {}:
                continue  # an object with no day: closed every day, a valid choice
            h = hata(_gonder(o["sc"], "PUT", yol, {alan: deger}), 400, "GECERSIZ_ISTEK")
            assert alan in h["alanlar"], (alan, deger, h)
    _okunur(o)


def test_every_bad_value_of_the_sla_policy_is_a_400(ortam):
    o = ortam
    yol = f"{API}/operator/tenants/{o['m'].id}/sla"
    for alan in ("aktif", "mesai_icinde", "uyari_dk", "chat_ilk_yanit_sn", "hedefler"):
        for deger in [*KOTU, {"acil": []}, {"acil": {"ilk_yanit_dk": -1}}, {"acil": {"ilk_yanit_dk": "5"}},
                      {"yok": {}}, {"acil": {"yok": 1}}]:
            if deger is True and alan in ("aktif", "mesai_icinde") or deger is None and alan == "chat_ilk_yanit_sn":
                continue
            if alan == "uyari_dk" and type(deger) is int and deger == 0:
                continue  # no warning before a due time: a valid choice
            if alan == "hedefler" and deger == {}:
                continue  # changes nothing
            res = _gonder(o["sc"], "PUT", yol, {alan: deger})
            assert res.status_code == 400, (alan, deger, res.content[:300])
            assert res.json()["hata"]["kod"] == "GECERSIZ_ISTEK"
    assert ok(o["sc"].get(yol))["sla"] == o["sla"]


def test_every_bad_value_of_a_team_is_a_400_and_creates_nothing(ortam):
    o = ortam
    yol = f"{API}/operator/tenants/{o['m'].id}/ekipler"
    for alan in ("ad", "uyeler", "atama_modu", "widgetta_secilir"):
        for deger in [*KOTU, [2**64], [1.5], ["1"], [None], [[1]]]:
            if (alan, deger) in (("atama_modu", None), ("uyeler", [])) or alan == "widgetta_secilir" and deger is True:
                continue
            if alan == "ad" and deger in ("1",):
                continue
            h = hata(_gonder(o["sc"], "POST", yol, {"ad": "Yeni", alan: deger}), 400, "GECERSIZ_ISTEK")
            assert alan in h["alanlar"], (alan, deger, h)
    assert Ekip.objects.filter(musteri=o["m"]).count() == 1
    _okunur(o)


def test_another_tenants_team_is_refused_everywhere_a_team_is_named(ortam):
    o = ortam
    w = widget_client(o["m"])
    yabanci = o["yabanci_ekip"]["id"]
    for yol, govde in (("/widget/chat/start", {"ziyaretci_id": "z1", "ad": "A", "mesaj": "m"}),
                       ("/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "k", "mesaj": "m"})):
        a = hata(w.post(API + yol, {**govde, "ekip_id": yabanci}, format="json"), 400, "GECERSIZ_ISTEK")
        b = hata(w.post(API + yol, {**govde, "ekip_id": 10**12}, format="json"), 400, "GECERSIZ_ISTEK")
        assert a == b  # another tenant's team reads as an unknown one
    for method, yol in (("PUT", f"/operator/ekipler/{yabanci}"), ("DELETE", f"/operator/ekipler/{yabanci}"),
                        ("GET", f"/operator/tenants/{o['d'].id}/ekipler")):
        hata(_gonder(o["sc"], method, API + yol, {"ad": "Sızma"}), 404, "BULUNAMADI")
    assert Ekip.objects.get(pk=yabanci).ad == "Gizli"
    _okunur(o)


def test_a_visitor_token_of_one_tenant_opens_nothing_on_another(ortam):
    o = ortam
    zid = "z_" + "a" * 32
    token = ok(widget_client(o["m"]).post(f"{API}/widget/init", {"ziyaretci_id": zid, "token_iste": True},
                                          format="json"))["ziyaretci_token"]
    baska = widget_client(o["d"], HTTP_X_ZIYARETCI_TOKEN=token)
    # The other tenant binds the same id on its own; this tenant's token is not its.
    ok(widget_client(o["d"]).post(f"{API}/widget/init", {"ziyaretci_id": zid, "token_iste": True}, format="json"))
    res = baska.post(f"{API}/widget/chat/start", {"ziyaretci_id": zid, "ad": "A", "mesaj": "m"}, format="json")
    hata(res, 401, "ZIYARETCI_TOKEN_GEREKLI")
    hata(baska.get(f"{API}/widget/ticket/list?ziyaretci_id={zid}"), 401, "ZIYARETCI_TOKEN_GEREKLI")


@pytest.mark.parametrize(("method", "yol"), [("PATCH", "/operator/tenants/{m}/ekipler"),
                                             ("DELETE", "/operator/tenants/{m}/ekipler"),
                                             ("GET", "/operator/ekipler/{ekip}"), ("POST", "/operator/ekipler/{ekip}"),
                                             ("POST", "/operator/tenants/{m}/ayarlar"),
                                             ("DELETE", "/operator/tenants/{m}/sla")])
def test_a_wrong_method_is_a_405_envelope(ortam, method, yol):
    yol = API + yol.format(m=ortam["m"].id, ekip=ortam["ekip"]["id"])
    hata(ortam["sc"].generic(method, yol, b"{}", content_type="application/json"), 405, "YONTEM_DESTEKLENMIYOR")


@pytest.mark.parametrize(("govde", "content_type", "status"), [
    (b"{bozuk", "application/json", 400), (b'{"ad": -Infinity}', "application/json", 400),
    (b"ad=x", "application/x-www-form-urlencoded", 415), (b"[1]", "application/json", 400),
])
def test_malformed_json_and_wrong_content_types(ortam, govde, content_type, status):
    o = ortam
    for method, yol in (("POST", f"/operator/tenants/{o['m'].id}/ekipler"), ("PUT", f"/operator/ekipler/{o['ekip']['id']}"),
                        ("PUT", f"/operator/tenants/{o['m'].id}/ayarlar"), ("PUT", f"/operator/tenants/{o['m'].id}/sla")):
        res = o["sc"].generic(method, API + yol, govde, content_type=content_type)
        assert res.status_code == status, (yol, res.content)
        assert res.json()["basarili"] is False
    _okunur(o)
