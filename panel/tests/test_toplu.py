"""CONTRACT 24, bulk changes: `POST /operator/toplu` changes each item as its single call would
(the same action: checks, events, webhooks), each on its own, and answers per item in the order
given; another tenant's items are BULUNAMADI there while the others still change."""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Mesaj, Oturum
from chat.tests.yardimci import operator_istemcisi
from supportdesk.core.fields import utc_iso
from tenants.etiketler import etiket_olustur
from tickets.models import Ticket
from webhooks.models import Olay

from .test_gorunumler import _sohbet, _ticket, hata

pytestmark = pytest.mark.django_db
TOPLU = "/api/v1/operator/toplu"


def toplu(client, tur, idler, eylem, status=200):
    res = client.post(TOPLU, {"tur": tur, "idler": idler, "eylem": eylem}, format="json")
    assert res.status_code == status, res.content
    return res.json()["data"]["sonuclar"] if status == 200 else res.json()["hata"]


def _basari(sonuclar) -> list:
    return [(s["id"], s["basarili"], s["hata"]["kod"] if s["hata"] else None) for s in sonuclar]


@pytest.fixture
def ortam(musteri, diger_musteri):
    ben, client = operator_istemcisi(musteri)
    return ben, client, musteri, diger_musteri


def test_labels_added_and_removed_across_tenants(ortam):
    ben, client, musteri, diger = ortam
    vip = etiket_olustur(musteri_id=musteri.id, ad="VIP")
    eski = etiket_olustur(musteri_id=musteri.id, ad="Eski")
    a, b = _sohbet(musteri, "z1"), _sohbet(musteri, "z2", operator=ben)
    b.etiketler.add(eski)
    yabanci = _sohbet(diger, "z3")
    sonuclar = toplu(client, "chat", [a.id, yabanci.id, b.id], {"tur": "etiket_ekle", "etiket_id": vip.id})
    assert _basari(sonuclar) == [(a.id, True, None), (yabanci.id, False, "BULUNAMADI"), (b.id, True, None)]
    assert sonuclar[1]["hata"]["mesaj"]
    assert set(a.etiketler.values_list("ad", flat=True)) == {"VIP"}
    assert set(b.etiketler.values_list("ad", flat=True)) == {"VIP", "Eski"}
    assert not yabanci.etiketler.exists()
    # Adding again changes nothing; removing takes only that one.
    toplu(client, "chat", [a.id], {"tur": "etiket_ekle", "etiket_id": vip.id})
    assert _basari(toplu(client, "chat", [a.id, b.id], {"tur": "etiket_kaldir", "etiket_id": vip.id})) == [
        (a.id, True, None), (b.id, True, None)]
    assert list(b.etiketler.values_list("ad", flat=True)) == ["Eski"] and not a.etiketler.exists()


def test_a_label_of_another_tenant_is_refused_per_item(ortam):
    _, client, musteri, diger = ortam
    yabanci_etiket = etiket_olustur(musteri_id=diger.id, ad="Yabancı")
    a = _sohbet(musteri, "z1")
    t = _ticket(musteri)
    for tur, nesne, eylem in (("chat", a, "etiket_ekle"), ("chat", a, "etiket_kaldir"),
                              ("ticket", t, "etiket_ekle")):
        assert _basari(toplu(client, tur, [nesne.id], {"tur": eylem, "etiket_id": yabanci_etiket.id})) == [
            (nesne.id, False, "BULUNAMADI")]


def test_close_chats_each_as_its_single_call(ortam):
    ben, client, musteri, diger = ortam
    a, b = _sohbet(musteri, "z1"), _sohbet(musteri, "z2", operator=ben)
    kapali = _sohbet(musteri, "z3", durum=Oturum.Durum.KAPANDI)
    yabanci = _sohbet(diger, "z4")
    sonuclar = toplu(client, "chat", [kapali.id, a.id, yabanci.id, b.id], {"tur": "kapat"})
    assert _basari(sonuclar) == [(kapali.id, False, "DURUM_CAKISMASI"), (a.id, True, None),
                                 (yabanci.id, False, "BULUNAMADI"), (b.id, True, None)]
    for o in (a, b):
        o.refresh_from_db()
        assert (o.durum, o.kapatan) == ("kapandi", "operator")
        # The close's own `sistem` line and webhook event, once per chat.
        assert Mesaj.objects.filter(oturum=o, gonderen="sistem").count() == 1
    assert Olay.objects.filter(olay="chat_kapandi").count() == 2
    assert Oturum.objects.get(pk=yabanci.pk).durum == "bekliyor"


