"""Views, snooze, bulk changes and chat-to-ticket (CONTRACT 24) probed as an attacker and a careless
client would: whatever arrives, the answer is the contract's envelope with the right status (never
a 500), a refused call changes nothing, and the lists and counts still read afterwards."""
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Oturum
from chat.tests.yardimci import CHATS, ok, operator_istemcisi
from supportdesk.core.fields import utc_iso
from tenants.etiketler import etiket_olustur
from tickets.models import Ticket

from .test_gorunumler import GORUNUMLER, TICKETS, _sohbet, _ticket, hata

pytestmark = pytest.mark.django_db
API = "/api/v1"
TOPLU = f"{API}/operator/toplu"


def _gonder(client, method: str, yol: str, govde):
    return client.generic(method, yol, json.dumps(govde), content_type="application/json")


@pytest.fixture
def ortam(musteri, diger_musteri):
    ben, client = operator_istemcisi(musteri)
    return {"ben": ben, "c": client, "m": musteri, "d": diger_musteri, "chat": _sohbet(musteri, "z1"),
            "ticket": _ticket(musteri), "yabanci_chat": _sohbet(diger_musteri, "z9"),
            "yabanci_ticket": _ticket(diger_musteri)}


def _okunur(o) -> None:
    for yol in (CHATS, TICKETS, GORUNUMLER, f"{CHATS}?gorunum=ertelenen", f"{TICKETS}?gorunum=ertelenen"):
        ok(o["c"].get(yol))


@pytest.mark.parametrize("tur", [[], ["kapat"], {}, {"tur": "kapat"}, [[]]],
                         ids=["bos-liste", "liste", "bos-nesne", "nesne", "ic-ice"])
def test_an_action_type_that_is_a_list_or_an_object_is_a_400_not_a_500(ortam, tur):
    # `eylem.tur` was looked up in a dict of actions: an unhashable value raised TypeError (500).
    o = ortam
    for nesne in ("chat", "ticket"):
        res = _gonder(o["c"], "POST", TOPLU, {"tur": nesne, "idler": [o[nesne].id], "eylem": {"tur": tur}})
        assert "eylem.tur" in hata(res, 400, "GECERSIZ_ISTEK")["alanlar"]
    assert Oturum.objects.get(pk=o["chat"].pk).durum == "bekliyor"
    _okunur(o)


@pytest.mark.parametrize("govde", [
    {"tur": [], "idler": [1], "eylem": {"tur": "kapat"}},
    {"tur": {}, "idler": [1], "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": [1.0], "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": [-1], "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": [None], "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": [[1]], "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": {"1": 1}, "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": [], "eylem": {"tur": "kapat"}},
    {"tur": "chat", "idler": [1], "eylem": []},
    {"tur": "chat", "idler": [1], "eylem": None},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ata", "operator_id": "1"}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ekibe_ata", "ekip_id": 1.5}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "etiket_ekle", "etiket_id": [1]}},
    {"tur": "ticket", "idler": [1], "eylem": {"tur": "oncelik", "oncelik": ["acil"]}},
    {"tur": "ticket", "idler": [1], "eylem": {"tur": "durum", "durum": {}}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": 2**64}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": -1}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": 1e308}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "yarın"}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "2027-02-30T10:00:00+00:00"}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "9999-12-31T23:59:59+00:00"}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "2027-01-01T00:00:00\x00"}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "2027-01-01T00:00:00\ud800"}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": []}},
    {"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": True}},
], ids=lambda g: json.dumps(g)[:60])
def test_a_bad_bulk_request_is_a_400_envelope_and_changes_nothing(ortam, govde):
    o = ortam
    res = _gonder(o["c"], "POST", TOPLU, govde)
    h = hata(res, 400, "GECERSIZ_ISTEK")
    assert h.get("alanlar"), h
    assert Oturum.objects.get(pk=o["chat"].pk).durum == "bekliyor"
    _okunur(o)