def test_assign_chats(ortam):
    ben, client, musteri, _ = ortam
    diger_op, _ = operator_istemcisi(musteri)
    bekleyen, aktif = _sohbet(musteri, "z1"), _sohbet(musteri, "z2", operator=ben)
    # To me: a waiting chat is accepted; to a colleague: an active chat is transferred (its event).
    assert _basari(toplu(client, "chat", [bekleyen.id], {"tur": "ata", "operator_id": ben.id})) == [
        (bekleyen.id, True, None)]
    assert _basari(toplu(client, "chat", [aktif.id, bekleyen.id], {"tur": "ata", "operator_id": diger_op.id})) == [
        (aktif.id, True, None), (bekleyen.id, True, None)]
    assert set(Oturum.objects.filter(pk__in=[aktif.pk, bekleyen.pk]).values_list("operator_id", flat=True)) == {
        diger_op.id}
    assert Olay.objects.filter(olay="chat_atandi").count() == 3
    # Back to the queue (null); an operator who is not a member is the transfer's own 404.
    assert _basari(toplu(client, "chat", [aktif.id], {"tur": "ata", "operator_id": None})) == [(aktif.id, False,
                                                                                              "DURUM_CAKISMASI")]
    _, yonetici = operator_istemcisi(musteri, rol="yonetici")
    assert _basari(toplu(yonetici, "chat", [aktif.id], {"tur": "ata", "operator_id": None})) == [(aktif.id, True, None)]
    assert Oturum.objects.get(pk=aktif.pk).durum == "bekliyor"
    assert _basari(toplu(client, "chat", [bekleyen.id], {"tur": "ata", "operator_id": 10**9})) == [
        (bekleyen.id, False, "BULUNAMADI")]


def test_tickets_status_priority_owner_and_snooze(ortam):
    ben, client, musteri, diger = ortam
    a, b = _ticket(musteri), _ticket(musteri, durum=Ticket.Durum.KAPANDI)
    yabanci = _ticket(diger)
    assert _basari(toplu(client, "ticket", [a.id, b.id, yabanci.id], {"tur": "durum", "durum": "cozuldu"})) == [
        (a.id, True, None), (b.id, False, "DURUM_CAKISMASI"), (yabanci.id, False, "BULUNAMADI")]
    assert Ticket.objects.get(pk=a.pk).durum == "cozuldu"
    assert Olay.objects.filter(olay="ticket_cozuldu").count() == 1  # the single call's webhook
    c = _ticket(musteri)
    toplu(client, "ticket", [c.id], {"tur": "oncelik", "oncelik": "acil"})
    toplu(client, "ticket", [c.id], {"tur": "ata", "operator_id": ben.id})
    kadar = utc_iso(timezone.now() + timedelta(days=2))
    toplu(client, "ticket", [c.id], {"tur": "ertele", "kadar": kadar})
    c.refresh_from_db()
    assert (c.oncelik, c.operator_id, utc_iso(c.ertelendi_kadar)) == ("acil", ben.id, kadar)
    # A snooze of a resolved ticket is refused as its single call refuses it.
    assert _basari(toplu(client, "ticket", [a.id], {"tur": "ertele", "kadar": None})) == [(a.id, False,
                                                                                         "DURUM_CAKISMASI")]


def test_snooze_chats_in_bulk(ortam):
    _, client, musteri, _ = ortam
    a, b = _sohbet(musteri, "z1"), _sohbet(musteri, "z2")
    assert _basari(toplu(client, "chat", [a.id, b.id], {"tur": "ertele", "kadar": None})) == [
        (a.id, True, None), (b.id, True, None)]
    assert Oturum.objects.filter(ertelendi_ziyaretci=True).count() == 2


@pytest.mark.parametrize(("govde", "alan"), [
    ({"tur": "hepsi", "idler": [1], "eylem": {"tur": "kapat"}}, "tur"),
    ({"tur": "chat", "idler": [], "eylem": {"tur": "kapat"}}, "idler"),
    ({"tur": "chat", "idler": list(range(1, 202)), "eylem": {"tur": "kapat"}}, "idler"),
    ({"tur": "chat", "idler": "1,2", "eylem": {"tur": "kapat"}}, "idler"),
    ({"tur": "chat", "idler": [1, "2"], "eylem": {"tur": "kapat"}}, "idler"),
    ({"tur": "chat", "idler": [True], "eylem": {"tur": "kapat"}}, "idler"),
    ({"tur": "chat", "idler": [1]}, "eylem.tur"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "sil"}}, "eylem.tur"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "durum", "durum": "acik"}}, "eylem.tur"),  # tickets only
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "oncelik", "oncelik": "acil"}}, "eylem.tur"),
    ({"tur": "ticket", "idler": [1], "eylem": {"tur": "kapat"}}, "eylem.tur"),  # chats only
    ({"tur": "ticket", "idler": [1], "eylem": {"tur": "durum", "durum": "silindi"}}, "eylem.durum"),
    ({"tur": "ticket", "idler": [1], "eylem": {"tur": "oncelik"}}, "eylem.oncelik"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "etiket_ekle", "etiket_id": "1"}}, "eylem.etiket_id"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "etiket_ekle", "etiket_id": None}}, "eylem.etiket_id"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "ata", "operator_id": 0}}, "eylem.operator_id"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "kapat", "neden": "x"}}, "eylem.neden"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "2020-01-01T00:00:00+00:00"}}, "eylem.kadar"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "ertele"}}, "eylem.kadar"),
    ({"tur": "chat", "idler": [1], "eylem": {"tur": "ertele", "kadar": "2030-02-30T00:00:00+00:00"}}, "eylem.kadar"),
    ([1, 2], "genel"),
])
def test_a_bad_request_is_a_400_naming_its_field_and_changes_nothing(ortam, govde, alan):
    _, client, musteri, _ = ortam
    a = _sohbet(musteri, "z1")
    res = client.post(TOPLU, govde, format="json")
    assert alan in hata(res, 400, "GECERSIZ_ISTEK")["alanlar"], res.content
    assert Oturum.objects.get(pk=a.pk).durum == "bekliyor"


def test_two_hundred_items_are_allowed_and_answered_in_order(ortam):
    _, client, musteri, _ = ortam
    gercek = _sohbet(musteri, "z1")
    idler = [*range(10**8, 10**8 + 199), gercek.id]
    sonuclar = toplu(client, "chat", idler, {"tur": "ertele", "kadar": None})
    assert [s["id"] for s in sonuclar] == idler
    assert sonuclar[-1]["basarili"] and not any(s["basarili"] for s in sonuclar[:-1])


def test_bulk_needs_a_login(api):
    hata(api.post(TOPLU, {}, format="json"), 401, "KIMLIK_GEREKLI")


def test_give_chats_and_tickets_to_a_team(ortam):
    # CONTRACT 22's actions (chat_ekibe_aktar, ticket_ekibe_ata), called per item: another tenant's
    # team is that item's 400, another tenant's item its 404.
    from tenants import ekipler

    ben, client, musteri, diger = ortam
    satis = ekipler.ekip_olustur(musteri_id=musteri.id, ad="Satış", uyeler=[ben.id])
    yabanci_ekip = ekipler.ekip_olustur(musteri_id=diger.id, ad="Yabancı")
    a, yabanci = _sohbet(musteri, "z1"), _sohbet(diger, "z2")
    t = _ticket(musteri)
    assert _basari(toplu(client, "chat", [a.id, yabanci.id], {"tur": "ekibe_ata", "ekip_id": satis.id})) == [
        (a.id, True, None), (yabanci.id, False, "BULUNAMADI")]
    assert Oturum.objects.get(pk=a.pk).ekip_id == satis.id and Oturum.objects.get(pk=yabanci.pk).ekip_id is None
    assert _basari(toplu(client, "ticket", [t.id], {"tur": "ekibe_ata", "ekip_id": yabanci_ekip.id})) == [
        (t.id, False, "GECERSIZ_ISTEK")]
    assert _basari(toplu(client, "ticket", [t.id], {"tur": "ekibe_ata", "ekip_id": satis.id})) == [(t.id, True, None)]
    assert Ticket.objects.get(pk=t.pk).ekip_id == satis.id
    # null: back to the whole tenant.
    toplu(client, "chat", [a.id], {"tur": "ekibe_ata", "ekip_id": None})
    assert Oturum.objects.get(pk=a.pk).ekip_id is None


def test_a_repeated_id_is_answered_twice_each_as_its_single_call(ortam):
    # CONTRACT 24: a result per item given, in order; the second close of one chat is the single
    # call's own refusal, not a merge of the two.
    _, client, musteri, _ = ortam
    a = _sohbet(musteri, "z1")
    assert _basari(toplu(client, "chat", [a.id, a.id], {"tur": "kapat"})) == [
        (a.id, True, None), (a.id, False, "DURUM_CAKISMASI")]
    assert Olay.objects.filter(olay="chat_kapandi").count() == 1