def test_ids_no_row_can_have_are_not_found_per_item(ortam):
    o = ortam
    idler = [2**63 - 1, 2**63, 2**64]
    sonuclar = ok(o["c"].post(TOPLU, {"tur": "chat", "idler": idler, "eylem": {"tur": "kapat"}}, format="json"))["sonuclar"]
    assert [(s["id"], s["basarili"], s["hata"]["kod"]) for s in sonuclar] == [(i, False, "BULUNAMADI") for i in idler]
    sonuc = ok(o["c"].post(TOPLU, {"tur": "chat", "idler": [o["chat"].id], "eylem": {"tur": "ata", "operator_id": 2**64}},
                           format="json"))["sonuclar"][0]
    assert (sonuc["basarili"], sonuc["hata"]["kod"]) == (False, "BULUNAMADI")
    assert Oturum.objects.get(pk=o["chat"].pk).durum == "bekliyor"


def test_two_hundred_and_one_items_are_refused_whole(ortam):
    o = ortam
    res = o["c"].post(TOPLU, {"tur": "chat", "idler": [o["chat"].id] * 201, "eylem": {"tur": "kapat"}}, format="json")
    assert "idler" in hata(res, 400, "GECERSIZ_ISTEK")["alanlar"]
    assert Oturum.objects.get(pk=o["chat"].pk).durum == "bekliyor"


def test_a_repeated_id_is_answered_each_time_as_its_single_call_would_be(ortam):
    # The first close closes it; the second finds it closed (409), as a second single call would.
    o = ortam
    res = o["c"].post(TOPLU, {"tur": "chat", "idler": [o["chat"].id, o["chat"].id], "eylem": {"tur": "kapat"}},
                      format="json")
    sonuclar = ok(res)["sonuclar"]
    assert [(s["id"], s["basarili"], s["hata"] and s["hata"]["kod"]) for s in sonuclar] == [
        (o["chat"].id, True, None), (o["chat"].id, False, "DURUM_CAKISMASI")]
    _okunur(o)


def test_another_tenants_items_and_parameters_never_change_and_never_leak(ortam):
    o = ortam
    yabanci_etiket = etiket_olustur(musteri_id=o["d"].id, ad="Yabancı")
    yabanci_uye, _ = operator_istemcisi(o["d"])
    for tur, nesne in (("chat", "yabanci_chat"), ("ticket", "yabanci_ticket")):
        sonuclar = ok(o["c"].post(TOPLU, {"tur": tur, "idler": [o[nesne].id, 10**12], "eylem": {
            "tur": "ertele", "kadar": None}}, format="json"))["sonuclar"]
        # Another tenant's item and one that does not exist read alike.
        assert [(s["basarili"], s["hata"]["kod"], s["hata"]["mesaj"]) for s in sonuclar][0] == \
            (False, "BULUNAMADI", sonuclar[1]["hata"]["mesaj"])
    sonuc = ok(o["c"].post(TOPLU, {"tur": "chat", "idler": [o["chat"].id], "eylem": {
        "tur": "etiket_ekle", "etiket_id": yabanci_etiket.id}}, format="json"))["sonuclar"][0]
    assert (sonuc["basarili"], sonuc["hata"]["kod"]) == (False, "BULUNAMADI")
    sonuc = ok(o["c"].post(TOPLU, {"tur": "chat", "idler": [o["chat"].id], "eylem": {
        "tur": "ata", "operator_id": yabanci_uye.id}}, format="json"))["sonuclar"][0]
    assert sonuc["basarili"] is False and sonuc["hata"]["kod"] in ("BULUNAMADI", "GECERSIZ_ISTEK"), sonuc
    o["yabanci_chat"].refresh_from_db()
    assert (o["yabanci_chat"].ertelendi_ziyaretci, o["yabanci_chat"].durum) == (False, "bekliyor")
    assert not o["chat"].etiketler.exists() and Oturum.objects.get(pk=o["chat"].pk).operator_id is None


# --- snooze ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("govde", [
    {}, {"kadar": "yarın"}, {"kadar": 5}, {"kadar": True}, {"kadar": []}, {"kadar": {}},
    {"kadar": "2020-01-01T00:00:00+00:00"}, {"kadar": "9999-12-31T23:59:59+00:00"}, {"kadar": "2027-13-45T99:00:00"},
    {"kadar": "2027-02-30T10:00:00+00:00"}, {"kadar": "2027-01-01T25:00:00+00:00"},
    {"kadar": "2027-01-01T00:00:00\x00"}, {"kadar": "\ud800"}, {"kadar": "x" * 100_000},
[], "x", None,
], ids=lambda g: json.dumps(g)[:50])
def test_a_bad_snooze_body_is_a_400_and_snoozes_nothing(ortam, govde):
    o = ortam
    o["chat"].operator = o["ben"]
    o["chat"].durum = Oturum.Durum.AKTIF
    o["chat"].save()
    for yol in (f"{API}/operator/chat/{o['chat'].id}/ertele", f"{API}/operator/ticket/{o['ticket'].id}/ertele"):
        hata(_gonder(o["c"], "POST", yol, govde), 400, "GECERSIZ_ISTEK")
    o["chat"].refresh_from_db()
    o["ticket"].refresh_from_db()
    assert (o["chat"].ertelendi_kadar, o["chat"].ertelendi_ziyaretci) == (None, False)
    assert (o["ticket"].ertelendi_kadar, o["ticket"].ertelendi_ziyaretci) == (None, False)
    _okunur(o)


def test_snoozing_another_tenants_items_is_404_for_both_verbs(ortam):
    o = ortam
    kadar = utc_iso(timezone.now() + timedelta(hours=1))
    for yol in (f"{API}/operator/chat/{o['yabanci_chat'].id}/ertele",
                f"{API}/operator/ticket/{o['yabanci_ticket'].id}/ertele"):
        hata(o["c"].post(yol, {"kadar": kadar}, format="json"), 404, "BULUNAMADI")
        hata(o["c"].delete(yol), 404, "BULUNAMADI")
        hata(o["c"].put(yol, {"kadar": kadar}, format="json"), 405, "YONTEM_DESTEKLENMIYOR")
    assert Oturum.objects.get(pk=o["yabanci_chat"].pk).ertelendi_kadar is None
    assert Ticket.objects.get(pk=o["yabanci_ticket"].pk).ertelendi_kadar is None


# --- views and list parameters ---------------------------------------------------------------------
@pytest.mark.parametrize("sorgu", [
    "gorunum=yok", "gorunum=", "gorunum=%00", "gorunum=ACIK", "gorunum[]=acik", "gorunum=acik&gorunum=benim",
    "ekip_id=abc", "ekip_id=-1", "ekip_id=0", "ekip_id=99999999999999999999999", "ekip_id=%00", "ekip_id=1.5",
    "ekip_id=%D9%A3",  # an Arabic-Indic digit: isdigit() says yes, int() too
    "limit=0", "limit=-1", "limit=abc", "limit=99999999999999999999", "limit=1.5", "limit=201",
    "cursor=bozuk", "cursor=%00", "cursor=" + "A" * 5000, "cursor=eyJ4IjoxfQ",
])
def test_bad_list_parameters_are_a_4xx_envelope_never_a_500(ortam, sorgu):
    o = ortam
    for yol in (CHATS, TICKETS):
        res = o["c"].get(f"{yol}?{sorgu}")
        if res.status_code == 200:
            # A value the list may ignore or clamp; it still answers the envelope.
            assert res.json()["basarili"] is True, res.content
            continue
        assert res.status_code in (400, 404), (yol, sorgu, res.content)
        assert res.json()["hata"]["kod"] in ("GECERSIZ_ISTEK", "BULUNAMADI"), res.content


def test_the_largest_page_is_200_and_a_huge_limit_never_fails(ortam):
    o = ortam
    for yol in (CHATS, TICKETS):
        res = o["c"].get(f"{yol}?gorunum=acik&limit=200")
        assert res.status_code == 200, res.content
        res = o["c"].get(f"{yol}?gorunum=acik&limit=1000000")
        assert res.status_code in (200, 400), res.content
        assert res.json()["basarili"] is (res.status_code == 200)


def test_another_tenants_team_in_a_list_filter_is_404_like_an_unknown_one(ortam):
    o = ortam
    yabanci, yc = operator_istemcisi(o["d"], rol="sahip")
    ekip = ok(yc.post(f"{API}/operator/tenants/{o['d'].id}/ekipler", {"ad": "Gizli"}, format="json"), 201)["ekip"]
    for yol in (CHATS, TICKETS):
        a = hata(o["c"].get(f"{yol}?ekip_id={ekip['id']}"), 404, "BULUNAMADI")
        b = hata(o["c"].get(f"{yol}?ekip_id={ekip['id'] + 1000}"), 404, "BULUNAMADI")
        assert a == b


@pytest.mark.parametrize(("method", "yol"), [("POST", "/operator/gorunumler"), ("DELETE", "/operator/gorunumler"),
                                             ("GET", "/operator/toplu"), ("PUT", "/operator/toplu"),
                                             ("GET", "/operator/chat/{chat}/ertele"),
                                             ("PATCH", "/operator/ticket/{ticket}/ertele"),
                                             ("GET", "/operator/chat/{chat}/ticket")])
def test_a_wrong_method_is_a_405_envelope(ortam, method, yol):
    yol = API + yol.format(chat=ortam["chat"].id, ticket=ortam["ticket"].id)
    hata(ortam["c"].generic(method, yol, b"{}", content_type="application/json"), 405, "YONTEM_DESTEKLENMIYOR")


@pytest.mark.parametrize(("govde", "content_type", "status"), [
    (b"{bozuk", "application/json", 400), (b'{"tur": Infinity}', "application/json", 400),
    (b"tur=chat", "application/x-www-form-urlencoded", 415), (b"--b--\r\n", "multipart/form-data; boundary=b", 415),
])
def test_malformed_json_and_wrong_content_types(ortam, govde, content_type, status):
    o = ortam
    for yol in (TOPLU, f"{API}/operator/chat/{o['chat'].id}/ertele", f"{API}/operator/chat/{o['chat'].id}/ticket"):
        res = o["c"].generic("POST", yol, govde, content_type=content_type)
        assert res.status_code == status, (yol, res.content)
        assert res.json()["basarili"] is False
    _okunur(o)


# --- chat to ticket --------------------------------------------------------------------------------
@pytest.mark.parametrize("govde", [
    {}, {"konu": ""}, {"konu": "   "}, {"konu": None}, {"konu": 5}, {"konu": ["a"]}, {"konu": "x" * 201},
    {"konu": "a\x00b"}, {"konu": "a\ud800b"}, {"konu": "K", "oncelik": "cok"}, {"konu": "K", "oncelik": ["acil"]},
[], "K",
], ids=lambda g: json.dumps(g)[:50])
def test_a_bad_chat_to_ticket_body_is_a_400_and_makes_no_ticket(ortam, govde):
    o = ortam
    once = Ticket.objects.count()
    hata(_gonder(o["c"], "POST", f"{API}/operator/chat/{o['chat'].id}/ticket", govde), 400, "GECERSIZ_ISTEK")
    assert Ticket.objects.count() == once
    assert not Ticket.objects.filter(oturum_id=o["chat"].pk).exists()
    _okunur(o)


def test_chat_to_ticket_of_another_tenants_chat_is_404(ortam):
    o = ortam
    once = Ticket.objects.count()
    hata(o["c"].post(f"{API}/operator/chat/{o['yabanci_chat'].id}/ticket", {"konu": "Sızma"}, format="json"), 404,
         "BULUNAMADI")
    assert Ticket.objects.count() == once
